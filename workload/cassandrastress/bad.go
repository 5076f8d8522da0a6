package cassandrastress

import (
	"errors"
	"fmt"

	"github.com/goycsb/ycsb/internal/infile"
)

// BadInput is a command line, profile or setup that cannot work: one
// line, exit 2.
type BadInput struct{ Err error }

func (e *BadInput) Error() string { return e.Err.Error() }
func (e *BadInput) Unwrap() error { return e.Err }
func (e *BadInput) BadInput()     {}

// Bad is the BadInput of a message.
func Bad(format string, args ...any) error { return &BadInput{Err: fmt.Errorf(format, args...)} }

func bad(format string, args ...any) error { return Bad(format, args...) }

// BadInputOf marks err as bad input, unless Ctrl-C ended the wait for an
// input (infile.Interrupted): the command then exits as interrupted.
func BadInputOf(err error) error {
	var in *infile.Interrupted
	if errors.As(err, &in) {
		return err
	}
	return &BadInput{Err: err}
}

func badInput(err error) error { return BadInputOf(err) }
