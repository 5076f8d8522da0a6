package pebble

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"

	"github.com/goycsb/ycsb/db/internal/kv/kvtest"
)

var open = kvtest.Registered("pebble", "pebble")

func TestMain(m *testing.M) { kvtest.Main(m, open) }

func TestEngine(t *testing.T) { kvtest.Run(t, "pebble", "rocksdb", open) }

func BenchmarkOps(b *testing.B) { kvtest.Bench(b, open) }

// Pebble charges memtables to its block cache, which the binding sizes at
// cachesize + 2 x memtablesize; idle memtable room must not become extra
// block room, or a read-only run would cache up to three times what
// engine.cachesize gives RocksDB.
func TestBlocksGetCacheSizeWhateverTheMemtablesUse(t *testing.T) {
	const cacheSize = 8 << 20
	dir := t.TempDir()
	p := props.FromMap(map[string]string{"engine.dir": dir,
		"engine.cachesize": "8MiB", "engine.memtablesize": "4MiB", "engine.compression": "none"})
	value := []db.Field{{Name: "field0", Value: bytes.Repeat([]byte("v"), 1000)}}
	d, err := open(context.Background(), p, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := d.Session(context.Background(), 0, 1)
	const n = 30000 // 30MB of values: more than the whole cache
	for i := 0; i < n; i++ {
		if err := ss.Insert(context.Background(), "usertable", fmt.Sprintf("user%06d", i), value); err != nil {
			t.Fatal(err)
		}
	}
	ss.Close(context.Background())
	d.(*DB).Flush()
	d.Close()

	d, err = open(context.Background(), p, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ss, _ = d.Session(context.Background(), 0, 1)
	defer ss.Close(context.Background())
	var r db.Record
	for i := 0; i < n; i++ {
		r.Reset()
		if err := ss.Read(context.Background(), "usertable", fmt.Sprintf("user%06d", i), nil, &r); err != nil {
			t.Fatal(err)
		}
	}
	m := d.(*DB).Engine().Metrics()
	t.Logf("blocks %d bytes, memtables %d bytes", m.BlockCache.Size, m.MemTable.Size)
	if m.BlockCache.Size > cacheSize*105/100 {
		t.Errorf("blocks take %d bytes of the cache with memtables of %d bytes; want at most engine.cachesize (%d)",
			m.BlockCache.Size, m.MemTable.Size, cacheSize)
	}
	if m.BlockCache.Size < cacheSize*80/100 {
		t.Errorf("blocks take %d bytes of the cache; want close to engine.cachesize (%d)", m.BlockCache.Size, cacheSize)
	}
}
