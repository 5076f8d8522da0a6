package db

import (
	"context"

	"github.com/goycsb/ycsb/props"
)

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

// Transactional is an optional Session capability: several statements run
// as one database transaction, committed together or not at all. The
// closed-economy workload moves money between two accounts through it.
type Transactional interface {
	Session
	// Transact runs body in one transaction and commits it. After a
	// failure its database asks the client to retry (a serialization
	// failure, a deadlock) it rolls back and runs body again from the
	// start, up to the binding's limit (jdbc.txnretries), counting each
	// retry (RetryCounter). Any other error of body or of the commit rolls
	// the transaction back and is returned.
	Transact(ctx context.Context, body TxnBody) error
}

// TxnBody is a transaction's statements. Attempt runs them through tx; it
// is called again, from the start, for every retry, so it must not keep
// anything of an earlier attempt. An error it returns ends the attempt.
type TxnBody interface {
	Attempt(ctx context.Context, tx Txn) error
}

// Txn is a transaction in progress, valid only during Attempt. Arguments
// and results as Session's. Read locks the rows it reads when the binding
// is configured so (jdbc.selectforupdate); an Update that touches no row is
// ErrUnexpectedState.
type Txn interface {
	Read(ctx context.Context, table, key string, fields []string, out *Record) error
	Update(ctx context.Context, table, key string, values []Field) error
}

// TxnDriver is an optional Driver capability: Transactions says, without
// connecting, whether the sessions of a DB opened with p will be
// Transactional (nil), or why not, naming the property at fault.
type TxnDriver interface {
	Transactions(p *props.Properties) error
}

// Summer is an optional DB capability: Sum adds up field, read as an
// integer, over every row of table, in one statement (one snapshot even
// while others write), and counts the rows. A value that is not an integer
// is an error.
type Summer interface {
	Sum(ctx context.Context, table, field string) (sum, rows int64, err error)
}
