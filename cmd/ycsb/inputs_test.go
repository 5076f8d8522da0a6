package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInputsAreBounded: every file a command reads goes through one bounded
// reader. A device (/dev/zero, /dev/urandom) or a directory is one line
// naming the option as typed, exit 2, before anything is created or
// connected to (no server is needed: the stress commands and the binding
// point at port 1); a named pipe with no writer waits only until the first
// Ctrl-C, sent once the process waits for it, and the process then ends
// by itself (not killed at runBinary's 30 s) with one line.
func TestInputsAreBounded(t *testing.T) {
	bin, wl := binaryAndWorkload(t)
	base := t.TempDir()
	const fifo = "(a named pipe of the subtest's own)"
	dirInput := filepath.Join(base, "adir")
	os.Mkdir(dirInput, 0o755)
	commands := []struct {
		name string
		args func(in string) []string
		opt  func(in string) string // the option as typed, named in the error
	}{
		{"merge", func(in string) []string { return []string{"merge", in} }, same},
		{"compare", func(in string) []string { return []string{"compare", in, in} }, same},
		{"report --html", func(in string) []string { return []string{"report", "--html", in} }, same},
		{"kube -P", func(in string) []string { return []string{"kube", "run", "basic", "-clients", "2", "-P", in} }, same},
		{"load -P", func(in string) []string { return []string{"load", "basic", "-P", in} }, same},
		{"stress truststore=", func(in string) []string {
			return []string{"stress", "write", "n=1", "-port", "native=1", "-transport", "truststore=" + in}
		}, func(in string) string { return "-transport truststore=" + in }},
		{"stress user profile=", func(in string) []string {
			return []string{"stress", "user", "profile=" + in, "ops(insert=1)", "n=1", "-port", "native=1"}
		}, func(in string) string { return "profile=" + in }},
		{"stress -node file=", func(in string) []string {
			return []string{"stress", "write", "n=1", "-port", "native=1", "-node", "file=" + in}
		}, func(in string) string { return "-node file=" + in }},
		{"cassandra.ssl.ca", func(in string) []string {
			return []string{"run", "cassandra-cql", "-P", wl, "-p", "hosts=127.0.0.1", "-p", "port=1",
				"-p", "cassandra.useSSL=true", "-p", "cassandra.ssl.ca=" + in}
		}, func(in string) string { return "cassandra.ssl.ca=" + in }},
	}
	inputs := []struct {
		name, path, why string
	}{
		{"dev zero", "/dev/zero", "not a regular file or a pipe (a character device)"},
		{"dev urandom", "/dev/urandom", "not a regular file or a pipe (a character device)"},
		{"directory", dirInput, "is a directory"},
		{"fifo without a writer", fifo, "interrupted before it was read"},
	}
	for _, c := range commands {
		for _, in := range inputs {
			t.Run(c.name+"/"+in.name, func(t *testing.T) {
				// Each its own processes and files: a named pipe is
				// released by the process that gave up on it, which would
				// release another's wait too.
				t.Parallel()
				fifoCase := in.path == fifo
				var o outcome
				if fifoCase {
					in.path = filepath.Join(t.TempDir(), "fifo")
					if err := syscall.Mkfifo(in.path, 0o600); err != nil {
						t.Fatal(err)
					}
					o = runBinaryWhenOpening(t, bin, c.args(in.path)...)
				} else {
					o = runBinary(t, bin, 0, c.args(in.path)...)
				}
				if fifoCase {
					if o.code != 130 && o.code != 2 {
						t.Errorf("exit code %d after Ctrl-C, want 130 or 2", o.code)
					}
				} else if o.code != 2 {
					t.Errorf("exit code %d, want 2", o.code)
				}
				msg := strings.TrimSpace(o.stderr)
				// -P files say "cannot read properties file" in between.
				opt := c.opt(in.path) + ": "
				if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, opt) || !strings.HasSuffix(msg, in.why) && !strings.HasSuffix(msg, in.why+")") {
					t.Errorf("stderr is not one line naming %q and saying %q:\n%s", opt, in.why, msg)
				}
				if o.stdout != "" {
					t.Errorf("stdout: %.300s", o.stdout)
				}
				if o.created != 0 {
					t.Errorf("created %d files", o.created)
				}
			})
		}
	}
}

func same(in string) string { return in }
