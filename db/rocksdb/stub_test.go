//go:build !rocksdb

package rocksdb

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

func TestStubSaysHowToBuild(t *testing.T) {
	for _, n := range []string{"rocksdb", "site.ycsb.db.rocksdb.RocksDBClient"} {
		d, name, err := db.Lookup(n)
		if err != nil || name != "rocksdb" {
			t.Fatalf("lookup %s: %v %q", n, err, name)
		}
		_, err = d.Open(context.Background(), props.New(), io.Discard)
		if !errors.Is(err, ErrNotBuilt) {
			t.Fatalf("Open without the tag: %v", err)
		}
	}
}
