package cassandra

import (
	"context"
	"errors"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/cql/cqlwire"
)

// wireUnsure says whether a write's error on the lean path leaves open
// whether the node applied it (cqlwire.MayHaveWritten): the request was
// in flight when it failed, or the answer says so (a write timeout). A
// request that was never sent (no connection, no free stream) failed.
func wireUnsure(err error) bool { return cqlwire.MayHaveWritten(err) }

// driverUnsure is wireUnsure for the driver's path (gocql), which does
// not say whether a failed request was sent: an answer is judged by its
// code as the lean path's (cqlwire.WriteUnsure), a timeout without a
// response or a connection closed under the request is taken as sent, no
// connection or no free stream as not.
func driverUnsure(err error) bool {
	var re gocql.RequestError
	if errors.As(err, &re) {
		return cqlwire.WriteUnsure(re.Code())
	}
	switch {
	case errors.Is(err, gocql.ErrNoConnections), errors.Is(err, gocql.ErrNoStreams),
		errors.Is(err, gocql.ErrUnavailable):
		return false
	}
	return errors.Is(err, gocql.ErrTimeoutNoResponse) || errors.Is(err, gocql.ErrConnectionClosed) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}
