package cassandra

import (
	"context"
	"errors"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/cqlwire"
)

// serverUnsure says whether err is an ERROR response that leaves open
// whether the write was applied, and whether err is a response at all. A
// write timeout or failure says that some replicas may have written it
// (the coordinator could not gather the consistency level's
// acknowledgements: Cassandra's doc/native_protocol_v5.spec, "Error
// codes", 0x1100 and 0x1500, as third_party/gocql/errors.go cites it); a
// server error is an unexpected exception on the coordinator,
// which may come after it sent the mutation on. Every other response
// (unavailable, overloaded, invalid, unauthorized, ...) refuses the
// request before anything is written.
func serverUnsure(err error) (unsure, answered bool) {
	var re gocql.RequestError
	if !errors.As(err, &re) {
		return false, false
	}
	switch re.Code() {
	case gocql.ErrCodeWriteTimeout, gocql.ErrCodeWriteFailure, gocql.ErrCodeServer:
		return true, true
	}
	return false, true
}

// wireUnsure says whether a write's error on the lean path (cqlwire)
// leaves open whether the node applied it: a response that says so, or a
// request that was in flight when it failed (cqlwire.InFlightError: the
// connection broke, the request timed out or was given up). A request
// that was never sent (no connection, no free stream) fails for sure.
func wireUnsure(err error) bool {
	if unsure, answered := serverUnsure(err); answered {
		return unsure
	}
	var fe *cqlwire.InFlightError
	return errors.As(err, &fe)
}

// driverUnsure is wireUnsure for the driver's path (gocql), which does
// not say whether a failed request was sent: a timeout without a response
// and a connection closed under a request are taken as sent; no
// connection or no free stream as not.
func driverUnsure(err error) bool {
	if unsure, answered := serverUnsure(err); answered {
		return unsure
	}
	switch {
	case errors.Is(err, gocql.ErrNoConnections), errors.Is(err, gocql.ErrNoStreams),
		errors.Is(err, gocql.ErrUnavailable):
		return false
	}
	return errors.Is(err, gocql.ErrTimeoutNoResponse) || errors.Is(err, gocql.ErrConnectionClosed) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}
