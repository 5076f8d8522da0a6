package stress

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// parseOrFatal parses a command line.
func parseOrFatal(t *testing.T, args ...string) *settings.Settings {
	t.Helper()
	s, _, err := settings.Parse(args)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestUserRefused: what user does not support yet is one line, exit 2,
// before anything is opened.
func TestUserRefused(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "blogpost.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "p.yaml")
	y := string(b) + "token_range_queries:\n  all: {columns: '*', page_size: 100}\n"
	if err := os.WriteFile(f, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	files := t.TempDir() // what the refused runs would have written
	for _, c := range []struct {
		args []string
		want string
	}{
		// as for the predefined commands: one report per run
		{[]string{"ops(insert=1)", "-log", "json=" + filepath.Join(files, "r.json")}, "-log json=" + filepath.Join(files, "r.json") + ": not offered with a thread ramp yet (one report per run); give -rate threads=N"},
	} {
		args := append([]string{"user", "profile=" + f}, c.args...)
		// a node nobody listens on: nothing may be opened
		args = append(args, "-node", "127.0.0.1", "-port", "native=1")
		var out, errOut strings.Builder
		err := Main(context.Background(), args, Env{Stdout: &out, Stderr: &errOut})
		var bi *BadInput
		if !errors.As(err, &bi) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
	if left, _ := os.ReadDir(files); len(left) != 0 {
		t.Errorf("refused runs wrote %v", left)
	}
}
