package data

import (
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

func textGen(t *testing.T, cluster ...string) *PartitionGen {
	t.Helper()
	text := CQLType{Name: "text"}
	k, _ := NewGenerator("k", text, nil, nil, nil)
	var cks []*Generator
	for i, c := range cluster {
		g, err := NewGenerator("c"+string(rune('1'+i)), text, nil, nil, MustParseDist(c))
		if err != nil {
			t.Fatal(err)
		}
		cks = append(cks, g)
	}
	v, _ := NewGenerator("v", text, nil, nil, nil)
	return NewPartitionGen([]*Generator{k}, cks, []*Generator{v})
}

func level(p *Partition, d int) []string {
	var out []string
	for _, v := range p.levels[d] {
		out = append(out, string(v))
	}
	return out
}

// TestShuffled: contents=shuffled orders a level's values by a random
// seeded from the generator's ShuffleSeed and the level's seed: a
// permutation of the generation order, the same for the same seeds (every
// visit of a run), another for another ShuffleSeed.
func TestShuffled(t *testing.T) {
	plain, a, b, other := textGen(t, "fixed(8)"), textGen(t, "fixed(8)"), textGen(t, "fixed(8)"), textGen(t, "fixed(8)")
	for _, g := range []*PartitionGen{a, b, other} {
		g.Shuffled, g.ShuffleSeed = true, 42
	}
	other.ShuffleSeed = 43
	pp, pa, pb, po := NewPartition(plain), NewPartition(a), NewPartition(b), NewPartition(other)
	moved, differs := false, false
	for seed := int64(1); seed <= 20; seed++ {
		for _, p := range []*Partition{pp, pa, pb, po} {
			p.Reset(seed)
		}
		gen, sa, sb, so := level(pp, 0), level(pa, 0), level(pb, 0), level(po, 0)
		if !slices.Equal(sa, sb) {
			t.Fatalf("seed %d: the same seeds shuffle %v and %v", seed, sa, sb)
		}
		sorted := func(s []string) []string { s = slices.Clone(s); sort.Strings(s); return s }
		if !slices.Equal(sorted(sa), sorted(gen)) {
			t.Fatalf("seed %d: %v is not a permutation of %v", seed, sa, gen)
		}
		moved = moved || !slices.Equal(sa, gen)
		differs = differs || !slices.Equal(sa, so)
	}
	if !moved || !differs {
		t.Errorf("shuffled: moved %v, differs with another seed %v", moved, differs)
	}
	// a partition visited again comes out the same
	pa.Reset(3)
	first := level(pa, 0)
	pa.Reset(4)
	pa.Reset(3)
	if !slices.Equal(level(pa, 0), first) {
		t.Errorf("partition 3 again: %v, then %v", first, level(pa, 0))
	}
}

// TestBounds: the validate op's rows between two random positions of the
// first d levels, both included, in sorted order (from the lower's first
// row to the upper's first row for a prefix), without their values as the
// original's; depth 0 is every row, with its values.
func TestBounds(t *testing.T) {
	g := textGen(t, "fixed(3)", "fixed(4)")
	g.Sorted = true
	p := NewPartition(g)
	all := NewPartition(g)
	r := rand.New(rand.NewPCG(7, 8))
	type ck [2]string
	for seed := int64(1); seed <= 30; seed++ {
		all.Reset(seed)
		all.Select(r, 1, 1, 0)
		var rows []ck
		for _, row := range all.Rows {
			rows = append(rows, ck{string(row.CK[0]), string(row.CK[1])})
		}
		if len(rows) != 12 || !slices.IsSortedFunc(rows, func(a, b ck) int {
			if a[0] != b[0] {
				return strings.Compare(a[0], b[0])
			}
			return strings.Compare(a[1], b[1])
		}) {
			t.Fatalf("seed %d: %v", seed, rows)
		}
		p.Reset(seed)
		if lo, hi := p.Bounds(r, 0); lo != nil || hi != nil || len(p.Rows) != 12 || p.Rows[0].Vals[0] == nil {
			t.Fatalf("depth 0: %v %v, %d rows, values %q", lo, hi, len(p.Rows), p.Rows[0].Vals)
		}
		for depth := 1; depth <= 2; depth++ {
			p.Reset(seed)
			lo, hi := p.Bounds(r, depth)
			if len(lo) != depth || len(hi) != depth {
				t.Fatalf("depth %d: bounds %q %q", depth, lo, hi)
			}
			at := func(b [][]byte) int {
				return slices.IndexFunc(rows, func(c ck) bool { return c[0] == string(b[0]) && (len(b) == 1 || c[1] == string(b[1])) })
			}
			from, to := at(lo), at(hi)
			if from < 0 || to < from {
				t.Fatalf("seed %d depth %d: bounds %q..%q at %d..%d", seed, depth, lo, hi, from, to)
			}
			var got []ck
			for _, row := range p.Rows {
				got = append(got, ck{string(row.CK[0]), string(row.CK[1])})
				if row.Vals[0] != nil {
					t.Fatalf("depth %d: a value generated (the original's iterator has a row population of 0 there)", depth)
				}
			}
			if want := rows[from : to+1]; !slices.Equal(got, want) {
				t.Errorf("seed %d depth %d bounds %q..%q: rows %v, want %v", seed, depth, lo, hi, got, want)
			}
		}
	}
}

// TestSeedManagerLookback: with read-lookback= the queries' seeds look
// back over those written (counted at an insert's first write), and
// revisits of one-row partitions keep them in the pool.
func TestSeedManagerLookback(t *testing.T) {
	pop, err := SeqPopulationLookback(1, 100, true, MustParseDist("fixed(2)"))
	if err != nil {
		t.Fatal(err)
	}
	sm := NewSeedManager(pop, mustSpec(t, "fixed(1)"), mustSpec(t, "uniform(1..1000000)"))
	r := rand.New(rand.NewPCG(1, 2))
	for i := int64(1); i <= 5; i++ {
		s := sm.Next(r, true)
		sm.Done(s, true, true)
	}
	if idx, _, ok := sm.NextRead(r); !ok || idx != 4 {
		t.Errorf("after 5 writes a lookback of 2: seed %d, want 4", idx)
	}
	if sm.Revisits() {
		t.Error("visits=fixed(1) revisits")
	}
	rv := NewSeedManager(SeqPopulation(1, 1000, true), mustSpec(t, "fixed(2)"), mustSpec(t, "uniform(1..5)"))
	if !rv.Revisits() {
		t.Fatal("visits=fixed(2) does not revisit")
	}
	seen := map[int64]bool{}
	for range 200 {
		s := rv.Next(r, true)
		rv.Done(s, true, true)
		seen[s.Index] = true
	}
	if len(seen) != 5 || !seen[1] || !seen[5] {
		t.Errorf("revisit=uniform(1..5): seeds %v, want 1..5", seen)
	}
}

// TestJavaValue: the classes and texts of the original's validation
// messages, and the equality it applies.
func TestJavaValue(t *testing.T) {
	h := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ty := func(s string) CQLType {
		c, err := ParseCQLType(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, c := range []struct {
		typ    string
		hex    string
		actual bool
		class  string
		text   string
	}{
		{"text", "616263", false, "String", "abc"},
		{"bigint", "fffffffffffffffe", false, "Long", "-2"},
		{"int", "00000010", true, "Integer", "16"},
		{"date", "80000001", false, "Integer", "1"},
		{"date", "80000001", true, "Integer", "-2147483647"},
		{"double", "3ff0000000000000", false, "Double", "1.0"},
		{"double", "4415af1d78b58c40", false, "Double", "1.0E20"},
		{"float", "3dcccccd", false, "Float", "0.1"},
		{"double", "3e7ad7f29abcaf48", false, "Double", "1.0E-7"},
		{"decimal", "00000002" + "04d2", false, "BigDecimal", "12.34"},
		{"decimal", "00000000" + "ff", false, "BigDecimal", "-1"},
		{"varint", "0100", false, "BigInteger", "256"},
		{"uuid", "00112233445566778899aabbccddeeff", true, "UUID", "00112233-4455-6677-8899-aabbccddeeff"},
		{"inet", "7f000001", false, "Inet4Address", "/127.0.0.1"},
		{"boolean", "01", false, "Boolean", "true"},
		{"smallint", "ffff", false, "Short", "-1"},
		{"tinyint", "80", false, "Byte", "-128"},
		{"list<int>", "00000002" + "00000004" + "00000001" + "00000004" + "00000002", false, "ArrayList", "[1, 2]"},
		{"set<text>", "00000001" + "00000001" + "61", false, "HashSet", "[a]"},
		{"set<text>", "00000001" + "00000001" + "61", true, "LinkedHashSet", "[a]"},
		{"blob", "0102", false, "HeapByteBuffer", "java.nio.HeapByteBuffer[pos=0 lim=2 cap=2]"},
	} {
		class, text := JavaValue(ty(c.typ), h(c.hex), c.actual)
		if class != c.class || text != c.text {
			t.Errorf("%s %s (actual %v): [%s] %s, want [%s] %s", c.typ, c.hex, c.actual, class, text, c.class, c.text)
		}
	}
	if c, s := JavaValue(ty("text"), nil, true); c != "null" || s != "null" {
		t.Errorf("null: [%s] %s", c, s)
	}
	set := func(elems ...string) []byte {
		b := h("0000000" + string(rune('0'+len(elems))))
		for _, e := range elems {
			b = append(b, 0, 0, 0, byte(len(e)))
			b = append(b, e...)
		}
		return b
	}
	for _, c := range []struct {
		typ   string
		a, b  []byte
		equal bool
	}{
		{"text", []byte("a"), []byte("a"), true},
		{"text", []byte("a"), []byte("b"), false},
		{"set<text>", set("a", "b"), set("b", "a"), true},
		{"list<text>", set("a", "b"), set("b", "a"), false},
		{"date", h("80000001"), h("80000001"), false},
		{"text", []byte("a"), nil, false},
	} {
		if got := JavaEqual(ty(c.typ), c.a, c.b); got != c.equal {
			t.Errorf("%s: equals(%x, %x) = %v", c.typ, c.a, c.b, got)
		}
	}
}
