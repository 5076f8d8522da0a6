package db

import "github.com/goycsb/ycsb/db/status"

// The statuses live in the leaf db/status, which the measurements import
// without the rest of the contract; these aliases keep them db's for the
// bindings.

type (
	// Status is status.Status: an operation's outcome.
	Status = status.Status
	// StatusError is status.StatusError: an error tagged with a status.
	StatusError = status.StatusError
	// LostBatchError is status.LostBatchError: buffered writes lost.
	LostBatchError = status.LostBatchError
	// UnknownOutcomeError is status.UnknownOutcomeError: a write that may
	// have been applied.
	UnknownOutcomeError = status.UnknownOutcomeError
)

// Statuses (status's).
const (
	OK                 = status.OK
	BatchedOK          = status.BatchedOK
	Error              = status.Error
	NotFound           = status.NotFound
	NotImplemented     = status.NotImplemented
	UnexpectedState    = status.UnexpectedState
	BadRequest         = status.BadRequest
	Forbidden          = status.Forbidden
	ServiceUnavailable = status.ServiceUnavailable
	NumStatuses        = status.NumStatuses
)

// Sentinels (status's, the same values).
var (
	ErrBatched            = status.ErrBatched
	ErrNotFound           = status.ErrNotFound
	ErrNotImplemented     = status.ErrNotImplemented
	ErrUnexpectedState    = status.ErrUnexpectedState
	ErrBadRequest         = status.ErrBadRequest
	ErrForbidden          = status.ErrForbidden
	ErrServiceUnavailable = status.ErrServiceUnavailable
)

// ParseStatus is status.ParseStatus.
func ParseStatus(name string) (Status, bool) { return status.ParseStatus(name) }

// LostWrites is status.LostWrites.
func LostWrites(err error) int { return status.LostWrites(err) }

// WithStatus is status.WithStatus.
func WithStatus(s Status, err error) error { return status.WithStatus(s, err) }

// StatusOf is status.StatusOf.
func StatusOf(err error) Status { return status.StatusOf(err) }

// OutcomeUnknown is status.OutcomeUnknown.
func OutcomeUnknown(err error) error { return status.OutcomeUnknown(err) }

// IsOutcomeUnknown is status.IsOutcomeUnknown.
func IsOutcomeUnknown(err error) bool { return status.IsOutcomeUnknown(err) }
