package merge

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// TestSectionsGolden writes the same measurements through the run path
// (one client's snapshot) and the merge path (two clients that split the
// same operations between them, through their JSON reports), and requires
// both to give the one golden text: merged sections are the run's, byte for
// byte. The merge of their HdrHistogram logs gives the same text without
// the Return= lines, which logs do not carry.
func TestSectionsGolden(t *testing.T) {
	p := props.FromMap(map[string]string{"hdrhistogram.percentiles": "50,95,99.9", "measurement.interval": "both"})
	cfg, err := measurement.ParseConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	all := measurement.NewCollector(cfg, measurement.YCSB)
	halves := []*measurement.Collector{measurement.NewCollector(cfg, measurement.YCSB), measurement.NewCollector(cfg, measurement.YCSB)}
	recAll := all.NewRecorder()
	recHalf := []*measurement.Recorder{halves[0].NewRecorder(), halves[1].NewRecorder()}
	// Statuses first seen out of the reference's order, so that the order
	// of the Return= lines is the writer's.
	statuses := []db.Status{db.NotFound, db.Error, db.OK, db.OK, db.BatchedOK, db.OK}
	for i := int64(1); i <= 600; i++ {
		op, st := measurement.Read, statuses[i%int64(len(statuses))]
		if i%3 == 0 {
			op = measurement.Update
		}
		start, end, intended := i*1_000_000, i*1_000_000+i*i*137, i*1_000_000-i*2000
		recAll.Done(op, st, start, end, intended)
		// Each client sees every measurement, so the merge finds them in
		// the run's order.
		recHalf[i/7%2].Done(op, st, start, end, intended)
	}
	all.Tick()
	runRows := all.Total().Rows(cfg)

	var reps []*jsonreport.Report
	for _, c := range halves {
		c.Tick()
		reps = append(reps, roundTrip(t, clientReport(t, c.Total(), cfg)))
	}
	merged, err := Merge([]string{"a.json", "b.json"}, reps)
	if err != nil {
		t.Fatal(err)
	}
	// After the merge's four OVERALL rows, before its CLIENT-<i> rows.
	var mergeRows []export.Row
	for _, r := range merged.Sections[4:] {
		if !strings.HasPrefix(r.Metric, "CLIENT-") {
			mergeRows = append(mergeRows, r)
		}
	}

	golden := filepath.Join("testdata", "sections.txt")
	want := writeText(t, runRows)
	ycsbtest.Golden(t, golden, want)
	if got := writeText(t, mergeRows); !bytes.Equal(got, want) {
		t.Errorf("merged sections differ from the run's (%s):\n%s", golden, got)
	}

	var logs []*HdrLog
	for _, m := range all.Total().Measurements {
		if m.Hist != nil {
			logs = append(logs, &HdrLog{Name: m.Name, Hist: m.Hist})
		}
	}
	fromLogs, err := MergeHdrLogs(make([]string, len(logs)), logs, cfg.Percentiles)
	if err != nil {
		t.Fatal(err)
	}
	var noReturns bytes.Buffer
	for line := range strings.Lines(string(want)) {
		if !strings.Contains(line, ", Return=") {
			noReturns.WriteString(line)
		}
	}
	if got := writeText(t, fromLogs.Sections); !bytes.Equal(got, noReturns.Bytes()) {
		t.Errorf("sections merged from HdrHistogram logs:\n%s\nwant %s without its Return= lines", got, golden)
	}
}

// clientReport is the JSON report of one client as far as Merge reads it.
func clientReport(t *testing.T, snap *measurement.Snapshot, cfg *measurement.Config) *jsonreport.Report {
	t.Helper()
	r := &jsonreport.Report{
		Format: jsonreport.Format, Version: jsonreport.Version, Binding: "basic", Phase: "run",
		MeasurementType: string(cfg.Type), Percentiles: cfg.Percentiles, Clients: 1,
		Start: t0, End: t0.Add(600 * 1e6), RunTimeMs: 600, Operations: snap.Ops(),
	}
	for _, m := range snap.Measurements {
		jm := jsonreport.Measurement{Name: m.Name, Operation: m.Operation, Intended: m.Intended}
		for _, rc := range m.Returns {
			jm.Returns = append(jm.Returns, jsonreport.Return{Status: rc.Status.String(), Count: rc.Count})
		}
		// The order in the report is not the one printed: merge sorts.
		slices.Reverse(jm.Returns)
		if err := fill(&jm, m.Hist, cfg.Percentiles); err != nil {
			t.Fatal(err)
		}
		r.Measurements = append(r.Measurements, jm)
	}
	return r
}

func writeText(t *testing.T, rows []export.Row) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := export.WriteAll(&buf, "text", rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMergeUnknownStatus: a Return count under a status this ycsb does not
// know has no place in the reference's order, so the report is refused.
func TestMergeUnknownStatus(t *testing.T) {
	r := fake(t, 1, 0, 2, 100, 800)
	r.Measurements[0].Returns = append(r.Measurements[0].Returns, jsonreport.Return{Status: "MAYBE", Count: 1})
	_, err := Merge([]string{"a.json"}, []*jsonreport.Report{r})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Path != "a.json" || !strings.Contains(err.Error(), "MAYBE") {
		t.Errorf("Merge = %v, want an input error naming a.json and the status", err)
	}
}
