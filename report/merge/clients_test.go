package merge

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/reportblock"
)

// indexed is fake with the client.count and client.index settings.
func indexed(t *testing.T, i, n int, offset time.Duration, secs int) *jsonreport.Report {
	r := fake(t, uint64(i+1), offset, secs, 200, 500)
	r.Settings["client.count"] = strconv.Itoa(n)
	r.Settings["client.index"] = strconv.Itoa(i)
	return r
}

func TestWarnings(t *testing.T) {
	clean := func(r *jsonreport.Report) *jsonreport.Report {
		r.Measurements[0].Returns = []jsonreport.Return{{Status: "OK", Count: r.Operations}}
		return r
	}
	tests := []struct {
		name string
		reps []*jsonreport.Report
		want []string // one per warning, in order
	}{
		{"together", []*jsonreport.Report{clean(indexed(t, 0, 2, 0, 10)), clean(indexed(t, 1, 2, 200*time.Millisecond, 10))}, nil},
		{"poor overlap", []*jsonreport.Report{clean(indexed(t, 0, 2, 0, 10)), clean(indexed(t, 1, 2, 4*time.Second, 10))},
			[]string{"the clients ran together for 6.0 s of 14.0 s (43%)"}},
		{"failures", []*jsonreport.Report{indexed(t, 0, 2, 0, 10), clean(indexed(t, 1, 2, 0, 10))},
			[]string{"client 0 (a): 3 operations failed (Return=ERROR 3)"}},
		{"missing client", []*jsonreport.Report{clean(indexed(t, 0, 3, 0, 10)), clean(indexed(t, 2, 3, 0, 10))},
			[]string{"2 of client.count=3 clients' reports (client.index 1 absent)"}},
		{"load incomplete, split", func() []*jsonreport.Report {
			var rs []*jsonreport.Report
			for i := range 2 {
				r := clean(indexed(t, i, 2, 0, 5))
				r.Phase = "load"
				r.Measurements[0].Name, r.Measurements[0].Operation = "INSERT", "INSERT"
				r.Settings["insertcount"] = "3000" // the whole load's, with client.count
				rs = append(rs, r)
			}
			return rs
		}(), []string{"load incomplete: 2"}},
		{"load complete, own ranges", func() []*jsonreport.Report {
			var rs []*jsonreport.Report
			for i := range 2 {
				r := clean(fake(t, uint64(i+1), 0, 5, 200, 500))
				r.Phase = "load"
				r.Measurements[0].Name, r.Measurements[0].Operation = "INSERT", "INSERT"
				r.Settings["insertcount"] = strconv.FormatInt(r.Operations, 10)
				rs = append(rs, r)
			}
			return rs
		}(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Warnings([]string{"a", "b", "c"}[:len(tt.reps)], tt.reps)
			if len(w) != len(tt.want) {
				t.Fatalf("warnings %q, want %d like %q", w, len(tt.want), tt.want)
			}
			for i := range w {
				if !strings.Contains(w[i], tt.want[i]) || strings.Contains(w[i], "\n") {
					t.Errorf("warning %q, want one line with %q", w[i], tt.want[i])
				}
			}
		})
	}
}

func TestDistinct(t *testing.T) {
	a, b := indexed(t, 0, 2, 0, 5), indexed(t, 1, 2, 0, 5)
	retried := indexed(t, 1, 2, time.Second, 5)
	retried.Operations++ // another run of client 1
	for _, tt := range []struct {
		name string
		reps []*jsonreport.Report
		want string
	}{
		{"same report", []*jsonreport.Report{a, b, a}, "c.json: the same report as a.json"},
		{"same index", []*jsonreport.Report{a, b, retried}, "c.json: client.index=1, as b.json: two reports of one client"},
	} {
		err := Distinct([]string{"a.json", "b.json", "c.json"}, tt.reps)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Distinct = %v, want %q", tt.name, err, tt.want)
		}
		if _, ok := err.(*InputError); !ok {
			t.Errorf("%s: %T is not an input error", tt.name, err)
		}
	}
}

// TestMergeFromLogs reads the reports back out of the log kubectl logs
// --prefix prints for three pods, one of them interleaved with stderr, and
// orders the per-client rows by client.index.
func TestMergeFromLogs(t *testing.T) {
	var log bytes.Buffer
	for _, i := range []int{2, 0, 1} {
		var doc, block bytes.Buffer
		if err := jsonreport.Write(&doc, indexed(t, i, 3, time.Duration(i)*100*time.Millisecond, 5)); err != nil {
			t.Fatal(err)
		}
		if err := reportblock.Write(&block, doc.Bytes()); err != nil {
			t.Fatal(err)
		}
		pod := "[pod/ycsb-run-" + strconv.Itoa(i) + "-x/ycsb] "
		log.WriteString(pod + "[OVERALL], RunTime(ms), 5000\n")
		for j, l := range strings.SplitAfter(block.String(), "\n") {
			if l == "" {
				continue
			}
			log.WriteString(pod + l)
			if j == 1 {
				log.WriteString(pod + "2026-03-01 12:00:05:000 5 sec: 1000 operations; [READ: Count=1]\n")
			}
		}
	}
	named, err := ReadReports("-", log.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	var reps []*jsonreport.Report
	for _, n := range named {
		paths = append(paths, n.Name)
		reps = append(reps, n.Report)
	}
	if strings.Join(paths, " ") != "ycsb-run-2-x ycsb-run-0-x ycsb-run-1-x" {
		t.Errorf("names %q", paths)
	}
	if err := Distinct(paths, reps); err != nil {
		t.Fatal(err)
	}
	m, err := Merge(paths, reps)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	for _, r := range m.Sections {
		if strings.HasPrefix(r.Metric, "CLIENT-") || r.Metric == "OVERALL" {
			text.WriteString(r.Metric + ", " + r.Name + ", " + Num(float(r.Value)) + "\n")
		}
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "merge_clients.txt"), text.Bytes())
	if w := Warnings(paths, reps); len(w) != 3 { // each client has 3 errors
		t.Errorf("warnings %q", w)
	}
}

func TestReadReportsBadInput(t *testing.T) {
	var doc bytes.Buffer
	jsonreport.Write(&doc, fake(t, 1, 0, 2, 10, 10))
	bad := bytes.Replace(doc.Bytes(), []byte(`"format": "ycsb-go-report"`), []byte(`"format": "other"`), 1)
	var block bytes.Buffer
	reportblock.Write(&block, bad)
	for _, tt := range []struct {
		name, in, want string
	}{
		{"empty", "", "stdin: no ycsb report in it"},
		{"reference text", "[OVERALL], RunTime(ms), 12\n", "stdin: not a ycsb-go JSON report (it looks like the reference's text output"},
		{"truncated block", reportblock.Begin + "\n{", "stdin: line 1: the report block is truncated"},
		{"foreign document", "x\n" + block.String(), "stdin: report block at line 2: "},
	} {
		_, err := ReadReports("-", []byte(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line starting %q", tt.name, err, tt.want)
		}
	}
}
