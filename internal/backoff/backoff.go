// Package backoff spaces out a worker's operations while no server can
// take them: without it a worker fails millions of operations a second
// against a down cluster, burning the client's CPU and making the
// report's throughput meaningless. The cassandra-cql binding and the
// stress mode both use it.
package backoff

import (
	"context"
	"errors"
	"io"
	"syscall"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// The wait doubles from Min to Max while operations keep failing.
const (
	Min = time.Millisecond
	Max = time.Second
)

// Backoff is one worker's wait after failed operations; the zero value is
// ready. It is not safe for concurrent use: each worker has its own.
type Backoff struct {
	wait  time.Duration
	timer *time.Timer
}

// Wait doubles the wait, from Min up to Max, and sleeps it; the end of ctx
// cuts it short.
func (b *Backoff) Wait(ctx context.Context) {
	b.wait = min(max(2*b.wait, Min), Max)
	if b.timer == nil {
		b.timer = time.NewTimer(b.wait)
	} else {
		b.timer.Reset(b.wait)
	}
	select {
	case <-b.timer.C:
	case <-ctx.Done():
		b.timer.Stop()
	}
}

// Reset starts the next wait from Min again: an operation succeeded.
func (b *Backoff) Reset() { b.wait = 0 }

// Current is the last wait, 0 after Reset.
func (b *Backoff) Current() time.Duration { return b.wait }

// NoCQLNode reports whether err, from the CQL driver, says that the
// operation failed at once because no node could take it (none connected,
// refused, closed, or a coordinator without the replicas or the
// capacity); a timeout has waited already.
func NoCQLNode(err error) bool {
	var re gocql.RequestError
	if errors.As(err, &re) {
		switch re.Code() {
		case gocql.ErrCodeUnavailable, gocql.ErrCodeOverloaded, gocql.ErrCodeBootstrapping:
			return true
		}
		return false
	}
	return errors.Is(err, gocql.ErrNoConnections) ||
		errors.Is(err, gocql.ErrConnectionClosed) ||
		errors.Is(err, gocql.ErrUnavailable) ||
		errors.Is(err, gocql.ErrNoStreams) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE)
}
