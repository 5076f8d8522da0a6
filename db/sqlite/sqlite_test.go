package sqlite

import (
	"testing"

	"github.com/goycsb/ycsb/db/internal/kv/kvtest"
)

var open = kvtest.Registered("sqlite", "sqlite")

func TestMain(m *testing.M) { kvtest.Main(m, open) }

func TestEngine(t *testing.T) {
	kvtest.RunStore(t, "sqlite", "pebble", open, "PageSize", "PageCount", "FreelistPages", "WALBytes", "PageCacheHits", "PageCacheMisses")
}

func BenchmarkOps(b *testing.B) { kvtest.Bench(b, open) }

// What means nothing to SQLite, or would lose acknowledged writes, is
// refused.
func TestRefusals(t *testing.T) {
	kvtest.Refusals(t, open, [][3]string{
		{"engine.memtablesize", "64MiB", "does not apply to sqlite"},
		{"engine.compactionthreads", "2", "does not apply to sqlite"},
		{"sqlite.journalmode", "off", "lose acknowledged writes"},
		{"sqlite.journalmode", "memory", "lose acknowledged writes"},
		{"engine.blocksize", "3000", "a power of two"},
		{"table", "user table", "letters, digits"},
		{"fieldcount", "5000", "between 1 and 1000"},
	})
}
