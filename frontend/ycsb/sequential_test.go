package ycsb

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// TestSequentialReadsEachKeyOnce: with 1,000 of 2,000 keys loaded, 2,000
// sequential reads visit each key once at any thread count, so exactly
// 1,000 find their record.
func TestSequentialReadsEachKeyOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	if _, stderr, err := runPebble(t, context.Background(), dir, map[string]string{"recordcount": "1000"}); err != nil {
		t.Fatalf("load: %v\n%s", err, stderr)
	}
	for _, threads := range []int{1, 2, 4, 8, 16, 32} {
		out, stderr, err := runPebble(t, context.Background(), dir, map[string]string{"recordcount": "2000", "operationcount": "2000",
			"dotransactions": "true", "readproportion": "1", "updateproportion": "0", "requestdistribution": "sequential",
			"threadcount": fmt.Sprint(threads)})
		if err != nil {
			t.Fatalf("%d threads: %v\n%s", threads, err, stderr)
		}
		if ok, missing := row(t, out, "READ", "Return=OK"), row(t, out, "READ", "Return=NOT_FOUND"); ok != "1000" || missing != "1000" {
			t.Errorf("%d threads: Return=OK %s, Return=NOT_FOUND %s; want 1000 each", threads, ok, missing)
		}
	}
}
