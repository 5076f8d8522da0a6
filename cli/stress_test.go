package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStressBadInput: a bad stress line is one line naming what is wrong,
// exit 2, before any connection, and nothing written.
func TestStressBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"stress", "write", "n=10", "-rate", "threads=x"}, "threads"},
		{[]string{"stress", "wirte", "n=10"}, "wirte"},
		{[]string{"stress", "write", "n=10", "-log", "file=" + filepath.Join(dir, "no", "x.log")}, "file="},
		{[]string{"stress", "user", "profile=x.yaml", "ops(insert=1)"}, "user"},
	} {
		code, stdout, stderr := run(t, context.Background(), c.args...)
		msg := strings.TrimSpace(stderr)
		if code != ExitBadInput || stdout != "" || strings.Count(msg, "\n") != 0 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line naming %s", c.args, code, stdout, msg, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("created %d files", len(entries))
	}
}

func TestStressHelp(t *testing.T) {
	code, stdout, _ := run(t, context.Background(), "stress", "help")
	if code != ExitOK || !strings.Contains(stdout, "write") {
		t.Errorf("stress help: exit %d\n%s", code, stdout)
	}
}

func TestCommandArgs(t *testing.T) {
	for _, c := range []struct{ argv, want []string }{
		{[]string{"/usr/bin/ycsb", "run", "basic"}, []string{"run", "basic"}},
		{[]string{"/opt/bin/cassandra-stress", "write", "n=1"}, []string{"stress", "write", "n=1"}},
		{[]string{"cassandra-stress"}, []string{"stress"}},
	} {
		if got := CommandArgs(c.argv); !slices.Equal(got, c.want) {
			t.Errorf("CommandArgs(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}
