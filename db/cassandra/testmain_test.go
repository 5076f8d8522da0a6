package cassandra

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// longTests is how many of the package's parallel tests run at once unless
// -parallel says otherwise: its long tests (TestOwnNode,
// TestClusterFaultSchedule, the routing tests, one at a time) mostly wait
// on servers of their own or on paced runs, and GOMAXPROCS (the default)
// would run two of the three at once on a 2-core machine.
const longTests = 3

// TestMain builds cmd/ycsb once for the package's tests (ycsbtest.Binary)
// and runs the long tests side by side.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", fmt.Sprint(longTests)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	ycsbtest.Main(m)
}
