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
type sendError struct{ err error }

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

// sentUnsure marks err as of unknown outcome (db.OutcomeUnknown) when it
// is a statement's that was sent and not answered: pgconn cannot say that
// it failed before anything was sent (pgconn.SafeToRetry), and the server
// sent no error response (a *pgconn.PgError is an answer: the statement,
// or the transaction at COMMIT, was not applied). Anything else is
// returned as it is.
func sentUnsure(err error) error {
	var se *sendError
	if !errors.As(err, &se) || db.IsOutcomeUnknown(err) {
		return err
	}
	var pe *pgconn.PgError
	if errors.As(se.err, &pe) || pgconn.SafeToRetry(se.err) {
		return err
	}
	return db.OutcomeUnknown(err)
}
