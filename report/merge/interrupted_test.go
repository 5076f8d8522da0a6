package merge

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// interrupted marks r as a run by stopped after done of planned
// operations.
func interrupted(r *jsonreport.Report, by string, planned, done int64) *jsonreport.Report {
	r.Interrupted = &jsonreport.Interrupted{By: by, PlannedOperations: planned, DoneOperations: done}
	r.Sections = jsonreport.MarkInterrupted(r.Sections, r.Interrupted)
	return r
}

// TestMergeInterrupted: a fleet whose clients were all interrupted merges
// into a report marked interrupted, with their planned and done counts
// added up; one interrupted client among complete ones is refused, naming
// its file, and merged and marked when allowed.
func TestMergeInterrupted(t *testing.T) {
	paths := []string{"a.json", "b.json", "c.json"}
	fleet := func(stopped ...bool) []*jsonreport.Report {
		var reps []*jsonreport.Report
		for i, s := range stopped {
			r := fake(t, uint64(i+1), time.Duration(i)*time.Second, 10, 1000, 800)
			if s {
				by := "SIGINT"
				if i == 2 {
					by = "SIGTERM"
				}
				interrupted(r, by, 20000, r.Operations+5)
			}
			reps = append(reps, roundTrip(t, r))
		}
		return reps
	}

	all := fleet(true, true)
	if err := MixedInterrupted(paths[:2], all); err != nil {
		t.Fatalf("a fleet all interrupted is refused: %v", err)
	}
	m, err := Merge(paths[:2], all)
	if err != nil {
		t.Fatal(err)
	}
	want := jsonreport.Interrupted{By: "SIGINT", PlannedOperations: 40000, DoneOperations: all[0].Operations + all[1].Operations + 10, Clients: 2}
	if m.Interrupted == nil || *m.Interrupted != want {
		t.Errorf("merged mark %+v, want %+v", m.Interrupted, want)
	}
	roundTrip(t, m) // the merged report passes its own checks
	var text bytes.Buffer
	for _, r := range m.Sections[:5] {
		text.WriteString(r.Metric + ", " + r.Name + ", " + r.Value.String() + "\n")
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "merge_interrupted.txt"), text.Bytes())

	mixed := fleet(false, true, true)
	err = MixedInterrupted(paths, mixed)
	if err == nil || !strings.HasPrefix(err.Error(), "b.json: interrupted by SIGINT after ") || !strings.Contains(err.Error(), "-allow-interrupted") {
		t.Errorf("a mixed fleet: %v, want b.json refused, naming -allow-interrupted", err)
	}
	m, err = Merge(paths, mixed)
	if err != nil {
		t.Fatal(err)
	}
	// SIGINT and SIGTERM: no one signal.
	want = jsonreport.Interrupted{PlannedOperations: 40000, DoneOperations: mixed[1].Operations + mixed[2].Operations + 10, Clients: 2}
	if m.Interrupted == nil || *m.Interrupted != want {
		t.Errorf("merged mark of a mixed fleet %+v, want %+v", m.Interrupted, want)
	}

	if m, err := Merge(paths, fleet(false, false, false)); err != nil || m.Interrupted != nil {
		t.Errorf("a complete fleet: %v, marked %+v", err, m.Interrupted)
	}
}

// TestCompareInterrupted: compare warns on the line that names an
// interrupted report (its gates: TestGatesInterrupted).
func TestCompareInterrupted(t *testing.T) {
	full := roundTrip(t, fake(t, 10, 0, 30, 1000, 800))
	stopped := roundTrip(t, interrupted(fake(t, 11, 0, 30, 500, 800), "SIGTERM", 100000, 16000))
	var out bytes.Buffer
	if err := Compare(&out, "full.json", "stopped.json", full, stopped); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[1], "B: stopped.json (") || !strings.Contains(lines[1], "warning: interrupted by SIGTERM after 16000 of 100000 operations") ||
		strings.Contains(lines[0], "interrupted") {
		t.Errorf("the warning is not on B's line alone:\n%s", out.String())
	}
}
