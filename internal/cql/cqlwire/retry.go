package cqlwire

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// Retries of a request that failed on one node, on another replica
// (docs/cassandra.md, "Retries"). The bound keeps a dead cluster from
// multiplying every operation's cost: each try can wait up to the
// request timeout, and a failure everywhere (too few replicas for the
// consistency level) fails the same on every node.
const (
	// MaxRetries is the retries of one operation: four tries in all.
	MaxRetries = 3
	// RetryWait is the wait before the second retry, doubled for each
	// later one; the first goes at once, to another node.
	RetryWait = 10 * time.Millisecond
)

// RetryDelay is the wait before retry n (from 1): none before the first,
// which goes to another node, then RetryWait, doubled for each later one.
func RetryDelay(n int) time.Duration {
	if n <= 1 {
		return 0
	}
	return RetryWait << min(n-2, 10)
}

// Retryable says whether a request that failed with err may be sent again,
// to another node: always when the node refused it before doing anything
// (no connection, connection refused, unavailable, overloaded,
// bootstrapping: nothing was written), and when idempotent also after it
// was in flight (a connection reset, no answer in time, a coordinator's
// read or write timeout or failure), since running it twice leaves the
// same data. An answer about the statement itself (invalid, unauthorized,
// syntax) fails the same anywhere and is not retried; neither is the end
// of the caller's context.
func Retryable(err error, idempotent bool) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var re gocql.RequestError
	if errors.As(err, &re) {
		switch re.Code() {
		case gocql.ErrCodeUnavailable, gocql.ErrCodeOverloaded, gocql.ErrCodeBootstrapping:
			return true
		case gocql.ErrCodeReadTimeout, gocql.ErrCodeWriteTimeout,
			gocql.ErrCodeReadFailure, gocql.ErrCodeWriteFailure, gocql.ErrCodeServer:
			return idempotent
		}
		return false
	}
	var fe *InFlightError
	if errors.As(err, &fe) {
		return idempotent && !errors.Is(fe.Err, context.Canceled)
	}
	if idempotent && errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	// Not sent: the request never reached a node.
	switch {
	case errors.Is(err, gocql.ErrNoConnections), errors.Is(err, gocql.ErrConnectionClosed),
		errors.Is(err, gocql.ErrNoStreams), errors.Is(err, gocql.ErrUnavailable),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	var ne net.Error
	return idempotent && errors.As(err, &ne)
}

// NoAnswer says whether err is a request's that got no answer in time:
// sending it again to the same node is no use.
func NoAnswer(err error) bool {
	return errors.Is(err, gocql.ErrTimeoutNoResponse) || errors.Is(err, context.DeadlineExceeded)
}
