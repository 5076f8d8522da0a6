// Package status holds the statuses of the binding contract: an operation's
// outcome as counted in the report's Return= lines, the errors that carry
// one, and the marks of writes lost or of unknown outcome. A leaf: the
// measurements read statuses without the rest of db, whose aliases
// (db.Status, db.ErrNotFound, ...) the bindings use.
package status

import (
	"context"
	"errors"
	"fmt"
)

// Status is the outcome of one operation, as counted in the report's
// `Return=<STATUS>` lines. The names are the reference's.
type Status uint8

// Statuses. The numeric values are internal; the order of Return= lines in the
// report is the reference's (see measurement).
const (
	OK Status = iota
	BatchedOK
	Error
	NotFound
	NotImplemented
	UnexpectedState
	BadRequest
	Forbidden
	ServiceUnavailable
	NumStatuses
)

var statusNames = [NumStatuses]string{
	OK:                 "OK",
	BatchedOK:          "BATCHED_OK",
	Error:              "ERROR",
	NotFound:           "NOT_FOUND",
	NotImplemented:     "NOT_IMPLEMENTED",
	UnexpectedState:    "UNEXPECTED_STATE",
	BadRequest:         "BAD_REQUEST",
	Forbidden:          "FORBIDDEN",
	ServiceUnavailable: "SERVICE_UNAVAILABLE",
}

func (s Status) String() string {
	if s < NumStatuses {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// IsOK reports whether s counts as a success (OK or BATCHED_OK).
func (s Status) IsOK() bool { return s == OK || s == BatchedOK }

// ParseStatus returns the status named name (the reference's spelling).
func ParseStatus(name string) (Status, bool) {
	for i, n := range statusNames {
		if n == name {
			return Status(i), true
		}
	}
	return 0, false
}

// StatusError tags an error with a status. Bindings return the sentinels
// below or wrap driver errors with WithStatus.
type StatusError struct {
	Status Status
	Err    error
}

func (e *StatusError) Error() string {
	if e.Err == nil {
		return e.Status.String()
	}
	return e.Err.Error()
}

func (e *StatusError) Unwrap() error { return e.Err }

// Is lets errors.Is(err, db.ErrNotFound) match any error carrying NOT_FOUND.
func (e *StatusError) Is(target error) bool {
	t, ok := target.(*StatusError)
	return ok && t.Err == nil && t.Status == e.Status
}

// Sentinels, allocated once, for bindings to return as is or wrap with %w.
var (
	// ErrBatched is not a failure: the binding buffered the write and will
	// send it later (BATCHED_OK).
	ErrBatched            error = &StatusError{Status: BatchedOK}
	ErrNotFound           error = &StatusError{Status: NotFound}
	ErrNotImplemented     error = &StatusError{Status: NotImplemented}
	ErrUnexpectedState    error = &StatusError{Status: UnexpectedState}
	ErrBadRequest         error = &StatusError{Status: BadRequest}
	ErrForbidden          error = &StatusError{Status: Forbidden}
	ErrServiceUnavailable error = &StatusError{Status: ServiceUnavailable}
)

// LostBatchError says that a buffered batch could not be sent: Acked writes
// that had returned BATCHED_OK did not happen. The measurement layer counts
// them under the batch's status instead of BATCHED_OK, so that the report
// never counts a row as written that is not.
type LostBatchError struct {
	Acked int
	Err   error
}

func (e *LostBatchError) Error() string {
	return fmt.Sprintf("%v (%d buffered writes lost)", e.Err, e.Acked)
}

func (e *LostBatchError) Unwrap() error { return e.Err }

// LostWrites is the number of writes acknowledged with BATCHED_OK that err
// says were lost; 0 for any other error.
func LostWrites(err error) int {
	var le *LostBatchError
	if err != nil && errors.As(err, &le) {
		return le.Acked
	}
	return 0
}

// WithStatus tags err with s. A nil err stays nil.
func WithStatus(s Status, err error) error {
	if err == nil {
		return nil
	}
	return &StatusError{Status: s, Err: err}
}

// StatusOf classifies an operation's error: nil is OK, a StatusError anywhere
// in the chain gives its status, a cancelled context gives ERROR like any
// other untagged failure.
func StatusOf(err error) Status {
	if err == nil {
		return OK
	}
	if se, ok := err.(*StatusError); ok { // fast path: the sentinels
		return se.Status
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ServiceUnavailable
	}
	return Error
}
