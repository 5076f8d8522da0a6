// Package atomicfile writes a file beside its final name and renames it into
// place, so a failure never leaves half a report behind.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Write creates path with what write produces, or leaves it untouched.
func Write(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
