package cassandra

import (
	"context"
	"fmt"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
)

// answer is an ERROR response as the driver's errors present it
// (gocql.RequestError), whose types keep their code unexported.
type answer struct{ code int }

func (a answer) Code() int       { return a.code }
func (a answer) Message() string { return fmt.Sprintf("error %#x", a.code) }
func (a answer) Error() string   { return a.Message() }

// TestDriverUnsure: on the driver's path, a write that timed out or whose
// connection closed under it may have been applied; one refused by an
// answer other than a write timeout or failure, or never sent, was not.
// The lean path's cases are cqlwire's (TestInFlight).
func TestDriverUnsure(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{gocql.ErrTimeoutNoResponse, true},
		{fmt.Errorf("10.0.0.1:9042: %w", gocql.ErrConnectionClosed), true},
		{context.DeadlineExceeded, true},
		{answer{gocql.ErrCodeWriteTimeout}, true},
		{answer{gocql.ErrCodeWriteFailure}, true},
		{answer{gocql.ErrCodeServer}, true},
		{answer{gocql.ErrCodeUnavailable}, false},
		{answer{gocql.ErrCodeOverloaded}, false},
		{answer{gocql.ErrCodeInvalid}, false},
		{answer{gocql.ErrCodeCredentials}, false},
		{gocql.ErrNoConnections, false},
		{gocql.ErrNoStreams, false},
	} {
		if got := driverUnsure(tc.err); got != tc.want {
			t.Errorf("driverUnsure(%v) = %v, want %v", tc.err, got, tc.want)
		}
		// The mark leaves the status as classify gives it.
		s := &session{}
		err := s.failWrite(context.Background(), opInsert, tc.err, driverUnsure(tc.err))
		if db.IsOutcomeUnknown(err) != tc.want || db.StatusOf(err) != classify(tc.err) {
			t.Errorf("failWrite(%v) = %v: unknown %v, status %v; want %v, %v", tc.err, err,
				db.IsOutcomeUnknown(err), db.StatusOf(err), tc.want, classify(tc.err))
		}
	}
}
