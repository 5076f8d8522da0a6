package sqlbind

import (
	"context"
	"sync/atomic"
)

// Watch watches a session's long-lived context (the run's, the same for
// every operation) once, instead of the driver arming and disarming a
// context.AfterFunc for every statement (a goroutine hand-off each way,
// about a tenth of the client's CPU per operation). On its cancellation
// the session ends any statement in flight (its sockets get a past
// deadline) and operations after it fail at once. Contexts with a
// deadline, or already done, are handed to the driver as they are.
type Watch struct {
	// Ctx is the watched context; nil: none.
	Ctx context.Context
	// Cancelled is set once Ctx is cancelled, until Stop.
	Cancelled atomic.Bool
	stop      func() bool
}

// Wants says whether ctx is one to watch: cancellable, without a
// deadline, not done, and not the one watched already.
func (w *Watch) Wants(ctx context.Context) bool {
	if ctx == w.Ctx || ctx.Done() == nil || ctx.Err() != nil {
		return false
	}
	_, deadline := ctx.Deadline()
	return !deadline
}

// Start watches ctx (after Stop): on its cancellation Cancelled is set and
// cancel runs.
func (w *Watch) Start(ctx context.Context, cancel func()) {
	w.Ctx = ctx
	w.stop = context.AfterFunc(ctx, func() {
		w.Cancelled.Store(true)
		cancel()
	})
}

// Stop stops watching and reports whether the cancellation had come, for
// the session to undo what it did to its idle connections (so Close can
// still flush on them).
func (w *Watch) Stop() (wasCancelled bool) {
	if w.stop == nil {
		return false
	}
	w.stop()
	w.stop, w.Ctx = nil, nil
	return w.Cancelled.Swap(false)
}

// Context is the context for the driver: none when the session watches
// ctx itself.
func (w *Watch) Context(ctx context.Context) context.Context {
	if ctx == w.Ctx {
		return context.Background()
	}
	return ctx
}
