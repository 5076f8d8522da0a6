package within

import (
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
