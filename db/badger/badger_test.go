package badger

import (
	"testing"

	"github.com/goycsb/ycsb/db/internal/kv/kvtest"
)

var open = kvtest.Registered("badger", "badger")

func TestMain(m *testing.M) { kvtest.Main(m, open) }

func TestEngine(t *testing.T) {
	kvtest.RunStore(t, "badger", "pebble", open, "LSMBytes", "ValueLogBytes", "Tables", "L0Tables", "BlockCacheHits", "BlockCacheMisses", "UpdateConflictRetries")
}

// Badger takes a false positive rate for its filters, not bits a key.
func TestBloomFalsePositive(t *testing.T) {
	for _, c := range []struct {
		bits   int
		lo, hi float64
	}{{0, 0, 0}, {10, 0.0081, 0.0083}, {5, 0.09, 0.091}} {
		if got := bloomFalsePositive(c.bits); got < c.lo || got > c.hi {
			t.Errorf("bloomFalsePositive(%d) = %v, want in [%v, %v]", c.bits, got, c.lo, c.hi)
		}
	}
}

func BenchmarkOps(b *testing.B) { kvtest.Bench(b, open) }

// What Badger does not have, or refuses, is refused before it opens.
func TestRefusals(t *testing.T) {
	kvtest.Refusals(t, open, [][3]string{
		{"engine.maxopenfiles", "100", "does not apply to badger"},
		{"engine.compactionthreads", "1", "at least 2"},
		{"badger.num_compactors", "1", "at least 2"},
		{"badger.valuedir", "/tmp/x", "does not apply to badger"},
		{"badger.value_threshold", "2MiB", "at most 1MiB"},
	})
}
