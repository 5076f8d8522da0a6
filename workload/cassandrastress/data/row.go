package data

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"

	"github.com/goycsb/ycsb/internal/cql/murmur3"
)

// Defaults of the predefined commands (settings/SettingsCommandPreDefined.java
// and settings/SettingsColumn.java in scylladb/cassandra-stress).
const (
	DefaultKeySize     = 10          // keysize=
	DefaultColumnCount = "FIXED(5)"  // -col n=
	DefaultColumnSize  = "FIXED(34)" // -col size=
	DefaultCounterAdd  = "fixed(1)"  // add=
)

// identity is the original's default identity distribution, which every
// generator reseeds per value and draws its value seeds from.
var identity = MustParseDist("uniform(1..100B)")

// Salts: hash[0] of Cassandra's murmur3 of the generator's config string,
// "randomstrkey" for the key and "randomstr"+name for each column.
var keySalt = murmur3.Hash([]byte("randomstrkey"))

// ColumnSalt is the salt of the value generator of the named column.
func ColumnSalt(name string) int64 {
	b := make([]byte, 0, 9+len(name))
	return murmur3.Hash(append(append(b, "randomstr"...), name...))
}

// AppendKey appends the partition key the original writes for population
// index idx (the seed its SeedManager hands out: 1..n for -pop seq=1..n):
// size characters of the original's HexBytes generator. Its digits are 0-9
// and K-P, not A-F: the original adds the nibble to 'A' instead of
// nibble-10. The key is a blob holding those ASCII bytes.
func AppendKey(dst []byte, idx int64, size int) []byte {
	var r jrand
	r.setSeed(idx ^ keySalt)
	// The first draw seeds the size distribution, FIXED(keysize) here.
	identity.sample(source{j: &r}, nil, nil)
	for i := 0; i < size; i += 16 {
		v := identity.sample(source{j: &r}, nil, nil)
		for j := 0; j < 16 && i+j < size; j++ {
			n := byte(v & 15)
			if n < 10 {
				dst = append(dst, '0'+n)
			} else {
				dst = append(dst, 'A'+n)
			}
			v >>= 4
		}
	}
	return dst
}

// KeySeed is the seed the original derives from a partition key for its
// value columns (PartitionIterator.seed): s = 31*s + b over the signed bytes.
func KeySeed(key []byte) int64 {
	var s int64
	for _, b := range key {
		s = 31*s + int64(int8(b))
	}
	return s
}

// Columns are the value columns of standard1 (and the names of counter1's):
// their names in the order the original sorts them, and the cell size
// distribution shared by all of them.
type Columns struct {
	names []string
	salts []int64
	size  *Dist
	max   int
}

// ColumnNames are the original's default names for n columns, "C0".."C<n-1>",
// sorted bytewise as it sorts them (so C0, C1, C10, C11, ..., C2 for n > 10).
func ColumnNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = "C" + strconv.Itoa(i)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// NewColumns describes the value columns. count is the maximum of -col n=
// (the original creates and writes that many); names, if not nil, are
// -col names= instead, which the original also sorts bytewise. size is
// -col size=, nil for the default FIXED(34).
func NewColumns(count int, names []string, size *Dist) (*Columns, error) {
	if names == nil {
		names = ColumnNames(count)
	} else {
		names = append([]string(nil), names...)
		sort.Slice(names, func(i, j int) bool { return bytes.Compare([]byte(names[i]), []byte(names[j])) < 0 })
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no columns")
	}
	if size == nil {
		size = MustParseDist(DefaultColumnSize)
	}
	// Buffers are sized by the larger end: the original sizes them by
	// MaxValue alone, which for a ~ size is the minimum, and overruns.
	lo, hi := size.MinValue(), size.MaxValue()
	if lo < 0 || hi < 0 {
		return nil, fmt.Errorf("column size %s can be negative", size)
	}
	c := &Columns{names: names, salts: make([]int64, len(names)), size: size, max: int(max(lo, hi))}
	for i, n := range names {
		c.salts[i] = ColumnSalt(n)
	}
	return c, nil
}

// Names returns the column names in table order; do not modify.
func (c *Columns) Names() []string { return c.names }

// MaxSize is the largest value AppendValue can produce.
func (c *Columns) MaxSize() int { return c.max }

// AppendValue appends the value of column col for the partition whose key
// has KeySeed keySeed, exactly as the original's Bytes generator makes it:
// the identity distribution reseeded with keySeed^salt gives a value seed,
// which seeds the size distribution and, complemented, a FasterRandom whose
// longs fill the cell little-endian.
func (c *Columns) AppendValue(dst []byte, col int, keySeed int64) []byte {
	var r jrand
	r.setSeed(keySeed ^ c.salts[col])
	seed := identity.sample(source{j: &r}, nil, nil)
	sz := c.size.Seeded()
	sz.SetSeed(seed)
	var f fasterRandom
	f.setSeed(^seed)
	n := int(sz.Next())
	for i := 0; i < n; {
		v := f.nextLong()
		for k := min(n-i, 8); k > 0; k-- {
			dst = append(dst, byte(v))
			v >>= 8
			i++
		}
	}
	return dst
}

// Row generates one partition at a time into buffers it keeps, so a worker
// allocates nothing per operation once they have grown. Not safe for
// concurrent use: make one per worker.
type Row struct {
	cols    *Columns
	keySize int
	key     []byte
	buf     []byte
	values  [][]byte
}

// NewRow returns a generator of keys of keySize bytes and values of cols.
func NewRow(keySize int, cols *Columns) *Row {
	return &Row{
		cols:    cols,
		keySize: keySize,
		key:     make([]byte, 0, keySize),
		buf:     make([]byte, 0, len(cols.names)*cols.max),
		values:  make([][]byte, len(cols.names)),
	}
}

// Key returns the key of population index idx; valid until the next call.
func (g *Row) Key(idx int64) []byte {
	g.key = AppendKey(g.key[:0], idx, g.keySize)
	return g.key
}

// Generate returns the key and every column value of population index idx,
// in the order of Columns.Names; valid until the next call.
func (g *Row) Generate(idx int64) (key []byte, values [][]byte) {
	key = g.Key(idx)
	seed := KeySeed(key)
	g.buf = g.buf[:0]
	for i := range g.values {
		start := len(g.buf)
		g.buf = g.cols.AppendValue(g.buf, i, seed)
		g.values[i] = g.buf[start:len(g.buf):len(g.buf)]
	}
	return key, g.values
}
