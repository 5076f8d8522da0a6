package oserr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

func TestReason(t *testing.T) {
	plain := errors.New("plain")
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"path error", &fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}, syscall.EACCES},
		{"wrapped path error", fmt.Errorf("reading: %w", &fs.PathError{Op: "read", Path: "/x", Err: syscall.EISDIR}), syscall.EISDIR},
		{"link error", &os.LinkError{Op: "rename", Old: "/a", New: "/b", Err: syscall.EXDEV}, syscall.EXDEV},
		{"other error", plain, plain},
		{"nil", nil, nil},
	}
	for _, tt := range tests {
		if got := Reason(tt.err); got != tt.want {
			t.Errorf("%s: Reason = %v, want %v", tt.name, got, tt.want)
		}
	}
}
