package merge

import (
	"strconv"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/report/jsonreport"
)

// ladderStep is one client's share of a step: its operations all taking
// latUs, and its own verdict.
type ladderStep struct {
	latUs   int64
	verdict string
}

// ladderReport is client index's report of a fleet's ladder of rates.
func ladderReport(t *testing.T, index int, rates []float64, steps []ladderStep) *jsonreport.Report {
	t.Helper()
	r := &jsonreport.Report{Format: jsonreport.Format, Version: jsonreport.Version, Binding: "basic", Phase: "capacity",
		Clients: 1, Client: &jsonreport.Client{Index: index, Count: 3}, Start: ladderStart, End: ladderStart.Add(10 * time.Second),
		Seed: uint64(index + 1), Percentiles: []float64{99},
		Settings: map[string]string{"workload": "core", "slo": "READ.p99<=5ms", "capacity.start": "1000", "capacity.growth": "2",
			"client.count": "3", "client.index": strconv.Itoa(index)},
		Capacity: &jsonreport.Capacity{Limit: "fleet", Resolution: 1}}
	for k, s := range steps {
		h := hdrhistogram.New(1, 3_600_000_000, 3)
		if err := h.RecordValues(s.latUs, 1000); err != nil {
			t.Fatal(err)
		}
		enc, err := jsonreport.EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		r.Capacity.Steps = append(r.Capacity.Steps, jsonreport.CapacityStep{AskedOpsSec: rates[k], ShareOpsSec: rates[k] / 4,
			AchievedOpsSec: rates[k] / 4, Threads: 4, StartMs: int64(k) * 2000, MeasuredMs: 1000, Operations: 1000,
			Verdict: s.verdict, Why: "why " + strconv.Itoa(index), Trusted: true,
			Measurements: []jsonreport.Measurement{{Name: "Intended-READ", Operation: "READ", Intended: true, Count: 1000, Histogram: enc}}})
	}
	return r
}

// fleet is three clients' reports: on step 2 one client of the three
// saw 10 ms where the others saw 1 ms, and on step 3 client 1 could not
// offer its share.
func fleet(t *testing.T) []*jsonreport.Report {
	rates := []float64{1000, 2000, 4000}
	ok, slow, limited := ladderStep{1000, "NOT JUDGED"}, ladderStep{10000, "NOT JUDGED"}, ladderStep{1000, "CLIENT-LIMITED"}
	return []*jsonreport.Report{
		ladderReport(t, 0, rates, []ladderStep{ok, ok, ok}),
		ladderReport(t, 1, rates, []ladderStep{ok, ok, limited}),
		ladderReport(t, 2, rates, []ladderStep{ok, slow, ok}),
	}
}

var ladderStart = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

var fleetPaths = []string{"0.json", "1.json", "2.json"}

// TestMergeCapacity: the merged p99 of step 2 is the slow client's 10 ms
// (a third of the operations), so READ.p99<=5ms fails there whatever two
// clients of three saw; READ.p50<=5ms passes it, and the step the client
// limited ends the ladder.
func TestMergeCapacity(t *testing.T) {
	for _, c := range []struct {
		given       string
		max, above  float64
		limit, why  string
		verdicts    string
		measuredP99 float64
	}{
		// The answer is what the passing step served: its clients achieved
		// 750 of the 1000 ops/s asked (and 1500 of 2000).
		{"", 750, 2000, "system", "the system: the bracket is a step of the ladder (capacity.growth=2)", "PASS FAIL CLIENT-LIMITED", 10007},
		{"READ.p50<=5ms", 1500, 4000, "client", "the clients: 1 of 3 clients could not offer their share; client 1: why 1; the system's capacity is at least this", "PASS PASS CLIENT-LIMITED", 1000},
	} {
		m, err := MergeCapacity(fleetPaths, fleet(t), c.given)
		if err != nil {
			t.Fatal(err)
		}
		cp := m.Capacity
		var verdicts []string
		for _, s := range cp.Steps {
			verdicts = append(verdicts, s.Verdict)
		}
		if cp.MaxOpsSec != c.max || cp.FirstFailingOpsSec != c.above || cp.Limit != c.limit || cp.LimitWhy != c.why || strings.Join(verdicts, " ") != c.verdicts {
			t.Errorf("%q: max %v above %v limit %s (%s), verdicts %v", c.given, cp.MaxOpsSec, cp.FirstFailingOpsSec, cp.Limit, cp.LimitWhy, verdicts)
		}
		s := cp.Steps[1]
		if s.Operations != 3000 || s.AchievedOpsSec != 1500 || s.Threads != 12 || s.Measurements[0].Count != 3000 || !s.SLO.Judged {
			t.Errorf("step 2: %+v", s)
		}
		if got := *s.SLO.Objectives[0].Measured; c.given == "" && got != c.measuredP99 {
			t.Errorf("step 2's merged p99 %v, want %v", got, c.measuredP99)
		}
		last := m.Sections[len(m.Sections)-2:]
		if m.Clients != 3 || m.Settings["slo"] == "" || last[0].Name != "Limit" || last[1].Name != "Trusted" {
			t.Errorf("merged: %d clients, settings %v", m.Clients, m.Settings)
		}
	}
}

// TestMergeCapacityServed: the fleet's answer is what its best passing
// step served, the clients' achieved rates added, at most the rate asked.
func TestMergeCapacityServed(t *testing.T) {
	for _, c := range []struct {
		name           string
		achieved       [3]float64 // each client's on step 2 (2000 ops/s asked)
		max, achieved2 float64
	}{
		{"short of the rate", [3]float64{700, 600, 600}, 1900, 1900},
		{"ahead of the rate", [3]float64{700, 700, 610}, 2000, 2010},
		{"on the rate", [3]float64{700, 700, 600}, 2000, 2000},
	} {
		reps := fleet(t)
		for i, r := range reps {
			r.Capacity.Steps[1].AchievedOpsSec = c.achieved[i]
		}
		m, err := MergeCapacity(fleetPaths, reps, "READ.p50<=5ms")
		if err != nil {
			t.Fatal(err)
		}
		if cp := m.Capacity; cp.MaxOpsSec != c.max || cp.AchievedOpsSec != c.achieved2 || cp.Steps[1].Verdict != "PASS" {
			t.Errorf("%s: max %v, achieved %v (step 2 %s), want %v, %v", c.name, cp.MaxOpsSec, cp.AchievedOpsSec, cp.Steps[1].Verdict, c.max, c.achieved2)
		}
		rows := 0
		for _, r := range m.Sections {
			if r.Name == "MaxThroughput(ops/sec)" {
				rows++
				if r.Value.F != c.max {
					t.Errorf("%s: the text summary's MaxThroughput %v, want %v", c.name, r.Value.F, c.max)
				}
			}
		}
		if rows != 1 {
			t.Errorf("%s: %d MaxThroughput rows", c.name, rows)
		}
	}
}

// TestMergeCapacityRefuses: one line naming the report for what is not
// one fleet's ladder.
func TestMergeCapacityRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func([]*jsonreport.Report) []*jsonreport.Report
		want   string
	}{
		{"a run report", func(r []*jsonreport.Report) []*jsonreport.Report {
			r[2].Phase, r[2].Capacity = "run", nil
			return r
		}, "2.json: a run phase: a fleet's capacity ladder merges with the other clients' capacity reports only"},
		{"a search of one process", func(r []*jsonreport.Report) []*jsonreport.Report {
			r[0].Capacity.Limit = "system"
			return r
		}, "0.json: a capacity search of one process"},
		{"a client missing", func(r []*jsonreport.Report) []*jsonreport.Report { return r[:2] },
			"0.json: client 0 of a fleet of 3, but 2 reports are given"},
		{"another ladder", func(r []*jsonreport.Report) []*jsonreport.Report {
			r[1].Settings["capacity.growth"] = "3"
			return r
		}, `1.json: a different ladder: capacity.growth="3" here, "2" in 0.json`},
		{"a client interrupted", func(r []*jsonreport.Report) []*jsonreport.Report {
			r[2].Capacity.Steps = r[2].Capacity.Steps[:2]
			return r
		}, "2.json: 2 steps of the ladder, but 0.json has 3"},
	} {
		reps := c.change(fleet(t))
		_, err := MergeCapacity(fleetPaths[:len(reps)], reps, "")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}

// TestMergeCapacityInterrupted: a ladder every client's Ctrl-C cut short
// merges, and its limit says it was interrupted, not that its highest
// step passed.
func TestMergeCapacityInterrupted(t *testing.T) {
	reps := fleet(t)
	for _, r := range reps {
		r.Capacity.Steps = r.Capacity.Steps[:1]
		r.Capacity.LimitWhy = "interrupted after 1 of the ladder's steps; not judged"
	}
	m, err := MergeCapacity(fleetPaths, reps, "")
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Capacity; c.Limit != "interrupted" || c.LimitWhy != "interrupted after 1 step; the system served at least 750.0 ops/s" {
		t.Errorf("limit %q: %q", c.Limit, c.LimitWhy)
	}
}

// TestMergeCapacityLoaded (issue 48): the slow client of step 2 saw its
// machine's load (LATE-WAKEUPS): the fleet's failure there is not to be
// trusted, and the answer is not the system's.
func TestMergeCapacityLoaded(t *testing.T) {
	reps := fleet(t)
	reps[2].Capacity.Steps[1].Client = &jsonreport.ClientVerdict{Verdicts: []string{"LATE-WAKEUPS"}}
	reps[0].Capacity.Steps[1].Client = &jsonreport.ClientVerdict{Verdicts: []string{jsonreport.KeptUp}}
	m, err := MergeCapacity(fleetPaths, reps, "")
	if err != nil {
		t.Fatal(err)
	}
	cp := m.Capacity
	if s := cp.Steps[1]; s.Verdict != "FAIL" || !strings.Contains(s.Untrusted, "1 of 3 clients measured (client 2: LATE-WAKEUPS)") {
		t.Errorf("step 2: %s, untrusted %q", s.Verdict, s.Untrusted)
	}
	if cp.Limit != "untrusted" || cp.Untrusted == "" {
		t.Errorf("limit %s (%s), untrusted %q: want untrusted, never the system", cp.Limit, cp.LimitWhy, cp.Untrusted)
	}
}
