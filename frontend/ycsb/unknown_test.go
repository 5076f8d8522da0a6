package ycsb

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/run"
)

// errCut is an insert whose connection broke after it was sent, as a
// binding reports it.
var errCut = db.OutcomeUnknown(db.WithStatus(db.Error, errors.New("insert: read tcp: connection reset by peer: "+syscall.ECONNRESET.Error())))

// TestLoadUnknownOutcome: an insert whose outcome is unknown is a failed
// operation with Return=ERROR, but the load says how many records may be
// in the table beyond those it knows went in, counting a record once
// however many of its retries met the doubt, and not at all when a retry
// went in.
func TestLoadUnknownOutcome(t *testing.T) {
	keepGoing := map[string]string{"core_workload_insertion_keep_going_on_error": "true"}
	retries := func(n string) map[string]string {
		return map[string]string{"core_workload_insertion_retry_limit": n, "core_workload_insertion_retry_interval": "0"}
	}
	for _, tc := range []struct {
		name  string
		extra map[string]string
		errs  func(n int64) error
		// the [INSERT] Return=ERROR row, the failed operations and the
		// unknown ones, and the load's last line
		errRows, failed, unknown int64
		line                     string
	}{
		{"one cut stops its worker", nil, func(n int64) error { return errIf(n == 5, errCut) }, 1, 1, 1,
			"load incomplete: at least 4 of 50 records inserted; 1 more with unknown outcome (the server may have applied them); first error: INSERT ERROR: "},
		{"cut on every retry: one record", retries("2"), func(n int64) error { return errIf(n >= 5 && n <= 7, errCut) }, 3, 1, 1,
			"load incomplete: at least 4 of 50 records inserted; 1 more with unknown outcome"},
		{"cut, then a duplicate key on the retry", retries("1"), func(n int64) error {
			switch n {
			case 5:
				return errCut
			case 6:
				return errDuplicate
			}
			return nil
		}, 2, 1, 1, "load incomplete: at least 4 of 50 records inserted; 1 more with unknown outcome"},
		{"cut, then the retry goes in", retries("1"), func(n int64) error { return errIf(n == 5, errCut) }, 1, 0, 0, ""},
		{"a definite failure", nil, func(n int64) error { return errIf(n == 5, errDuplicate) }, 1, 1, 0,
			"load incomplete: 4 of 50 records inserted; first error: INSERT ERROR: duplicate key"},
		{"two cuts, keep going", keepGoing, func(n int64) error { return errIf(n == 5 || n == 10, errCut) }, 2, 2, 2,
			"load incomplete: at least 48 of 50 records inserted; 2 more with unknown outcome"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			m := map[string]string{"dotransactions": "false", "recordcount": "50", "threadcount": "1", "report.json": path}
			for k, v := range tc.extra {
				m[k] = v
			}
			out, stderr, err := runWith(context.Background(), &testDriver{insertErrs: tc.errs}, m)
			if tc.line == "" {
				if err != nil {
					t.Fatalf("error %v\n%s", err, stderr)
				}
			} else if err == nil || !strings.HasPrefix(err.Error(), tc.line) {
				t.Fatalf("error %v, want it to start %q\n%s", err, tc.line, stderr)
			}
			if got := rowInt(t, out, "INSERT", "Return=ERROR"); got != tc.errRows {
				t.Errorf("Return=ERROR %d, want %d", got, tc.errRows)
			}
			rep := readReport(t, path)
			if rep.Failed == nil || *rep.Failed != tc.failed || rep.UnknownOutcome != tc.unknown {
				t.Errorf("JSON report: failed_operations %v, unknown_outcome %d; want %d and %d", rep.Failed, rep.UnknownOutcome, tc.failed, tc.unknown)
			}
			if tc.unknown > 0 {
				if got := rowInt(t, out, "OVERALL", "UnknownOutcome"); got != tc.unknown {
					t.Errorf("[OVERALL], UnknownOutcome %d, want %d", got, tc.unknown)
				}
			} else if strings.Contains(out, "UnknownOutcome") {
				t.Errorf("an UnknownOutcome row with none:\n%s", out)
			}
		})
	}
}

// TestStopCountsWritesInFlight: writes in flight to a hung server when the
// run stops (its time limit or Ctrl-C) are cancelled after the grace; they
// may still reach the server, so they are failed operations of unknown
// outcome, and a load says it is incomplete with them. Reads cut off so
// are not counted.
func TestStopCountsWritesInFlight(t *testing.T) {
	for _, tc := range []struct {
		name        string
		interrupt   bool
		extra       map[string]string
		op          string
		wantErr     string
		errs, unkwn int64
	}{
		{"load at its time limit", false, map[string]string{"dotransactions": "false", "maxexecutiontime": "1"}, "INSERT",
			"load incomplete: at least 0 of 100 records inserted; 3 more with unknown outcome (the server may have applied them); first error: INSERT ERROR: in flight when the run stopped: ", 3, 3},
		{"load interrupted", true, map[string]string{"dotransactions": "false"}, "INSERT",
			"load incomplete: at least 0 of 100 records inserted; 3 more with unknown outcome", 3, 3},
		{"updates at the time limit", false, map[string]string{"maxexecutiontime": "1", "operationcount": "0", "readproportion": "0", "updateproportion": "1"}, "UPDATE",
			"", 3, 3},
		{"reads at the time limit", false, map[string]string{"maxexecutiontime": "1", "operationcount": "0", "readproportion": "1", "updateproportion": "0"}, "READ",
			"", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.interrupt {
				time.AfterFunc(300*time.Millisecond, cancel)
			}
			path := filepath.Join(t.TempDir(), "r.json")
			m := map[string]string{"threadcount": "3", "report.json": path}
			for k, v := range tc.extra {
				m[k] = v
			}
			start := time.Now()
			out, stderr, err := runWith(ctx, &testDriver{opBlocks: true, unknownAtStop: true}, m)
			if took := time.Since(start); took > 2*time.Second+run.StopGrace+2*time.Second {
				t.Errorf("took %v", took)
			}
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)) {
				t.Fatalf("error %v, want %q\n%s", err, tc.wantErr, stderr)
			}
			if tc.errs == 0 {
				if strings.Contains(out, "Return=") || strings.Contains(out, "UnknownOutcome") {
					t.Errorf("operations cut off were counted:\n%s", out)
				}
				return
			}
			if got := rowInt(t, out, tc.op, "Return=ERROR"); got != tc.errs {
				t.Errorf("[%s], Return=ERROR %d, want %d\n%s", tc.op, got, tc.errs, out)
			}
			if got := rowInt(t, out, "OVERALL", "UnknownOutcome"); got != tc.unkwn {
				t.Errorf("[OVERALL], UnknownOutcome %d, want %d", got, tc.unkwn)
			}
			rep := readReport(t, path)
			if rep.Failed == nil || *rep.Failed != tc.errs || rep.UnknownOutcome != tc.unkwn {
				t.Errorf("JSON report: failed_operations %v, unknown_outcome %d; want %d and %d", rep.Failed, rep.UnknownOutcome, tc.errs, tc.unkwn)
			}
		})
	}
}

func errIf(cond bool, err error) error {
	if cond {
		return err
	}
	return nil
}
