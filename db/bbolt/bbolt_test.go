package bbolt

import (
	"testing"

	"github.com/goycsb/ycsb/db/internal/kv/kvtest"
)

var open = kvtest.Registered("bbolt", "bbolt")

func TestMain(m *testing.M) { kvtest.Main(m, open) }

func TestEngine(t *testing.T) {
	kvtest.RunStore(t, "bbolt", "pebble", open, "PageSize", "FreePages", "FreelistBytes", "LeafPages", "BranchPages", "TreeDepth", "PagesAllocated")
}

func BenchmarkOps(b *testing.B) { kvtest.Bench(b, open) }
