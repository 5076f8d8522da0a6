package stress

import (
	"os"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// testParallel is how many parallel tests run at once unless -parallel is
// given: the tests against servers mostly wait (the real cassandra-stress
// sleeps 3 s in every run, nodes answer, a TLS node starts), so on two
// cores GOMAXPROCS of them at a time (go test's default) leaves the
// machine idle.
const testParallel = 4

// TestMain drops the original's "Sleeping 2s..." before every run's work
// (pause) and the 15 s between a ramp's thread counts (rampPause) once for
// all the tests: set here, before any runs, they are not written while
// parallel tests read them.
func TestMain(m *testing.M) {
	pause = 0
	rampPause = 0
	ycsbtest.WaitingParallel(testParallel)
	os.Exit(m.Run())
}
