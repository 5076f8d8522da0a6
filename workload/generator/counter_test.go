package generator

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestCounter(t *testing.T) {
	c := NewCounter(10)
	if c.Last() != 9 {
		t.Errorf("initial Last = %d, want 9", c.Last())
	}
	const workers, each = 8, 5000
	seen := make([]atomic.Int32, workers*each)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				seen[c.Next()-10].Add(1)
			}
		})
	}
	wg.Wait()
	for i := range seen {
		if n := seen[i].Load(); n != 1 {
			t.Fatalf("value %d handed out %d times", i+10, n)
		}
	}
	if c.Last() != 10+workers*each-1 {
		t.Errorf("Last = %d, want %d", c.Last(), 10+workers*each-1)
	}
}

func TestAcknowledgedCounterConcurrent(t *testing.T) {
	const start, keys, workers = 1000, 200_000, 8
	c := NewAcknowledgedCounter(start)
	if c.Last() != start-1 {
		t.Fatalf("initial Last = %d, want %d", c.Last(), start-1)
	}
	all := make([]int64, keys)
	for i := range all {
		all[i] = c.Next()
	}
	newRand(20).Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })

	// A watcher checks that Last never passes an unacknowledged key.
	acked := make([]atomic.Bool, keys)
	done := make(chan struct{})
	watchErr := make(chan error, 1)
	go func() {
		prev := int64(start - 1)
		for {
			select {
			case <-done:
				watchErr <- nil
				return
			default:
			}
			l := c.Last()
			if l < prev {
				watchErr <- errors.New("Last went backwards")
				return
			}
			for k := prev + 1; k <= l; k++ {
				if !acked[k-start].Load() {
					watchErr <- errors.New("Last passed an unacknowledged key")
					return
				}
			}
			prev = l
		}
	}()

	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < keys; i += workers {
				acked[all[i]-start].Store(true)
				if err := c.Acknowledge(all[i]); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(done)
	if err := <-watchErr; err != nil {
		t.Fatal(err)
	}
	if c.Last() != start+keys-1 {
		t.Errorf("Last = %d, want %d", c.Last(), start+keys-1)
	}
}

// Many goroutines acknowledging neighbouring keys at once is where a lost
// wake-up (a bit left behind by a failed tryLock) would show.
func TestAcknowledgedCounterNoStrandedKeys(t *testing.T) {
	c := NewAcknowledgedCounter(0)
	const rounds, workers = 2000, 4
	for round := range rounds {
		var wg sync.WaitGroup
		base := int64(round * workers)
		for w := range workers {
			wg.Go(func() {
				if err := c.Acknowledge(base + int64(workers-1-w)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if want := base + workers - 1; c.Last() != want {
			t.Fatalf("round %d: Last = %d, want %d", round, c.Last(), want)
		}
	}
}

func TestAcknowledgedCounterWindow(t *testing.T) {
	c := NewAcknowledgedCounter(0)
	// Key 0 is outstanding, so the window holds keys 0 .. 2^20-1.
	if err := c.Acknowledge(ackWindow - 1); err != nil {
		t.Fatalf("last key of the window: %v", err)
	}
	if err := c.Acknowledge(ackWindow); !errors.Is(err, ErrTooManyUnacknowledged) {
		t.Errorf("key past the window: err = %v, want ErrTooManyUnacknowledged", err)
	}
	if err := c.Acknowledge(ackWindow - 1); !errors.Is(err, ErrTooManyUnacknowledged) {
		t.Errorf("slot already marked: err = %v, want ErrTooManyUnacknowledged", err)
	}
	if c.Last() != -1 {
		t.Errorf("Last = %d, want -1 with key 0 outstanding", c.Last())
	}
	for k := range int64(ackWindow - 1) {
		if err := c.Acknowledge(k); err != nil {
			t.Fatalf("key %d: %v", k, err)
		}
	}
	if c.Last() != ackWindow-1 {
		t.Fatalf("Last = %d, want %d", c.Last(), ackWindow-1)
	}
	// The window has moved on: the key that failed now fits.
	if err := c.Acknowledge(ackWindow); err != nil || c.Last() != ackWindow {
		t.Errorf("after advancing: err %v, Last %d", err, c.Last())
	}
	if err := c.Acknowledge(5); err == nil {
		t.Error("acknowledging a key below Last again succeeded")
	}
}

func TestSequential(t *testing.T) {
	s := NewSequential(5, 9)
	r := newRand(21)
	for i := range 23 {
		if v, want := s.Next(r), int64(5+i%5); v != want {
			t.Fatalf("draw %d = %d, want %d", i, v, want)
		}
	}
	// Shared by workers: every value appears equally often.
	s = NewSequential(-3, 6)
	const workers, each = 8, 1000
	var counts [10]atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := newRand(uint64(w))
			for range each {
				counts[s.Next(r)+3].Add(1)
			}
		})
	}
	wg.Wait()
	for i := range counts {
		if n := counts[i].Load(); n != workers*each/10 {
			t.Errorf("value %d drawn %d times, want %d", i-3, n, workers*each/10)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("NewSequential(2, 1) did not panic")
		}
	}()
	NewSequential(2, 1)
}
