package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/goycsb/ycsb/db"
)

// sendError is the error of a statement the session handed to pgconn to
// send (a write, a batch, a COMMIT), as opposed to one that failed on the
// way there (no connection, BEGIN, preparing the statement): only the
// former can have been applied. sentUnsure tells which of them could.
type sendError struct {
	err error
	// open says that the connection was open when the statement was
	// handed over: a "conn closed" then means that it broke under the
	// statement (see sentUnsure).
	open bool
}

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

// sent wraps the error of a statement handed to pgconn on conn, which was
// open (wasOpen) before; nil stays nil.
func sent(err error, wasOpen bool) error {
	if err == nil {
		return nil
	}
	return &sendError{err: err, open: wasOpen}
}

// sentUnsure marks err as of unknown outcome (db.OutcomeUnknown) when it
// is a statement's that was sent and not answered: the server sent no
// error response (a *pgconn.PgError is an answer: the statement, or the
// transaction at COMMIT, was not applied) and pgconn cannot say that it
// failed before anything was sent (pgconn.SafeToRetry). One exception:
// pgconn's simple protocol (Exec, which COMMIT goes through) reports a
// connection that broke while it waited for the answer as "conn closed",
// the lock error of a connection closed before the call, which it calls
// safe to retry; on a connection that was open when the statement was
// handed over it is of unknown outcome too. Anything else is returned as
// it is.
func sentUnsure(err error) error {
	var se *sendError
	if !errors.As(err, &se) || db.IsOutcomeUnknown(err) {
		return err
	}
	var pe *pgconn.PgError
	if errors.As(se.err, &pe) {
		return err
	}
	if pgconn.SafeToRetry(se.err) && !(se.open && errors.Is(se.err, pgconn.ErrConnClosed)) {
		return err
	}
	return db.OutcomeUnknown(err)
}
