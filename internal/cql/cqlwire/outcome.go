package cqlwire

import (
	"errors"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// InFlightError is a request's failure after it was queued on its
// connection and before its response came: the connection broke, no
// response came in time, the caller gave up, or the response could not be
// read. The node may have received and executed it. A request that never
// got that far (a dead connection, no free stream, no node) fails with an
// error of its own, and an ERROR response is a *ServerError.
type InFlightError struct{ Err error }

func (e *InFlightError) Error() string { return e.Err.Error() }
func (e *InFlightError) Unwrap() error { return e.Err }

// WriteUnsure says whether an ERROR response of code leaves open whether
// a write was applied. A write timeout or a write failure says that some
// replicas may have written it: the coordinator could not gather the
// acknowledgements its consistency level needs (Cassandra's
// doc/native_protocol_v5.spec, "Error codes", 0x1100 and 0x1500, as
// the driver's errors.go cites it). A server error is an unexpected
// exception on the coordinator, which may come after it sent the mutation
// on. Every other answer (unavailable, overloaded, bootstrapping, invalid,
// unauthorized, ...) refuses the request before anything is written.
func WriteUnsure(code int) bool {
	switch code {
	case gocql.ErrCodeWriteTimeout, gocql.ErrCodeWriteFailure, gocql.ErrCodeServer:
		return true
	}
	return false
}

// MayHaveWritten says whether err, a request's on this package's path,
// leaves open whether the node executed it: it was in flight when it
// failed (InFlightError) or the answer says so (WriteUnsure).
func MayHaveWritten(err error) bool {
	var se *ServerError
	if errors.As(err, &se) {
		return WriteUnsure(se.code)
	}
	var fe *InFlightError
	return errors.As(err, &fe)
}
