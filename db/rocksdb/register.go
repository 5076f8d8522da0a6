// Package rocksdb is the embedded RocksDB binding, through cgo and Debian's
// librocksdb-dev 7.8.3. It is built only with -tags rocksdb, so that a plain
// `go build` needs no C library; without the tag, the binding is still
// registered and its Open says how to get it.
//
// It reads the same engine-neutral engine.* properties as the pebble binding
// (db/internal/kv and docs/engines.md), with the same defaults, so that
// the two compare on equal terms. rocksdb.dir, the reference's name for the
// data directory, is read when engine.dir is absent. Engine-specific extras:
// rocksdb.level0filenumcompactiontrigger (RocksDB's default, 4) and
// rocksdb.maxbytesforlevelbase (RocksDB's default, 256MiB).
package rocksdb

import "github.com/goycsb/ycsb/db"

const name = "rocksdb"

func init() {
	summary := "embedded RocksDB engine (no server needed; data in engine.dir)"
	if !Built {
		summary = "embedded RocksDB engine (not in this binary: rebuild with -tags rocksdb)"
	}
	db.RegisterEmbedded(name, summary, db.DriverFunc(Open), "site.ycsb.db.rocksdb.RocksDBClient")
}
