package within

import (
	"context"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	if !Run(time.Second, func() {}) {
		t.Error("a call that returns at once was not in time")
	}
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	if Run(50*time.Millisecond, func() { <-release }) {
		t.Error("a call that hangs was in time")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("waited %v for a hung call, want 50 ms", d)
	}
}

func TestSleep(t *testing.T) {
	if !Sleep(context.Background(), 0) || !Sleep(context.Background(), -time.Second) {
		t.Error("a sleep of 0 or less did not report done")
	}
	if !Sleep(context.Background(), time.Millisecond) {
		t.Error("a sleep that ran its course reported cut short")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if Sleep(ctx, time.Hour) || Sleep(ctx, 0) {
		t.Error("a sleep under an ended context reported done")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("slept %v under an ended context", d)
	}
}
