package db

import (
	"context"
	"io"
)

type outputKey struct{}

// WithOutput returns a context whose Output is w: the run's standard output,
// for bindings that print (basic's verbose mode, the reference's startup lines).
func WithOutput(ctx context.Context, w io.Writer) context.Context {
	return context.WithValue(ctx, outputKey{}, w)
}

// Output returns the writer set by WithOutput, or io.Discard.
func Output(ctx context.Context) io.Writer {
	if w, ok := ctx.Value(outputKey{}).(io.Writer); ok {
		return w
	}
	return io.Discard
}
