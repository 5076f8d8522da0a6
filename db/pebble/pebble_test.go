package pebble

import (
	"context"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/engine/enginetest"
	"github.com/goycsb/ycsb/props"
)

func open(ctx context.Context, p *props.Properties) (db.DB, error) {
	d, name, err := db.Lookup("pebble")
	if err != nil || name != "pebble" {
		panic("pebble is not registered")
	}
	return d.Open(ctx, p)
}

func TestMain(m *testing.M) { enginetest.Main(m, open) }

func TestEngine(t *testing.T) { enginetest.Run(t, "pebble", "rocksdb", open) }

func BenchmarkOps(b *testing.B) { enginetest.Bench(b, open) }
