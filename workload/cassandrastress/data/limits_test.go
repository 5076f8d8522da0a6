package data

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaxBytes: no value of a generator is longer than its MaxBytes, the
// estimate the run's bounds go by.
func TestMaxBytes(t *testing.T) {
	for _, c := range []struct{ typ, size string }{
		{"text", "uniform(1..300)"}, {"blob", "~exp(0..50)"}, {"int", ""}, {"bigint", ""}, {"varint", ""},
		{"decimal", ""}, {"uuid", ""}, {"timeuuid", ""}, {"boolean", ""}, {"smallint", ""}, {"tinyint", ""},
		{"double", ""}, {"float", ""}, {"inet", ""}, {"date", ""}, {"time", ""}, {"timestamp", ""},
		{"list<text>", "uniform(0..40)"}, {"set<text>", "gaussian(1..60)"}, {"list<bigint>", "fixed(7)"}, {"set<int>", ""},
	} {
		typ, err := ParseCQLType(c.typ)
		if err != nil {
			t.Fatal(err)
		}
		var size *Dist
		if c.size != "" {
			size = MustParseDist(c.size)
		}
		g, err := NewGenerator("c", typ, size, MustParseDist("uniform(-1000000000b..1000000000b)"), nil)
		if err != nil {
			t.Fatal(err)
		}
		most := g.MaxBytes()
		for seed := int64(0); seed < 500; seed++ {
			g.SetSeed(seed)
			if n := len(g.Append(nil)); int64(n) > most {
				t.Fatalf("%s size %s: a value of %d bytes, MaxBytes %d", c.typ, c.size, n, most)
			}
		}
	}
	if _, err := ParseCQLType("set"); err == nil {
		t.Error("set without its element type accepted")
	}
}

// TestFootprint: a partition's rows and bytes at most, as the run's
// bounds go by.
func TestFootprint(t *testing.T) {
	g := textGen(t, "uniform(1..10)", "~fixed(3)")
	f := g.Footprint()
	// key, two clustering values and a value of text, uniform(4..8) each
	if f.Rows != 30 || f.RowBytes != 4*8 || f.LevelBytes != 10*(8+LevelOverhead)+3*(8+LevelOverhead) {
		t.Errorf("footprint %+v", f)
	}
}

// TestSetDedupe: a set's elements are its list's, each once, in order,
// for a large set too (indexed past 32 elements).
func TestSetDedupe(t *testing.T) {
	for _, size := range []string{"fixed(20)", "fixed(3000)"} {
		elem := CQLType{Name: "text"}
		set, _ := NewGenerator("s", CQLType{Name: "set", Elem: &elem}, MustParseDist(size), MustParseDist("uniform(1..500)"), nil)
		list, _ := NewGenerator("s", CQLType{Name: "list", Elem: &elem}, MustParseDist(size), MustParseDist("uniform(1..500)"), nil)
		set.SetSeed(7)
		list.SetSeed(7)
		got, all := elements(set.Append(nil)), elements(list.Append(nil))
		seen := map[string]bool{}
		var want []string
		for _, e := range all {
			if !seen[e] {
				seen[e] = true
				want = append(want, e)
			}
		}
		if len(got) != len(want) || len(want) == len(all) {
			t.Fatalf("%s: %d elements, want %d of %d", size, len(got), len(want), len(all))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: element %d is %q, want %q", size, i, got[i], want[i])
			}
		}
	}
}

func elements(b []byte) []string {
	n := int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3])
	var out []string
	b = b[4:]
	for range n {
		l := int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3])
		out = append(out, string(b[4:4+l]))
		b = b[4+l:]
	}
	return out
}

// TestWritePastInt: an insert whose seed's position would pass a Java int
// finds nothing left, rather than seeking a negative row.
func TestWritePastInt(t *testing.T) {
	p := NewPartition(textGen(t, "fixed(5)"))
	p.Reset(1)
	var s Seed
	s.Visits = 1
	s.position.Store(math.MaxInt32 - 2)
	if p.Write(rand.New(rand.NewPCG(1, 1)), &s, 1, 1) {
		t.Errorf("wrote %d rows past the int", len(p.Rows))
	}
}

// TestSetValueAllocatesNothing: a set of many elements (past the size at
// which its dedupe indexes them) is generated without allocating, once
// warm, as a list is: the index is kept and cleared, not made anew.
func TestSetValueAllocatesNothing(t *testing.T) {
	elem := CQLType{Name: "bigint"}
	for _, kind := range []string{"list", "set"} {
		g, err := NewGenerator("s", CQLType{Name: kind, Elem: &elem}, MustParseDist("fixed(200)"), MustParseDist("uniform(1..1000000)"), nil)
		if err != nil {
			t.Fatal(err)
		}
		g.SetSeed(7)
		buf := g.Append(nil)
		if n := testing.AllocsPerRun(100, func() { buf = g.Append(buf[:0]) }); n != 0 {
			t.Errorf("%s of 200 elements: %.1f allocations a value, want 0", kind, n)
		}
	}
}
