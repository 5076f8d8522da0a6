package measurement

import (
	"sync"
	"testing"

	"github.com/goycsb/ycsb/db/status"
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
				r.Done(Read, status.OK, now-1000, now, 0)
				r.Done(Update, status.OK, now-1000, now, 0)
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

// TestFailedPerInterval: every third operation fails; the intervals'
// Failed add up to the failed operations, warm-up ones left out, and no
// interval holds a failure without its operation, however the harvests
// fall. Writes found lost later count as failures of the interval that
// found them.
func TestFailedPerInterval(t *testing.T) {
	c := NewCollector(config(t, nil), YCSB)
	const workers, per, lost = 3, 3000, 7
	var wg sync.WaitGroup
	for range workers {
		r := c.NewRecorder()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.SetWarmup(true)
			for range 100 {
				r.FailedOperation()
			}
			r.FailedEarlier(lost)
			r.SetWarmup(false)
			for i := range per {
				now := Now()
				if i%3 == 0 {
					r.Done(Read, status.Error, now-1000, now, 0)
					r.Done(Update, status.Error, now-1000, now, 0)
					r.FailedOperation()
				} else {
					r.Done(Read, status.NotFound, now-1000, now, 0)
					r.Operation()
				}
			}
		}()
	}
	var ops, failed int64
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		iv := c.Tick()
		if iv.Failed > iv.Operations {
			t.Fatalf("an interval of %d operations holds %d failed", iv.Operations, iv.Failed)
		}
		ops, failed = ops+iv.Operations, failed+iv.Failed
	}
	for _, r := range c.recs {
		r.FailedEarlier(lost)
	}
	last := c.Tick()
	ops, failed = ops+last.Operations, failed+last.Failed
	want := int64(workers * (per/3 + lost))
	if ops != workers*per || failed != want {
		t.Errorf("intervals hold %d operations, %d failed, want %d and %d", ops, failed, workers*per, want)
	}
	if last.Operations != 0 || last.Failed != workers*lost {
		t.Errorf("last interval: %d operations, %d failed, want 0 and %d (the lost writes)", last.Operations, last.Failed, workers*lost)
	}
	if tot := c.Total(); tot.Operations != workers*per || tot.Failed != want {
		t.Errorf("total %d operations, %d failed, want %d and %d", tot.Operations, tot.Failed, workers*per, want)
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

func BenchmarkRecorderDoneFailedOperation(b *testing.B) {
	c := NewCollector(config(b, nil), YCSB)
	r := c.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		r.FailedOperation()
	}
}
