package backoff

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

func TestNoCQLNode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{gocql.ErrNoConnections, true},
		{fmt.Errorf("x: %w", gocql.ErrConnectionClosed), true},
		{syscall.ECONNREFUSED, true},
		{fmt.Errorf("x: %w", gocql.ErrTimeoutNoResponse), false}, // it has waited already
		{context.DeadlineExceeded, false},
		{errors.New("other"), false},
	} {
		if got := NoCQLNode(tc.err); got != tc.want {
			t.Errorf("NoCQLNode(%v) = %t, want %t", tc.err, got, tc.want)
		}
	}
}

// The wait doubles from Min up to Max, Reset starts it again, and the end
// of the context cuts it short.
func TestWait(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel() // each Wait returns at once; the waits are still computed
	var b Backoff
	var waits []time.Duration
	for range 12 {
		b.Wait(done)
		waits = append(waits, b.Current())
	}
	want := []time.Duration{Min, 2 * Min, 4 * Min, 8 * Min, 16 * Min, 32 * Min, 64 * Min, 128 * Min, 256 * Min, 512 * Min, Max, Max}
	if fmt.Sprint(waits) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
	b.Reset()
	if b.Current() != 0 {
		t.Errorf("after Reset: %v", b.Current())
	}
	ctx, stop := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, stop)
	for b.Current() < Max {
		b.Wait(done)
	}
	start := time.Now()
	b.Wait(ctx)
	if d := time.Since(start); d > Max/2 {
		t.Errorf("a cancelled context left a wait of %v after %v", Max, d)
	}
}
