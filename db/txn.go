package db

import "context"

// ReadModifyWriter is an optional Session capability: a read-modify-write
// as one database transaction (read key's fields, then write values to it,
// committed together), retried by the binding as its database requires. A
// binding's session has it only when its configuration asks for it
// (jdbc.rmwintxn=true), so the workload uses it whenever it is there, and
// measures the transaction as one READ-MODIFY-WRITE instead of a READ and
// an UPDATE. Arguments as Read's and Update's; out gets the read of the
// attempt that committed. A missing key is ErrNotFound (nothing written);
// an update that touches no row is ErrUnexpectedState.
type ReadModifyWriter interface {
	Session
	ReadModifyWrite(ctx context.Context, table, key string, fields []string, out *Record, values []Field) error
}

// RetryCounter is an optional Session capability: Retries is the number of
// times the session has run an operation again after a failure its
// database asks the client to retry (a serialization failure), since it was
// opened, never decreasing. The measurement layer counts the growth across
// each operation as that operation's retries.
type RetryCounter interface {
	Retries() int64
}
