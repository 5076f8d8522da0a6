// Package within bounds waits: a call that may hang, such as a driver's
// close against a node that stopped answering, and a sleep that the end of
// a context cuts short.
package within

import (
	"context"
	"time"
)

// Run calls fn and waits for it d at most; past that fn goes on in the
// background. It reports whether fn returned in time.
func Run(d time.Duration, fn func()) bool {
	done := make(chan struct{})
	go func() {
		fn()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// Sleep waits d, or until ctx ends if that comes first. It reports whether
// ctx is still on after the whole d; a d of 0 or less returns at once.
func Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
