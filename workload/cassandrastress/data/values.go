package data

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unsafe"

	"github.com/goycsb/ycsb/internal/cql/murmur3"
)

// The value generators of the user command: generate/values/*.java in
// scylladb/cassandra-stress, one per CQL type, as StressProfile's
// ColumnInfo.getGenerator picks them. Each value is appended to a buffer in
// the CQL native protocol's serialization, so it binds as is.

// CQLType is a column type as system_schema.columns spells it: a name and,
// for list<T> and set<T>, the element type.
type CQLType struct {
	Name   string // lower case: text, int, list, ...
	Elem   *CQLType
	Frozen bool
}

func (t CQLType) String() string {
	s := t.Name
	if t.Elem != nil {
		s += "<" + t.Elem.String() + ">"
	}
	if t.Frozen {
		s = "frozen<" + s + ">"
	}
	return s
}

// ParseCQLType parses "text", "list<int>", "frozen<set<text>>".
func ParseCQLType(s string) (CQLType, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if in, ok := strings.CutPrefix(s, "frozen<"); ok && strings.HasSuffix(in, ">") {
		t, err := ParseCQLType(in[:len(in)-1])
		t.Frozen = true
		return t, err
	}
	if i := strings.IndexByte(s, '<'); i >= 0 && strings.HasSuffix(s, ">") {
		name := s[:i]
		if name != "list" && name != "set" {
			return CQLType{}, fmt.Errorf("type %s is not supported (the original generates list<T> and set<T> only)", s)
		}
		e, err := ParseCQLType(s[i+1 : len(s)-1])
		if err != nil {
			return CQLType{}, err
		}
		if e.Elem != nil {
			return CQLType{}, fmt.Errorf("type %s is not supported (nested collection)", s)
		}
		return CQLType{Name: name, Elem: &e}, nil
	}
	if k, ok := genKinds[s]; !ok {
		return CQLType{}, fmt.Errorf("type %s is not supported", s)
	} else if k == gSets || k == gLists {
		return CQLType{}, fmt.Errorf("type %s needs its element type, e.g. %s<text>", s, s)
	}
	return CQLType{Name: s}, nil
}

type genKind uint8

const (
	gStrings genKind = iota
	gLongs
	gBytes
	gBooleans
	gDecimals
	gDoubles
	gFloats
	gInets
	gIntegers
	gVarints
	gDates
	gUUIDs
	gTimeUUIDs
	gTinyInts
	gSmallInts
	gTimes
	gLocalDates
	gSets
	gLists
)

var genKinds = map[string]genKind{
	"ascii": gStrings, "text": gStrings, "varchar": gStrings,
	"bigint": gLongs, "counter": gLongs, "blob": gBytes, "boolean": gBooleans,
	"decimal": gDecimals, "double": gDoubles, "float": gFloats, "inet": gInets,
	"int": gIntegers, "varint": gVarints, "timestamp": gDates, "uuid": gUUIDs,
	"timeuuid": gTimeUUIDs, "tinyint": gTinyInts, "smallint": gSmallInts,
	"time": gTimes, "date": gLocalDates, "set": gSets, "list": gLists,
}

// Defaults of Generator.java, and Dates.java's identity: 50 years of ms.
var (
	defaultSize      = MustParseDist("uniform(4..8)")
	defaultCluster   = MustParseDist("fixed(1)")
	defaultDateRange = MustParseDist("uniform(1..1576800000000)")
)

// seedForStress is StressProfile's seedStr, which, with the column's name
// appended, is hashed into the generator's salt (GeneratorConfig).
const seedForStress = "seed for stress"

// GeneratorSalt is the salt of the named column's generator.
func GeneratorSalt(column string) int64 {
	return murmur3.Hash([]byte(seedForStress + column))
}

// Generator makes one column's values, deterministically from the seed
// set last. Not safe for concurrent use: each worker has its own.
type Generator struct {
	Name     string
	Type     CQLType
	kind     genKind
	salt     int64
	identity Seeded
	size     Seeded
	cluster  Seeded
	// sizeSeq counts the draws of an unseeded size distribution (lists and
	// sets: the original never reseeds theirs).
	elem *Generator
	fr   fasterRandom
	set  [][]byte // a set's distinct elements
	// setIdx indexes set once it is large (indexed), so that a set of n
	// elements costs n lookups, not n²/2 comparisons. Its keys alias the
	// value being generated, so it is cleared, and kept, for each value.
	setIdx  map[string]struct{}
	indexed bool
}

// NewGenerator makes the generator of a column; size, population and
// cluster are its columnspec (nil: the type's default).
func NewGenerator(name string, t CQLType, size, population, cluster *Dist) (*Generator, error) {
	k, ok := genKinds[t.Name]
	if !ok {
		return nil, fmt.Errorf("column %s: type %s is not supported", name, t)
	}
	g := &Generator{Name: name, Type: t, kind: k, salt: GeneratorSalt(name)}
	if size == nil {
		size = defaultSize
	}
	if cluster == nil {
		cluster = defaultCluster
	}
	id := population
	if id == nil {
		id = identity
		if k == gDates || k == gTimeUUIDs {
			id = defaultDateRange
		}
	}
	g.identity, g.size, g.cluster = id.Seeded(), size.Seeded(), cluster.Seeded()
	if k == gSets || k == gLists {
		// Unseeded in the original; a fixed start here.
		g.size.SetSeed(g.salt)
		e, err := NewGenerator(name, *t.Elem, size, population, cluster)
		if err != nil {
			return nil, err
		}
		g.elem = e
	}
	return g, nil
}

// Clustering is the column's cluster distribution.
func (g *Generator) Clustering() *Dist { return g.cluster.d }

// SetSeed is Generator.setSeed: the identity distribution gets seed^salt
// and the cluster distribution seed^~salt. TimeUUIDs reseeds only its date
// generator; Lists and Sets also reseed the element's with seed*31.
func (g *Generator) SetSeed(seed int64) {
	g.identity.SetSeed(seed ^ g.salt)
	if g.kind != gTimeUUIDs {
		g.cluster.SetSeed(seed ^ ^g.salt)
	}
	if g.elem != nil {
		g.elem.SetSeed(seed * 31)
	}
}

// NextCluster draws the number of values of a clustering column.
func (g *Generator) NextCluster() int64 { return g.cluster.Next() }

// NextDouble is Distribution.nextDouble on the seeded generator.
func (s *Seeded) NextDouble() float64 {
	v := s.d.sampleFloat(source{j: &s.r}, nil, &s.seq)
	if s.d.inverted {
		return float64(s.d.wmax) - (v - float64(s.d.wmin))
	}
	return v
}

func appendU32(dst []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(dst, v) }
func appendU64(dst []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(dst, v) }

// appendVarint appends v as CQL's varint: minimal big-endian two's complement.
func appendVarint(dst []byte, v int64) []byte {
	n := 8
	for n > 1 {
		top := byte(v >> (8 * (n - 1)))
		next := byte(v >> (8 * (n - 2)))
		if top == 0 && next&0x80 == 0 || top == 0xff && next&0x80 != 0 {
			n--
			continue
		}
		break
	}
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, byte(v>>(8*i)))
	}
	return dst
}

// Append appends the next value, serialized.
func (g *Generator) Append(dst []byte) []byte {
	switch g.kind {
	case gStrings, gBytes:
		seed := g.identity.Next()
		sz := g.size.d.Seeded()
		sz.SetSeed(seed)
		g.fr.setSeed(^seed)
		n := int(sz.Next())
		for i := 0; i < n; {
			v := g.fr.nextLong()
			for k := min(n-i, 8); k > 0; k-- {
				if g.kind == gStrings {
					dst = append(dst, byte(((v&127)+32)&127))
				} else {
					dst = append(dst, byte(v))
				}
				v >>= 8
				i++
			}
		}
		return dst
	case gLongs, gTimes, gDates:
		return appendU64(dst, uint64(g.identity.Next()))
	case gBooleans:
		g.identity.Next()
		return append(dst, 1) // next() % 1 == 0: always true, as in the original
	case gDecimals:
		return appendVarint(appendU32(dst, 0), g.identity.Next())
	case gVarints:
		return appendVarint(dst, g.identity.Next())
	case gDoubles:
		return appendU64(dst, math.Float64bits(g.identity.NextDouble()))
	case gFloats:
		return appendU32(dst, math.Float32bits(float32(g.identity.NextDouble())))
	case gInets, gIntegers:
		return appendU32(dst, uint32(int32(g.identity.Next())))
	case gLocalDates:
		// LocalDate.fromDaysSinceEpoch: days, centred on 2^31.
		return appendU32(dst, uint32(int32(g.identity.Next()))+1<<31)
	case gUUIDs:
		s := uint64(g.identity.Next())
		return appendU64(appendU64(dst, s), s)
	case gTimeUUIDs:
		return appendU64(appendU64(dst, timeUUIDMSB(g.identity.Next())), uint64(g.salt))
	case gTinyInts:
		return append(dst, byte(g.identity.Next()))
	case gSmallInts:
		return binary.BigEndian.AppendUint16(dst, uint16(g.identity.Next()))
	case gLists, gSets:
		n := int(g.size.Next())
		start := len(dst)
		dst = appendU32(dst, 0)
		count := 0
		g.set = g.set[:0]
		clear(g.setIdx)
		g.indexed = false
		for i := 0; i < n; i++ {
			at := len(dst)
			dst = appendU32(dst, 0)
			dst = g.elem.Append(dst)
			el := dst[at+4:]
			if g.kind == gSets && g.seen(el) {
				dst = dst[:at]
				continue
			}
			binary.BigEndian.PutUint32(dst[at:], uint32(len(el)))
			if g.kind == gSets {
				g.set = append(g.set, el)
			}
			count++
		}
		binary.BigEndian.PutUint32(dst[start:], uint32(count))
		return dst
	}
	return dst
}

func (g *Generator) seen(el []byte) bool {
	if !g.indexed {
		for _, s := range g.set {
			if string(s) == string(el) {
				return true
			}
		}
		if len(g.set) < 32 {
			return false
		}
		if g.setIdx == nil {
			g.setIdx = make(map[string]struct{}, 2*len(g.set))
		}
		for _, s := range g.set {
			g.setIdx[aliasString(s)] = struct{}{}
		}
		g.setIdx[aliasString(el)] = struct{}{}
		g.indexed = true
		return false
	}
	if _, ok := g.setIdx[string(el)]; ok {
		return true
	}
	g.setIdx[aliasString(el)] = struct{}{}
	return false
}

// aliasString is b as a string without a copy: b must not change while
// the string is in use (a set's elements, while its value is generated).
func aliasString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// MaxBytes is the most bytes one serialized value of g takes: a text or
// blob's size, a collection's element count times its elements' (each
// with its length), or the type's fixed width.
func (g *Generator) MaxBytes() int64 {
	switch g.kind {
	case gStrings, gBytes:
		return g.size.d.Most()
	case gLongs, gTimes, gDates, gDoubles, gVarints:
		return 8
	case gDecimals:
		return 4 + 8
	case gFloats, gInets, gIntegers, gLocalDates:
		return 4
	case gUUIDs, gTimeUUIDs:
		return 16
	case gSmallInts:
		return 2
	case gBooleans, gTinyInts:
		return 1
	case gLists, gSets:
		return satAdd(4, satMul(max(g.size.d.Most(), 0), satAdd(4, g.elem.MaxBytes())))
	}
	return 0
}

// satAdd and satMul are a+b and a*b of non-negative numbers, at most
// math.MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// timeUUIDMSB is the high half of UUIDGen.getTimeUUID(ms, 0, ...): a
// version 1 UUID's timestamp, in 100ns since 1582-10-15.
func timeUUIDMSB(ms int64) uint64 {
	t := uint64((ms + 12219292800000) * 10000)
	var msb uint64
	msb |= (0x00000000ffffffff & t) << 32
	msb |= (0x0000ffff00000000 & t) >> 16
	msb |= (0xffff000000000000 & t) >> 48
	return msb | 0x1000
}

// Seed is PartitionIterator.seed: the seed a generated value passes on to
// the values below it (the next key column, the clustering levels, the
// row's values), from its serialized form v.
func (g *Generator) Seed(parent int64, v []byte) int64 {
	switch g.kind {
	case gStrings, gBytes:
		for _, b := range v {
			parent = 31*parent + int64(int8(b))
		}
		return parent
	case gLongs, gTimes:
		return parent*31 + int64(binary.BigEndian.Uint64(v))
	case gIntegers:
		return parent*31 + int64(int32(binary.BigEndian.Uint32(v)))
	case gLocalDates:
		return parent*31 + int64(int32(binary.BigEndian.Uint32(v)-1<<31))
	case gSmallInts:
		return parent*31 + int64(int16(binary.BigEndian.Uint16(v)))
	case gTinyInts:
		return parent*31 + int64(int8(v[0]))
	case gVarints, gDecimals:
		if g.kind == gDecimals {
			v = v[4:]
		}
		var x int64
		if len(v) > 0 && v[0]&0x80 != 0 {
			x = -1
		}
		for _, b := range v {
			x = x<<8 | int64(b)
		}
		return parent*31 + x
	case gDoubles:
		return parent*31 + javaLong(math.Float64frombits(binary.BigEndian.Uint64(v)))
	case gFloats:
		return parent*31 + javaLong(float64(math.Float32frombits(binary.BigEndian.Uint32(v))))
	case gUUIDs, gTimeUUIDs:
		return parent*31 + int64(binary.BigEndian.Uint64(v)^binary.BigEndian.Uint64(v[8:]))
	}
	// Booleans, Inets, Dates and collections: over the serialized bytes.
	for _, b := range v {
		parent = 31*parent + int64(int8(b))
	}
	return parent
}

// average is Distribution.average: the mean of inverseCumProb at 0, 0.02,
// ... stepped in float as the original steps it.
func average(d *Dist) int64 {
	var sum float64
	count := 0
	for f := float32(0); float64(f) <= 1.0; f = float32(float64(f) + 0.02) {
		sum += float64(d.InverseCumProb(float64(f)))
		count++
	}
	return javaLong(sum / float64(count))
}
