package cqlwire

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// What is retried on another node: refusals always, failures in flight
// only for idempotent statements, answers about the statement never.
func TestRetryable(t *testing.T) {
	inFlight := func(err error) error { return &InFlightError{Err: err} }
	for _, tc := range []struct {
		err              error
		idempotent, once bool // want, for an idempotent statement and for another
	}{
		{nil, false, false},
		{fmt.Errorf("%w: 10.0.0.1:9042: refused", gocql.ErrNoConnections), true, true},
		{syscall.ECONNREFUSED, true, true},
		{&ServerError{code: gocql.ErrCodeUnavailable}, true, true},
		{&ServerError{code: gocql.ErrCodeOverloaded}, true, true},
		{&ServerError{code: gocql.ErrCodeBootstrapping}, true, true},
		{&ServerError{code: gocql.ErrCodeWriteTimeout}, true, false},
		{&ServerError{code: gocql.ErrCodeReadTimeout}, true, false},
		{&ServerError{code: gocql.ErrCodeWriteFailure}, true, false},
		{&ServerError{code: gocql.ErrCodeInvalid}, false, false},
		{&ServerError{code: gocql.ErrCodeSyntax}, false, false},
		{&ServerError{code: gocql.ErrCodeUnauthorized}, false, false},
		{inFlight(syscall.ECONNRESET), true, false},
		{inFlight(gocql.ErrTimeoutNoResponse), true, false},
		{inFlight(context.Canceled), false, false},
		{context.Canceled, false, false},
		{context.DeadlineExceeded, true, false},
		{errors.New("other"), false, false},
	} {
		if got := Retryable(tc.err, true); got != tc.idempotent {
			t.Errorf("Retryable(%v, idempotent) = %t, want %t", tc.err, got, tc.idempotent)
		}
		if got := Retryable(tc.err, false); got != tc.once {
			t.Errorf("Retryable(%v, not idempotent) = %t, want %t", tc.err, got, tc.once)
		}
	}
}

// The first retry goes at once; the waits then double from RetryWait.
func TestRetryDelay(t *testing.T) {
	want := []time.Duration{0, RetryWait, 2 * RetryWait, 4 * RetryWait}
	for i, w := range want {
		if got := RetryDelay(i + 1); got != w {
			t.Errorf("RetryDelay(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := RetryDelay(1000); got != RetryWait<<10 {
		t.Errorf("RetryDelay(1000) = %v, want the cap %v", got, RetryWait<<10)
	}
}
