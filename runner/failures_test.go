package runner

import (
	"context"
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
