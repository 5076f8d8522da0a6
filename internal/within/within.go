// Package within bounds the wait for a call that may hang, such as a
// driver's close against a node that stopped answering.
package within

import "time"

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
