package stress

import (
	"testing"

	"github.com/goycsb/ycsb/stress/settings"
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
