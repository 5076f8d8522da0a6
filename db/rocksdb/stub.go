//go:build !rocksdb

package rocksdb

import (
	"context"
	"errors"
	"io"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

// Built says whether this binary has RocksDB support.
const Built = false

// ErrNotBuilt is what Open returns in a binary built without the tag.
var ErrNotBuilt = errors.New("rocksdb: this binary was built without RocksDB support; rebuild with -tags rocksdb (needs librocksdb-dev)")

// Open fails: this binary has no RocksDB.
func Open(context.Context, *props.Properties, io.Writer) (db.DB, error) { return nil, ErrNotBuilt }
