package status

import "errors"

// UnknownOutcomeError says that a write failed after its request may have
// reached the server: the connection broke or timed out with the request
// sent and no answer back, or the server itself could not say (a
// Cassandra write timeout). The server may have applied it. A failure the
// server answered (a constraint violation, a refused login) or one before
// anything was sent is definite and is not wrapped.
//
// The operation's status is the wrapped error's (StatusOf looks through
// it): the report's Return= rows are the reference's. The run counts
// such writes apart, so that a load that fails this way says how many
// records may be in the table beyond those it knows of.
type UnknownOutcomeError struct{ Err error }

func (e *UnknownOutcomeError) Error() string {
	return e.Err.Error() + " (outcome unknown: the server may have applied it)"
}

func (e *UnknownOutcomeError) Unwrap() error { return e.Err }

// OutcomeUnknown marks err as a write whose outcome is unknown. A nil err,
// or one already marked, is returned as it is.
func OutcomeUnknown(err error) error {
	if err == nil || IsOutcomeUnknown(err) {
		return err
	}
	return &UnknownOutcomeError{Err: err}
}

// IsOutcomeUnknown reports whether err says that the write may have been
// applied (an UnknownOutcomeError anywhere in its chain). A LostBatchError
// carries it when the batch's own error does.
func IsOutcomeUnknown(err error) bool {
	if err == nil {
		return false
	}
	var ue *UnknownOutcomeError
	return errors.As(err, &ue)
}
