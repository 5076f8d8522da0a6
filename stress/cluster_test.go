package stress

import (
	"testing"

	"github.com/goycsb/ycsb/internal/gatherconn"
	"github.com/goycsb/ycsb/stress/settings"
)

// TestClusterGathersWritesWithoutTimer: the driver's timed coalescing is
// off (it would add up to its window to every latency) and the workers'
// requests are gathered by gatherconn instead.
func TestClusterGathersWritesWithoutTimer(t *testing.T) {
	s, _, err := settings.Parse([]string{"write", "n=10", "-node", "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	cc := (&stressRun{s: s}).cluster("keyspace1")
	if cc.WriteCoalesceWaitTime != 0 {
		t.Errorf("WriteCoalesceWaitTime = %v, want 0", cc.WriteCoalesceWaitTime)
	}
	if _, ok := cc.Dialer.(*gatherconn.Dialer); !ok {
		t.Errorf("Dialer = %T, want *gatherconn.Dialer", cc.Dialer)
	}
}
