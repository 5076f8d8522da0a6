package workload

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
)

// readCounter is a session that counts the reads of each key and finds
// every record (all other operations are not used).
type readCounter struct {
	mu    sync.Mutex
	reads map[string]int
}

func (r *readCounter) Read(_ context.Context, _, key string, _ []string, _ *db.Record) error {
	r.mu.Lock()
	r.reads[strings.Clone(key)]++ // key shares the worker's buffer
	r.mu.Unlock()
	return nil
}
func (r *readCounter) Scan(context.Context, string, string, int, []string, *db.Rows) error {
	return db.ErrNotImplemented
}
func (r *readCounter) Update(context.Context, string, string, []db.Field) error {
	return db.ErrNotImplemented
}
func (r *readCounter) Insert(context.Context, string, string, []db.Field) error {
	return db.ErrNotImplemented
}
func (r *readCounter) Delete(context.Context, string, string) error { return db.ErrNotImplemented }
func (r *readCounter) Close(context.Context) error                  { return nil }

// TestSequentialVisitsEachKeyOnce: requestdistribution=sequential shares one
// cycle among the workers, as the reference's SequentialGenerator does, so
// that operationcount = recordcount reads each key exactly once whatever
// the thread count and however the workers interleave: one after another
// (each worker's whole share before the next starts) or at once.
func TestSequentialVisitsEachKeyOnce(t *testing.T) {
	const keys = 2000
	for _, threads := range []int{1, 2, 8, 32} {
		for _, together := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d threads, together %v", threads, together), func(t *testing.T) {
				p := newProps("recordcount", fmt.Sprint(keys), "operationcount", fmt.Sprint(keys),
					"readproportion", "1", "updateproportion", "0", "requestdistribution", "sequential")
				wl, err := New(p, true, io.Discard)
				if err != nil {
					t.Fatal(err)
				}
				mcfg, err := measurement.ParseConfig(p)
				if err != nil {
					t.Fatal(err)
				}
				coll := measurement.NewCollector(mcfg, measurement.YCSB)
				rc := &readCounter{reads: map[string]int{}}
				var wg sync.WaitGroup
				for i := range threads {
					wk := wl.NewWorker(measured.NewSession(rc, coll.NewRecorder()), uint64(i)+1)
					share := keys / threads
					if i < keys%threads {
						share++
					}
					work := func() {
						for range share {
							wk.DoTransaction(context.Background())
						}
					}
					if !together {
						work()
						continue
					}
					wg.Add(1)
					go func() { defer wg.Done(); work() }()
				}
				wg.Wait()
				if len(rc.reads) != keys {
					t.Errorf("%d distinct keys read of %d", len(rc.reads), keys)
				}
				twice := 0
				for _, n := range rc.reads {
					if n != 1 {
						twice++
					}
				}
				if twice > 0 {
					t.Errorf("%d keys read more than once", twice)
				}
			})
		}
	}
}
