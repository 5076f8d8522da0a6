package stress

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/goycsb/ycsb/props"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// TestClusterSendsAtOnce: the driver's timed coalescing is off: it would
// add up to its window (200 µs) to every latency.
func TestClusterSendsAtOnce(t *testing.T) {
	s, _, err := settings.Parse([]string{"write", "n=10", "-node", "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	cc := (&stressRun{s: s}).cluster("keyspace1")
	if cc.WriteCoalesceWaitTime != 0 {
		t.Errorf("WriteCoalesceWaitTime = %v, want 0", cc.WriteCoalesceWaitTime)
	}
}

// TestJSONWithRampRefused: -log json= holds the report of one run, and a
// thread ramp is many: one line, exit 2, nothing written, rather than a
// file that never appears.
func TestJSONWithRampRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	var o, e bytes.Buffer
	err := Main(context.Background(), []string{"read", "n=10", "-log", "json=" + path, "-node", "127.0.0.1"}, Env{Stdout: &o, Stderr: &e})
	if !props.IsBadInput(err) || err.Error() != "-log json="+path+": not offered with a thread ramp yet (one report per run); give -rate threads=N" {
		t.Fatalf("err = %v", err)
	}
	if _, serr := os.Stat(path); serr == nil {
		t.Errorf("%s was written", path)
	}
}
