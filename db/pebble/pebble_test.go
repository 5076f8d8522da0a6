package pebble

import (
	"testing"

	"github.com/goycsb/ycsb/db/internal/engine/enginetest"
)

var open = enginetest.Registered("pebble", "pebble")

func TestMain(m *testing.M) { enginetest.Main(m, open) }

func TestEngine(t *testing.T) { enginetest.Run(t, "pebble", "rocksdb", open) }

func BenchmarkOps(b *testing.B) { enginetest.Bench(b, open) }
