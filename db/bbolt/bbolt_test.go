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

// What means nothing to a B+tree, or is not supported, is refused.
func TestRefusals(t *testing.T) {
	kvtest.Refusals(t, open, [][3]string{
		{"engine.cachesize", "64MiB", "does not apply to bbolt"},
		{"engine.memtablesize", "64MiB", "does not apply to bbolt"},
		{"engine.compression", "none", "does not apply to bbolt"},
		{"engine.blocksize", "3000", "a power of two"},
		{"engine.blocksize", "128KiB", "a power of two"},
		{"bolt.read_only", "true", "a benchmark writes"},
		{"bolt.freelist_type", "list", "array"},
	})
}
