// Package oserr shortens the errors of the os package for messages that
// already name the file, as the user typed it or as the option gives it.
package oserr

import (
	"errors"
	"io/fs"
	"os"
)

// Reason is err without the operation and the path(s) that an
// *fs.PathError or an *os.LinkError repeats ("permission denied" for
// "open /x/y: permission denied"); any other error is returned as it is.
func Reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
