package stress

import (
	"flag"
	"os"
	"testing"
)

// testParallel is how many parallel tests run at once unless -parallel is
// given: the tests against servers mostly wait (the real cassandra-stress
// sleeps 3 s in every run, nodes answer, a TLS node starts), so on two
// cores GOMAXPROCS of them at a time (go test's default) leaves the
// machine idle.
const testParallel = "4"

// TestMain drops the original's "Sleeping 2s..." before every run's work
// (pause) and the 15 s between a ramp's thread counts (rampPause) once for
// all the tests: set here, before any runs, they are not written while
// parallel tests read them.
func TestMain(m *testing.M) {
	pause = 0
	rampPause = 0
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", testParallel); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
