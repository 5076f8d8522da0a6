package data

import (
	"testing"
)

func benchColumns(b testing.TB, size string) *Columns {
	c, err := NewColumns(5, nil, MustParseDist(size))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func BenchmarkAppendKey(b *testing.B) {
	buf := make([]byte, 0, DefaultKeySize)
	b.ReportAllocs()
	for i := range b.N {
		buf = AppendKey(buf[:0], int64(i), DefaultKeySize)
	}
}

func BenchmarkAppendValue(b *testing.B) {
	c := benchColumns(b, DefaultColumnSize)
	buf := make([]byte, 0, c.MaxSize())
	b.ReportAllocs()
	for i := range b.N {
		buf = c.AppendValue(buf[:0], i%5, int64(i))
	}
}

func BenchmarkRowGenerate(b *testing.B) {
	for _, size := range []string{DefaultColumnSize, "uniform(1..1024)", "gaussian(1..1024)", "fixed(4096)"} {
		b.Run(size, func(b *testing.B) {
			g := NewRow(DefaultKeySize, benchColumns(b, size))
			b.ReportAllocs()
			for i := range b.N {
				g.Generate(int64(i))
			}
		})
	}
}

func BenchmarkDistNext(b *testing.B) {
	for _, spec := range []string{"fixed(1)", "uniform(1..1M)", "gaussian(1..1M)", "exp(1..1M)", "extreme(1..1M,1.5)",
		"qextreme(1..1M,2,8)", "seq(1..1M)", "~exp(1..1M)"} {
		b.Run(spec, func(b *testing.B) {
			var s Sampler = MustParseDist(spec)
			r := testRand()
			b.ReportAllocs()
			for range b.N {
				s.Next(r)
			}
		})
	}
}

func BenchmarkPopulationNext(b *testing.B) {
	p := DefaultPopulation(true, 1000000)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		r := testRand() // one generator per worker
		for pb.Next() {
			p.Next(r)
		}
	})
}

// The hot path allocates nothing once buffers have grown.
func TestNoAllocs(t *testing.T) {
	g := NewRow(DefaultKeySize, benchColumns(t, "gaussian(1..100)"))
	c := benchColumns(t, DefaultColumnSize)
	key := make([]byte, 0, 64)
	val := make([]byte, 0, c.MaxSize())
	r := testRand()
	dists := []*Dist{MustParseDist("uniform(1..1M)"), MustParseDist("~gaussian(1..1M)"), MustParseDist("exp(1..1M)"),
		MustParseDist("extreme(1..1M,2)"), MustParseDist("qextreme(1..1M,2,8)"), MustParseDist("seq(1..9)")}
	ratio, _ := ParseRatio("uniform(1..10)/10")
	pop := DefaultPopulation(false, 100)
	deltas := make([]int64, 0, 5)
	add := MustParseDist(DefaultCounterAdd)
	idx := int64(0)
	n := testing.AllocsPerRun(200, func() {
		idx++
		g.Generate(idx)
		key = AppendKey(key[:0], idx, 33)
		val = c.AppendValue(val[:0], 1, KeySeed(key))
		for _, d := range dists {
			d.Next(r)
		}
		ratio.Next(r)
		pop.Next(r)
		deltas = CounterDeltas(deltas[:0], 5, add, r)
	})
	if n != 0 {
		t.Errorf("%v allocations per operation", n)
	}
}
