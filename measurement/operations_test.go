package measurement

import (
	"sync"
	"testing"

	"github.com/goycsb/ycsb/db"
)

// TestOperationsPerInterval: a read-modify-write is two database calls
// and one operation; the intervals' Operations add up to the operations
// counted, warm-up ones left out, however the harvests fall.
func TestOperationsPerInterval(t *testing.T) {
	c := NewCollector(config(t, nil), YCSB)
	const workers, per = 3, 4000
	var wg sync.WaitGroup
	for range workers {
		r := c.NewRecorder()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.SetWarmup(true)
			for range 100 {
				r.Operation()
			}
			r.SetWarmup(false)
			for range per {
				now := Now()
				r.Done(Read, db.OK, now-1000, now, 0)
				r.Done(Update, db.OK, now-1000, now, 0)
				r.Operation()
			}
		}()
	}
	var sum int64
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		sum += c.Tick().Operations
	}
	sum += c.Tick().Operations
	if sum != workers*per {
		t.Errorf("intervals hold %d operations, want %d", sum, workers*per)
	}
	if tot := c.Total(); tot.Operations != workers*per || tot.Ops() != workers*per {
		t.Errorf("total %d operations (Ops %d), want %d", tot.Operations, tot.Ops(), workers*per)
	}
}

func BenchmarkRecorderDoneOperation(b *testing.B) {
	c := NewCollector(config(b, nil), YCSB)
	r := c.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		r.Operation()
	}
}
