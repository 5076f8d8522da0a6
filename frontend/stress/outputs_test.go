package stress

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOutputsWrittenThroughAreAccepted: a device, a FIFO, a descriptor or
// a link to them passes the output checks without being opened (a FIFO's
// open would wait here for a reader), and may stand for several outputs;
// a socket is refused. The node is a port nobody listens on: an accepted
// command line gets as far as connecting.
func TestOutputsWrittenThroughAreAccepted(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer ln.Close()
	for _, c := range []struct {
		line []string
		want string // "" for accepted
	}{
		{[]string{"write", "n=10", "-log", "file=/dev/null", "hdrfile=/dev/null", "json=" + link, "-rate", "threads=1", "-graph", "file=" + fifo}, ""},
		{[]string{"write", "n=10", "-log", "file=/dev/stdout", "json=/dev/stdout", "-rate", "threads=1"}, ""},
		{[]string{"write", "n=10", "-log", "file=" + sock}, "-log file=" + sock + ": " + sock + " is a socket"},
	} {
		var stdout, stderr strings.Builder
		line := append(c.line, "-node", "127.0.0.1", "-port", "native=1")
		err := Main(context.Background(), line, Env{Stdout: &stdout, Stderr: &stderr, Version: "test"})
		var bi *BadInput
		switch {
		case c.want == "" && (err == nil || !strings.HasPrefix(err.Error(), "connect to 127.0.0.1")):
			t.Errorf("%s: %v, want the connection refused", strings.Join(c.line, " "), err)
		case c.want != "" && (!errors.As(err, &bi) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want …%s…", strings.Join(c.line, " "), err, c.want)
		}
	}
	for _, p := range []string{"/dev/null", fifo} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s is now a regular file (%v)", p, err)
		}
	}
}
