package mysql

import (
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// TestMain builds cmd/ycsb once for the package's tests (ycsbtest.Binary).
func TestMain(m *testing.M) { ycsbtest.Main(m) }
