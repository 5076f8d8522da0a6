package stress

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/goycsb/ycsb/report/htmlreport"
)

// TestOutputsWrittenThrough runs with every output at something other
// than a new file: the JSON report to a FIFO whose reader gets it whole
// (and -graph, which reads the report back, still draws it), the page and
// the log through links to other directories, the HDR log to /dev/null. A
// -log file= that takes nothing (/dev/full) fails the run at its end with
// one line naming it.
func TestOutputsWrittenThrough(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "outputs")
	dir, other := t.TempDir(), t.TempDir()
	fifo := filepath.Join(dir, "report.fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	page, logFile := filepath.Join(other, "g.html"), filepath.Join(other, "run.log")
	pageLink, logLink := filepath.Join(dir, "g.html"), filepath.Join(dir, "run.log")
	os.Symlink(page, pageLink)
	os.Symlink(logFile, logLink)
	got := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	runLine(t, "write", "n=300", "no-warmup", "-rate", "threads=2", "-schema", "replication(factor=1)", "keyspace="+ks,
		"-node", testNode, "-log", "no-settings", "file="+logLink, "json="+fifo, "hdrfile=/dev/null",
		"-graph", "file="+pageLink, "revision=r")
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Fatalf("the FIFO was replaced: %v", err)
	}
	var doc map[string]any
	if b := <-got; json.Unmarshal(b, &doc) != nil || doc["operations"] != 300.0 {
		t.Errorf("the FIFO's reader got:\n%s", b)
	}
	for _, l := range []string{pageLink, logLink} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", l, err)
		}
	}
	b, _ := os.ReadFile(page)
	if _, in, err := htmlreport.ReadInputs(b); err != nil || len(in) != 1 || in[0].Report.Operations != 300 {
		t.Errorf("the page behind the link: %v", err)
	}
	if b, _ := os.ReadFile(logFile); !bytes.HasSuffix(b, []byte("\nEND\n")) {
		t.Errorf("the log behind the link holds %q", b)
	}

	if fi, err := os.Stat("/dev/full"); err != nil || fi.Mode().Type()&fs.ModeCharDevice == 0 {
		t.Skipf("no /dev/full: %v", err)
	}
	var out, errOut bytes.Buffer
	err := Main(context.Background(), []string{"write", "n=100", "no-warmup", "-rate", "threads=1", "-schema", "replication(factor=1)",
		"keyspace=" + ks, "-node", testNode, "-log", "no-settings", "file=/dev/full"}, Env{Stdout: &out, Stderr: &errOut, Version: "test"})
	if want := "-log file=/dev/full: cannot write /dev/full: no space left on device"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if !strings.HasSuffix(out.String(), "\nEND\n") {
		t.Errorf("the output stopped with the log:\n%s", out.String())
	}
}
