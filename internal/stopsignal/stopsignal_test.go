package stopsignal

import (
	"context"
	"testing"
	"time"
)

// TestCounter: the first signal stops, those within Window of it are the
// same request (timeout(1) signals the process, then its group), the
// first one after it forces the exit.
func TestCounter(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		after []time.Duration // since the first signal
		want  []Request
	}{
		{"one", nil, []Request{Stop}},
		{"two together", []time.Duration{0}, []Request{Stop, Same}},
		{"group a little later", []time.Duration{30 * time.Millisecond}, []Request{Stop, Same}},
		{"three within the window", []time.Duration{1 * time.Millisecond, Window - time.Nanosecond}, []Request{Stop, Same, Same}},
		{"at the window's end", []time.Duration{Window}, []Request{Stop, Force}},
		{"again later", []time.Duration{2 * time.Second}, []Request{Stop, Force}},
		{"the window counts from the first", []time.Duration{400 * time.Millisecond, 800 * time.Millisecond}, []Request{Stop, Same, Force}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Counter
			got := []Request{c.Note(t0)}
			for _, d := range tc.after {
				got = append(got, c.Note(t0.Add(d)))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("signal %d: got %v, want %v", i+1, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestBy(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	if got := By(ctx); got != "" {
		t.Errorf("before the end: %q", got)
	}
	cancel(&Cause{Signal: SIGTERM})
	if got := By(ctx); got != SIGTERM {
		t.Errorf("got %q, want SIGTERM", got)
	}
	plain, stop := context.WithCancel(context.Background())
	stop()
	if got := By(plain); got != "" {
		t.Errorf("a plain cancel: %q, want none", got)
	}
	if !SIGINT.Known() || !SIGTERM.Known() || Signal("SIGHUP").Known() || Signal("").Known() {
		t.Error("Known")
	}
}
