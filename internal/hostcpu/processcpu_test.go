package hostcpu

import (
	"testing"
	"time"
)

// TestProcessCPUCounts: the process's CPU grows while it computes (what
// procs sizes the runtime by): a goroutine spins until the reading has
// grown by 50 ms, which a reading that stood still would never let it do.
// Another load on the machine only makes it take longer.
func TestProcessCPUCounts(t *testing.T) {
	start, ok := ProcessCPU()
	if !ok {
		t.Skip("the process's CPU cannot be read here")
	}
	for deadline := time.Now().Add(time.Minute); ; {
		cpu, ok := ProcessCPU()
		if !ok {
			t.Fatal("the process's CPU could be read, then not")
		}
		if cpu-start >= 50*time.Millisecond {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a minute of spinning counted %v of CPU", cpu-start)
		}
		for i := 0; i < 1e6; i++ { // some work between readings
			spin += i
		}
	}
}

var spin int
