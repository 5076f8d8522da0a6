//go:build rocksdb

package rocksdb

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/linxGnu/grocksdb"

	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/props"
)

// indexBlocksRead writes keys with the binding's options for p into one
// table, reopens it with a cold cache, reads 200 keys spread over it and
// returns the index blocks the reads put in the cache: one with RocksDB's
// default (one index block a table), one a partition touched with a
// two-level index.
func indexBlocksRead(t *testing.T, p map[string]string) int {
	t.Helper()
	c, err := kv.ParseConfig("rocksdb", props.FromMap(map[string]string{"engine.blocksize": "256"}))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The options are left to the process: the binding's own close
	// releases them in an order of its own.
	open := func() (*grocksdb.DB, *grocksdb.Options) {
		o, _, _, err := options(&c, props.FromMap(p))
		if err != nil {
			t.Fatal(err)
		}
		db, err := grocksdb.OpenDb(o, dir)
		if err != nil {
			t.Fatal(err)
		}
		return db, o
	}
	const keys = 5000
	db, _ := open()
	wo := grocksdb.NewDefaultWriteOptions()
	for i := range keys {
		if err := db.Put(wo, fmt.Appendf(nil, "user%010d", i), []byte(strings.Repeat("v", 100))); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(grocksdb.NewDefaultFlushOptions()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, o := open()
	defer db.Close()
	ro := grocksdb.NewDefaultReadOptions()
	for i := 0; i < keys; i += keys / 200 {
		v, err := db.GetPinned(ro, fmt.Appendf(nil, "user%010d", i))
		if err != nil || !v.Exists() {
			t.Fatalf("key %d: %v", i, err)
		}
		v.Destroy()
	}
	m := regexp.MustCompile(`rocksdb.block.cache.index.add COUNT : (\d+)`).FindStringSubmatch(o.GetStatisticsString())
	if m == nil {
		t.Fatal("no rocksdb.block.cache.index.add in the statistics")
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// The index is in partitions of the block size, as Pebble's is, unless
// rocksdb.indextype=binary asks for RocksDB's default; another value is
// refused naming the property.
func TestIndexType(t *testing.T) {
	if n := indexBlocksRead(t, nil); n < 20 {
		t.Errorf("default: 200 reads put %d index blocks in the cache, want one a partition touched (a two-level index)", n)
	}
	if n := indexBlocksRead(t, map[string]string{"rocksdb.indextype": "binary"}); n != 1 {
		t.Errorf("rocksdb.indextype=binary: 200 reads put %d index blocks in the cache, want the table's one", n)
	}
	c, _ := kv.ParseConfig("rocksdb", props.New())
	if _, _, _, err := options(&c, props.FromMap(map[string]string{"rocksdb.indextype": "hash"})); err == nil || !strings.Contains(err.Error(), "rocksdb.indextype") {
		t.Errorf("rocksdb.indextype=hash: %v, want an error naming the property", err)
	}
}
