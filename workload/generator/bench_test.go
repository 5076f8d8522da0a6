package generator

import (
	"strings"
	"testing"
)

var sink int64

func benchInt(b *testing.B, g Int) {
	b.ReportAllocs()
	r := newRand(1)
	var s int64
	for b.Loop() {
		s += g.Next(r)
	}
	sink = s
}

// benchParallel draws from one shared generator on every P, each goroutine
// with its own *rand.Rand, as workers do.
func benchParallel(b *testing.B, g Int) {
	b.ReportAllocs()
	var seed uint64
	b.RunParallel(func(pb *testing.PB) {
		seed++
		r := newRand(seed)
		var s int64
		for pb.Next() {
			s += g.Next(r)
		}
		sink = s
	})
}

func BenchmarkFNVHash64(b *testing.B) {
	b.ReportAllocs()
	var s, i int64
	for b.Loop() {
		s += FNVHash64(i)
		i++
	}
	sink = s
}

func BenchmarkConstant(b *testing.B) { benchInt(b, Constant{V: 1}) }
func BenchmarkUniform(b *testing.B)  { benchInt(b, NewUniform(0, 999_999)) }
func BenchmarkZipfian(b *testing.B)  { benchInt(b, NewZipfian(0, 999_999, 0.99)) }

func BenchmarkScrambledZipfian(b *testing.B) {
	benchInt(b, NewScrambledZipfian(0, 999_999, 0.99))
}

func BenchmarkScrambledZipfianParallel(b *testing.B) {
	benchParallel(b, NewScrambledZipfian(0, 999_999, 0.99))
}

// The item count grows by one per draw, as with "latest" under inserts.
func BenchmarkZipfianIncremental(b *testing.B) {
	b.ReportAllocs()
	z := NewZipfian(0, 999_999, 0.99)
	r := newRand(1)
	n := int64(1_000_000)
	var s int64
	for b.Loop() {
		n++
		s += z.NextN(r, n)
	}
	sink = s
}

func BenchmarkSkewedLatest(b *testing.B) {
	basis := NewAcknowledgedCounter(1_000_000)
	benchInt(b, NewSkewedLatest(basis, 0.99))
}

func BenchmarkHotspot(b *testing.B) {
	h, err := NewHotspot(0, 999_999, 0.2, 0.8)
	if err != nil {
		b.Fatal(err)
	}
	benchInt(b, h)
}

func BenchmarkSequential(b *testing.B)         { benchInt(b, NewSequential(0, 999_999)) }
func BenchmarkSequentialParallel(b *testing.B) { benchParallel(b, NewSequential(0, 999_999)) }
func BenchmarkExponential(b *testing.B)        { benchInt(b, NewExponential(95, 857_142)) }

func BenchmarkHistogram(b *testing.B) {
	buckets := make([]int64, 100)
	for i := range buckets {
		buckets[i] = int64(100 - i)
	}
	h, err := ParseHistogram(strings.NewReader(histogramText(64, buckets)))
	if err != nil {
		b.Fatal(err)
	}
	benchInt(b, h)
}

func BenchmarkDiscrete(b *testing.B) {
	b.ReportAllocs()
	d := NewDiscrete()
	for i, w := range []float64{0.5, 0.45, 0.04, 0.01, 0} {
		d.Add(w, i)
	}
	r := newRand(1)
	var s int
	for b.Loop() {
		s += d.Next(r)
	}
	sink = int64(s)
}

func BenchmarkCounter(b *testing.B) {
	b.ReportAllocs()
	c := NewCounter(0)
	for b.Loop() {
		c.Next()
	}
}

func BenchmarkAcknowledgedCounter(b *testing.B) {
	b.ReportAllocs()
	c := NewAcknowledgedCounter(0)
	for b.Loop() {
		if err := c.Acknowledge(c.Next()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNewZipfian1e9(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		NewZipfian(0, 999_999_999, 0.99)
	}
}

// Any theta but 0.99 needs zeta over 10^10+1 items.
func BenchmarkNewScrambledZipfianTheta09(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		NewScrambledZipfian(0, 999_999, 0.9)
	}
}

func BenchmarkZeta1e6(b *testing.B) {
	for b.Loop() {
		Zeta(1_000_000, 0.99)
	}
}
