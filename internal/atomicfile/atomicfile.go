// Package atomicfile writes a file beside its final name and renames it into
// place, so a failure never leaves half a report behind. Check finds out
// beforehand whether the write can work, so that a command refuses an
// unwritable output before it does its work.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/goycsb/ycsb/internal/oserr"
)

// Write creates path with what write produces, or leaves it untouched. Its
// errors name path or its directory, never the temporary file.
func Write(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %v", dir, oserr.Reason(err))
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := write(tmp); err != nil {
		tmp.Close()
		return describe(path, err)
	}
	if err := tmp.Close(); err != nil {
		return describe(path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, oserr.Reason(err))
	}
	return nil
}

// Check finds out, before any work is done, whether Write can create path:
// its directory exists and takes a new file (a temporary one, created and
// removed at once), and path is not a directory. Nothing at path changes.
// The error is one line naming path or its directory.
func Check(path string) error {
	if path == "" {
		return errors.New("no file name")
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("directory %s: %v", dir, oserr.Reason(err))
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory, want a file name", path)
	}
	return CanCreate(path)
}

// CanCreate says why a file beside path cannot be created, or nil: it
// creates one in path's directory and removes it, leaving nothing behind.
func CanCreate(path string) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".check*")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %v", dir, oserr.Reason(err))
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// describe names path in an error of the writer, which may name the
// temporary file.
func describe(path string, err error) error {
	if r := oserr.Reason(err); r != err {
		return fmt.Errorf("cannot write %s: %v", path, r)
	}
	return err
}
