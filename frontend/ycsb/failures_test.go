package ycsb

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/props"
)

// TestLoadIncomplete: a load whose every insert fails names the shortfall
// and the first cause, and fails.
func TestLoadIncomplete(t *testing.T) {
	out, stderr, err := runWith(context.Background(), &testDriver{insertErr: errDuplicate}, map[string]string{
		"dotransactions": "false", "recordcount": "50", "core_workload_insertion_retry_limit": "0",
	})
	want := `load incomplete: 0 of 50 records inserted; first error: INSERT ERROR: duplicate key value violates unique constraint "usertable_pkey"`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	if props.IsBadInput(err) {
		t.Error("a setup error")
	}
	if !strings.Contains(out, "[INSERT], Return=ERROR, ") {
		t.Errorf("no report:\n%s", out)
	}
	// The cause is shown once as it happens, and counted at the end.
	if n := strings.Count(stderr, "INSERT ERROR: duplicate key"); n != 2 {
		t.Errorf("the cause shows %d times, want 2 (first, summary):\n%s", n, stderr)
	}
	if !strings.Contains(stderr, `1 failed: INSERT ERROR: duplicate key`) {
		t.Errorf("no count of the cause:\n%s", stderr)
	}
}

// TestLoadCompleteSucceeds: a load that inserted every record does not fail.
func TestLoadCompleteSucceeds(t *testing.T) {
	_, stderr, err := runWith(context.Background(), &testDriver{}, map[string]string{"dotransactions": "false", "recordcount": "50"})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
}

// TestSuccessfulThroughput: failed reads count in the reference's
// throughput but not in ours; NOT_FOUND is an answer and counts.
func TestSuccessfulThroughput(t *testing.T) {
	d := &testDriver{readErr: func(key string) error {
		if strings.HasSuffix(key, "1") {
			return errDuplicate
		}
		return nil
	}}
	out, _, err := runWith(context.Background(), d, map[string]string{
		"operationcount": "2000", "readproportion": "1", "updateproportion": "0", "target": "4000",
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[2], "[OVERALL], SuccessfulThroughput(ops/sec), ") || !strings.HasPrefix(lines[3], "[TOTAL_GCs]") {
		t.Fatalf("the row is not right after the reference's OVERALL rows:\n%s", out)
	}
	total, _ := strconv.ParseFloat(row(t, out, "OVERALL", "Throughput(ops/sec)"), 64)
	ok, _ := strconv.ParseFloat(row(t, out, "OVERALL", "SuccessfulThroughput(ops/sec)"), 64)
	okReads, failed := rowInt(t, out, "READ", "Return=OK"), rowInt(t, out, "READ", "Return=ERROR")
	want := total * float64(okReads) / float64(okReads+failed)
	if failed == 0 || ok < want*0.999 || ok > want*1.001 {
		t.Errorf("successful throughput %v, want %v (total %v, %d OK, %d failed)", ok, want, total, okReads, failed)
	}
}

// TestLoadFailedInsertCounts: a load insert that fails for good is one
// operation, a failed one, everywhere: in [OVERALL] Throughput (not in
// SuccessfulThroughput), in failed_operations, in the errors objective;
// the [INSERT] Return= rows add up to the operations. An insert that
// failed and then went in on a retry is one operation that succeeded.
func TestLoadFailedInsertCounts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra map[string]string
		fails func(n int64) bool
		// the [INSERT] Return= rows, the operations and the failed ones
		okRows, errRows, ops, failed int64
		verdict                      string
	}{
		{"one fails and stops its worker", nil, func(n int64) bool { return n == 5 }, 4, 1, 5, 1, "FAIL (20%)"},
		{"one fails, keep going", map[string]string{"core_workload_insertion_keep_going_on_error": "true"},
			func(n int64) bool { return n == 5 }, 49, 1, 50, 1, "FAIL (2%)"},
		{"all fail", nil, func(int64) bool { return true }, 0, 1, 1, 1, "FAIL (100%)"},
		{"one fails, a retry inserts it", map[string]string{"core_workload_insertion_retry_limit": "1", "core_workload_insertion_retry_interval": "0"},
			func(n int64) bool { return n == 5 }, 50, 1, 50, 0, "PASS (0%)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			m := map[string]string{"dotransactions": "false", "recordcount": "50", "threadcount": "1",
				"report.json": path, "slo": "errors<=0.01%"}
			for k, v := range tc.extra {
				m[k] = v
			}
			out, stderr, err := runWith(context.Background(), &testDriver{failInserts: tc.fails}, m)
			if (err == nil) != (tc.failed == 0) {
				t.Fatalf("error %v, with %d failed\n%s", err, tc.failed, stderr)
			}
			if got := rowInt(t, out, "INSERT", "Return=ERROR"); got != tc.errRows {
				t.Errorf("Return=ERROR %d, want %d", got, tc.errRows)
			}
			if tc.okRows > 0 {
				if got := rowInt(t, out, "INSERT", "Return=OK"); got != tc.okRows {
					t.Errorf("Return=OK %d, want %d", got, tc.okRows)
				}
			}
			if got := row(t, out, "SLO", "errors<=0.01%"); got != tc.verdict {
				t.Errorf("errors objective %q, want %q", got, tc.verdict)
			}
			rep := readReport(t, path)
			if rep.Failed == nil {
				t.Fatal("JSON report: no failed_operations")
			}
			if rep.Operations != tc.ops || *rep.Failed != tc.failed {
				t.Errorf("JSON report: %d operations, %d failed; want %d and %d", rep.Operations, *rep.Failed, tc.ops, tc.failed)
			}
			var ivOps int64
			for _, iv := range rep.Intervals {
				ivOps += iv.Ops
			}
			if ivOps != tc.ops {
				t.Errorf("intervals: %d operations, want %d", ivOps, tc.ops)
			}
			total, _ := strconv.ParseFloat(row(t, out, "OVERALL", "Throughput(ops/sec)"), 64)
			ok, _ := strconv.ParseFloat(row(t, out, "OVERALL", "SuccessfulThroughput(ops/sec)"), 64)
			want := total * float64(tc.ops-tc.failed) / float64(tc.ops)
			if total <= 0 || ok < want*0.999 || ok > want*1.001 {
				t.Errorf("successful throughput %v, want %v (throughput %v, %d of %d failed)", ok, want, total, tc.failed, tc.ops)
			}
		})
	}
}
