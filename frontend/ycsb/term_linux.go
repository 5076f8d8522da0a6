package ycsb

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// terminal returns w's file descriptor when w is a terminal (a TCGETS
// ioctl succeeds on it), or -1.
func terminal(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return -1
	}
	fd := int(f.Fd())
	if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
		return -1
	}
	return fd
}

// termWidth returns the terminal's width in columns, or 0 when unknown.
func termWidth(fd int) int {
	if fd < 0 {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
