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
