package stress

import (
	"sync/atomic"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/cql/cqlcompress"
)

// usedCompressor is -mode compression='s compressor, which notes that it
// compressed something: the driver drops a compressor the node does not
// offer (and then sends plain frames) without telling, and -mode
// compression= must not be accepted and unused.
type usedCompressor struct {
	gocql.Compressor
	used atomic.Bool
}

func (c *usedCompressor) mark() {
	if !c.used.Load() {
		c.used.Store(true)
	}
}

func (c *usedCompressor) AppendCompressedWithLength(dst, src []byte) ([]byte, error) {
	c.mark()
	return c.Compressor.AppendCompressedWithLength(dst, src)
}

func (c *usedCompressor) AppendCompressed(dst, src []byte) ([]byte, error) {
	c.mark()
	return c.Compressor.AppendCompressed(dst, src)
}

// newCompressor is the compressor (internal/cql/cqlcompress) of -mode compression=, or nil.
func newCompressor(c settings.Compression) *usedCompressor {
	switch c {
	case settings.CompressionLZ4:
		return &usedCompressor{Compressor: cqlcompress.LZ4{}}
	case settings.CompressionSnappy:
		return &usedCompressor{Compressor: cqlcompress.Snappy{}}
	}
	return nil
}
