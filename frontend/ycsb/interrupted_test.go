package ycsb

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/stopsignal"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// TestInterruptedRunSaysSo: a run a signal stopped before its planned
// operations were done says so in the text report (after the reference's
// OVERALL rows), in report.json with the planned and done counts, and in
// one line on stderr; a run its maxexecutiontime ended is complete and
// says nothing of the kind.
func TestInterruptedRunSaysSo(t *testing.T) {
	for _, tc := range []struct {
		name      string
		props     map[string]string
		interrupt bool
		planned   int64
		plannedMs int64
	}{
		{"run", map[string]string{"operationcount": "100000", "target": "1000"}, true, 100000, 0},
		{"load", map[string]string{"dotransactions": "false", "recordcount": "100000", "target": "1000"}, true, 100000, 0},
		{"unbounded run with a time limit", map[string]string{"operationcount": "0", "maxexecutiontime": "60"}, true, 0, 60000},
		{"ended at its time limit", map[string]string{"operationcount": "0", "maxexecutiontime": "1", "target": "1000"}, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "report.json")
			tc.props["report.json"] = path
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tc.interrupt {
				time.AfterFunc(300*time.Millisecond, func() { cancel(&stopsignal.Cause{Signal: stopsignal.SIGTERM}) })
			}
			out, stderr, err := runWith(ctx, &testDriver{}, tc.props)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := jsonreport.Read(data)
			if err != nil {
				t.Fatal(err)
			}
			in := rep.Interrupted
			if !tc.interrupt {
				if in != nil || strings.Contains(out, "Interrupted") || strings.Contains(stderr, "interrupted") {
					t.Errorf("a run ended by its time limit is marked interrupted: %+v\n%s\n%s", in, out, stderr)
				}
				return
			}
			if in == nil {
				t.Fatalf("report.json has no interrupted mark:\n%s", data)
			}
			if in.By != "SIGTERM" || in.PlannedOperations != tc.planned || in.PlannedMs != tc.plannedMs ||
				in.DoneOperations < rep.Operations || (tc.planned > 0 && in.DoneOperations >= tc.planned) {
				t.Errorf("interrupted %+v, want by SIGTERM, planned %d and %d ms, done between %d and the planned", in, tc.planned, tc.plannedMs, rep.Operations)
			}
			row := "[OVERALL], Interrupted, by SIGTERM after " + strconv.FormatInt(in.DoneOperations, 10) + " "
			if tc.planned > 0 {
				row += "of " + strconv.FormatInt(tc.planned, 10) + " operations\n"
			} else {
				row += "operations, maxexecutiontime 1m0s\n"
			}
			if !strings.Contains(out, row) {
				t.Errorf("no row %q in the text report:\n%s", row, out)
			}
			// After the reference's OVERALL rows, before the others.
			if i, j := strings.Index(out, "[OVERALL], Throughput(ops/sec)"), strings.Index(out, row); i < 0 || j < i {
				t.Errorf("the row is not after the reference's OVERALL rows:\n%s", out)
			}
			if j, k := strings.Index(out, row), strings.Index(out, "[CLEANUP]"); k >= 0 && k < j {
				t.Errorf("the row is not among the OVERALL rows:\n%s", out)
			}
			line := "Run " + in.String() + ": the report covers the work done.\n"
			if strings.Count(stderr, line) != 1 {
				t.Errorf("stderr does not say %q once:\n%s", line, stderr)
			}
			var inSections bool
			for _, r := range rep.Sections {
				inSections = inSections || (r.Metric == "OVERALL" && r.Name == "Interrupted")
			}
			if !inSections {
				t.Error("the JSON report's sections have no Interrupted row")
			}
		})
	}
}
