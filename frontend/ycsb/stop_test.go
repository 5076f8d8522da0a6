package ycsb

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/run"
)

// TestTimeLimitCancelsHungOperations: operations that never return on their
// own (a hung server) are cancelled shortly after maxexecutiontime, and are
// not counted as done.
func TestTimeLimitCancelsHungOperations(t *testing.T) {
	start := time.Now()
	out, stderr, err := runWith(context.Background(), &testDriver{opBlocks: true}, map[string]string{
		"maxexecutiontime": "1", "operationcount": "0", "threadcount": "2",
	})
	took := time.Since(start)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if limit := time.Second + run.StopGrace + 2*time.Second; took > limit {
		t.Errorf("the run took %v, want under %v", took, limit)
	}
	if strings.Contains(out, "Return=OK") || strings.Contains(out, "Return=ERROR") {
		t.Errorf("cancelled operations were counted:\n%s", out)
	}
}

// TestInterruptCancelsHungOperations: the same for Ctrl-C.
func TestInterruptCancelsHungOperations(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, stderr, err := runWith(ctx, &testDriver{opBlocks: true}, map[string]string{"operationcount": "0"})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if took := time.Since(start); took > run.StopGrace+3*time.Second {
		t.Errorf("the run took %v after Ctrl-C", took)
	}
}
