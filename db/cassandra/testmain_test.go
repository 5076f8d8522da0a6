package cassandra

import (
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// longTests is how many of the package's parallel tests run at once unless
// -parallel says otherwise: all of its long tests (TestOwnNode,
// TestClusterFaultSchedule, TestClusterRoutingCQL and
// TestClusterRoutingStress), which mostly wait on servers of their own or
// on paced runs. GOMAXPROCS, the default, would run two at once on a 2-core
// machine; and with fewer than all of them, a routing test waiting for the
// other (routingMu) would hold the place of the one left out.
const longTests = 4

// TestMain builds cmd/ycsb once for the package's tests (ycsbtest.Binary)
// and runs the long tests side by side.
func TestMain(m *testing.M) {
	ycsbtest.WaitingParallel(longTests)
	ycsbtest.Main(m)
}

// exitInterrupted is cli.ExitInterrupted, the exit code of a run stopped by
// a signal: these tests run the binary, and cli imports the stress mode,
// which imports this package.
const exitInterrupted = 130
