package ycsb

import (
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// TestMain builds cmd/ycsb once for the package's tests (ycsbtest.Binary)
// and lets their capacity searches run steps shorter than a user may
// (capacityBasic's capacity.steptime): they check the search, which a
// step of a few hundred operations shows as well as one of a second.
func TestMain(m *testing.M) {
	minStepTime = 250 * time.Millisecond
	ycsbtest.Main(m)
}
