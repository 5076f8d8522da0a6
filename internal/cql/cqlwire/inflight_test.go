package cqlwire

import (
	"context"
	"errors"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// TestInFlight: a request that fails once it was queued on its connection
// (the connection closed under it, no response in time) is an
// InFlightError, which may have been executed; an ERROR response is a
// *ServerError and a request that never left (no connection) neither.
func TestInFlight(t *testing.T) {
	for _, tc := range []struct {
		name     string
		key      string
		inFlight bool
		code     int // the ServerError's, or 0 for none
		unsure   bool
	}{
		{"connection closed after the request", "cut", true, 0, true},
		{"no response in time", "hang", true, 0, true},
		{"an error response", "invalid", false, gocql.ErrCodeInvalid, false},
		{"unavailable", "unavailable", false, gocql.ErrCodeUnavailable, false},
		{"a write timeout response", "writetimeout", false, gocql.ErrCodeWriteTimeout, true},
		{"a write failure response", "writefailure", false, gocql.ErrCodeWriteFailure, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer(t, "127.0.0.1:0")
			s.OnExecute = func(c *srvConn, stream int16, key []byte) bool {
				switch string(key) {
				case "cut":
					c.nc.Close()
				case "hang":
				case "invalid":
					c.writeError(stream, gocql.ErrCodeInvalid, "Undefined column name x")
				case "unavailable":
					c.writeError(stream, gocql.ErrCodeUnavailable, "Cannot achieve consistency level ONE")
				case "writetimeout":
					c.writeError(stream, gocql.ErrCodeWriteTimeout, "Operation timed out - received only 0 responses.")
				case "writefailure":
					c.writeError(stream, gocql.ErrCodeWriteFailure, "Operation failed - received 0 responses and 1 failures")
				default:
					return false
				}
				return true
			}
			s.start()
			o := testOptions()
			o.Timeout = 200 * time.Millisecond
			p := NewPool(o)
			defer p.Close()
			c := newClient(p, s.Addr)
			if _, _, err := c.read(context.Background(), []byte("warm")); err != nil {
				t.Fatal(err)
			}
			_, _, err := c.read(context.Background(), []byte(tc.key))
			var fe *InFlightError
			if errors.As(err, &fe) != tc.inFlight {
				t.Errorf("error %v: in flight %v, want %v", err, !tc.inFlight, tc.inFlight)
			}
			var se *ServerError
			if got := errors.As(err, &se); got != (tc.code != 0) || got && se.Code() != tc.code {
				t.Errorf("error %v (%T): want a ServerError of code %#x: %v", err, err, tc.code, got)
			}
			if MayHaveWritten(err) != tc.unsure {
				t.Errorf("MayHaveWritten(%v) = %v, want %v", err, !tc.unsure, tc.unsure)
			}
		})
	}
}

// TestNotSent: a request to a node that cannot be reached never left: it
// is no InFlightError.
func TestNotSent(t *testing.T) {
	s := newFakeServer(t, "127.0.0.1:0")
	addr := s.Addr
	s.Stop()
	p := NewPool(testOptions())
	defer p.Close()
	c := newClient(p, addr)
	_, _, err := c.read(context.Background(), []byte("k"))
	var fe *InFlightError
	if err == nil || errors.As(err, &fe) || MayHaveWritten(err) {
		t.Errorf("error %v: want a failure not in flight", err)
	}
}
