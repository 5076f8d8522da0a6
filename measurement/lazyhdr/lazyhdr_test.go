package lazyhdr

import (
	"bytes"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

type geometry struct {
	lowest, highest int64
	digits          int
}

var geometries = []geometry{
	{1, 3_600_000_000, 3}, // the measurement package's: one hour in µs
	{1, 2, 3},
	{1, 1000, 1},
	{1, 2047, 3},
	{1, 2048, 3},
	{1, 60_000_000, 2},
	{1, 3_600_000_000, 5},
	{1000, 3_600_000_000_000, 3}, // ns with µs resolution: a unit magnitude
	{7, 1 << 40, 4},
	{1, math.MaxInt64, 3},
}

// values returns v's edge values and a fixed-seed log-uniform spread over
// the whole range, past highest included (the top bucket reaches beyond it).
func values(g geometry) []int64 {
	vs := []int64{0, 1, 2, 3, g.lowest, g.highest - 1, g.highest, g.highest + 1, 1023, 1024, 2047, 2048, 2049, 4095, 4096}
	rng := rand.New(rand.NewPCG(1, uint64(g.highest)))
	top := math.Log2(float64(g.highest)) + 1
	for range 20_000 {
		v := math.Exp2(rng.Float64() * top)
		if v >= math.MaxInt64 {
			v = math.MaxInt64 / 2
		}
		vs = append(vs, int64(v))
	}
	for i := range 64 {
		vs = append(vs, int64(1)<<i-1, int64(1)<<i)
	}
	return slices.DeleteFunc(vs, func(v int64) bool { return v < 0 })
}

func encode(t *testing.T, h *hdrhistogram.Histogram) []byte {
	t.Helper()
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSameAsDense records the same values into a dense histogram and a lazy
// one merged into a dense histogram: every count, the encoding and the
// percentiles must be identical, and both must accept and reject the same
// values.
func TestSameAsDense(t *testing.T) {
	for _, g := range geometries {
		dense := hdrhistogram.New(g.lowest, g.highest, g.digits)
		lazy := New(g.lowest, g.highest, g.digits)
		if got, want := int(lazy.countsLen), len(dense.Export().Counts); got != want {
			t.Errorf("%+v: %d counts, dense has %d", g, got, want)
			continue
		}
		for _, v := range values(g) {
			derr, lerr := dense.RecordValue(v), lazy.RecordValue(v)
			if (derr == nil) != (lerr == nil) {
				t.Fatalf("%+v: value %d: dense error %v, lazy error %v", g, v, derr, lerr)
			}
		}
		if lazy.TotalCount() != dense.TotalCount() {
			t.Fatalf("%+v: %d values recorded, dense %d", g, lazy.TotalCount(), dense.TotalCount())
		}
		merged := hdrhistogram.New(g.lowest, g.highest, g.digits)
		if dropped := lazy.MergeInto(merged); dropped != 0 {
			t.Fatalf("%+v: merge dropped %d", g, dropped)
		}
		if !slices.Equal(merged.Export().Counts, dense.Export().Counts) {
			t.Fatalf("%+v: counts differ from the dense histogram's", g)
		}
		if !bytes.Equal(encode(t, merged), encode(t, dense)) {
			t.Errorf("%+v: encodings differ", g)
		}
		if !bytes.Equal(encode(t, lazy.Dense()), encode(t, dense)) {
			t.Errorf("%+v: Dense encoding differs", g)
		}
		for _, p := range []float64{0, 1, 50, 90, 99, 99.9, 99.99, 100} {
			if a, b := merged.ValueAtQuantile(p), dense.ValueAtQuantile(p); a != b {
				t.Errorf("%+v: p%v %d, dense %d", g, p, a, b)
			}
		}
		if a, b := merged.Max(), dense.Max(); a != b {
			t.Errorf("%+v: max %d, dense %d", g, a, b)
		}
		if a, b := merged.Min(), dense.Min(); a != b {
			t.Errorf("%+v: min %d, dense %d", g, a, b)
		}
	}
}

// TestIndexBijective checks value and index against each other over every
// index: value(i) is counted at i, and so is the last value before i+1's.
func TestIndexBijective(t *testing.T) {
	for _, g := range geometries {
		h := New(g.lowest, g.highest, g.digits)
		for i := 0; i < int(h.countsLen); i++ {
			v := h.value(i)
			if got := h.index(v); got != i {
				t.Fatalf("%+v: value(%d) = %d, whose index is %d", g, i, v, got)
			}
			if i+1 < int(h.countsLen) && i > 0 {
				if next := h.value(i + 1); h.index(next-1) != i {
					t.Fatalf("%+v: value %d (just below index %d) has index %d, want %d", g, next-1, i+1, h.index(next-1), i)
				}
			}
		}
	}
}

// TestMergeAddsToExisting merges two lazy histograms into one dense one
// that already holds values, as the Collector does every interval.
func TestMergeAddsToExisting(t *testing.T) {
	g := geometries[0]
	want := hdrhistogram.New(g.lowest, g.highest, g.digits)
	got := hdrhistogram.New(g.lowest, g.highest, g.digits)
	a, b := New(g.lowest, g.highest, g.digits), New(g.lowest, g.highest, g.digits)
	for i, v := range values(g) {
		if err := want.RecordValue(v); err != nil {
			continue
		}
		switch i % 3 {
		case 0:
			got.RecordValue(v)
		case 1:
			a.RecordValue(v)
		default:
			b.RecordValue(v)
		}
	}
	a.MergeInto(got)
	b.MergeInto(got)
	if !bytes.Equal(encode(t, got), encode(t, want)) {
		t.Error("merging two lazy histograms into a populated dense one differs from recording everything into it")
	}
}

func TestReset(t *testing.T) {
	h := New(1, 3_600_000_000, 3)
	for v := int64(0); v < 100_000; v += 7 {
		h.RecordValue(v)
	}
	chunks := h.ChunksInUse()
	h.Reset()
	if h.TotalCount() != 0 {
		t.Fatalf("%d values after Reset", h.TotalCount())
	}
	d := hdrhistogram.New(1, 3_600_000_000, 3)
	if h.MergeInto(d); d.TotalCount() != 0 {
		t.Fatalf("a reset histogram merges %d values", d.TotalCount())
	}
	if h.ChunksInUse() != chunks {
		t.Errorf("Reset freed chunks: %d in use, had %d", h.ChunksInUse(), chunks)
	}
	// The same values again reuse the chunks: recording allocates nothing.
	allocs := testing.AllocsPerRun(10, func() {
		for v := int64(0); v < 100_000; v += 7 {
			h.RecordValue(v)
		}
	})
	if allocs != 0 {
		t.Errorf("recording into kept chunks allocates %.1f times", allocs)
	}
	for v := int64(0); v < 100_000; v += 7 {
		d.RecordValue(v)
	}
	got := hdrhistogram.New(1, 3_600_000_000, 3)
	h.MergeInto(got)
	if got.TotalCount() != 11*d.TotalCount() || got.ValueAtQuantile(50) != d.ValueAtQuantile(50) {
		t.Errorf("after Reset: %d values, p50 %d; want %d, %d", got.TotalCount(), got.ValueAtQuantile(50), 11*d.TotalCount(), d.ValueAtQuantile(50))
	}
}

// bytesPer returns the heap bytes fn allocates per call, on average.
func bytesPer(n int, fn func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		fn()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// TestFootprint is the point of the package: an empty histogram of the
// one-hour range is a small fraction of the dense one, and a narrow range of
// latencies costs a chunk or two.
func TestFootprint(t *testing.T) {
	var keep *Histogram
	empty := bytesPer(200, func() { keep = New(1, 3_600_000_000, 3) })
	if empty > 2048 {
		t.Errorf("an empty histogram takes %.0f bytes, want at most 2048", empty)
	}
	narrow := bytesPer(200, func() {
		keep = New(1, 3_600_000_000, 3)
		for v := int64(chunkLen); v < 2*chunkLen; v++ { // exactly the second chunk
			keep.RecordValue(v)
		}
	})
	if narrow > empty+chunkLen*8+64 {
		t.Errorf("%d neighbouring values take %.0f bytes, want at most %d", chunkLen, narrow, int(empty)+chunkLen*8+64)
	}
	dense := bytesPer(20, func() { hdrhistogram.New(1, 3_600_000_000, 3) })
	if empty*50 > dense {
		t.Errorf("empty lazy histogram %.0f bytes, dense %.0f: expected at least 50 times less", empty, dense)
	}
	_ = keep
}

func TestInvalidGeometryPanics(t *testing.T) {
	for _, g := range []geometry{{0, 100, 3}, {1, 1, 3}, {1, 100, 0}, {1, 100, 6}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d, %d, %d) did not panic", g.lowest, g.highest, g.digits)
				}
			}()
			New(g.lowest, g.highest, g.digits)
		}()
	}
}

func BenchmarkRecordValue(b *testing.B) {
	for _, name := range []string{"lazy", "dense"} {
		b.Run(name, func(b *testing.B) {
			lazy := New(1, 3_600_000_000, 3)
			dense := hdrhistogram.New(1, 3_600_000_000, 3)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				v := int64(i % 5000)
				if name == "lazy" {
					lazy.RecordValue(v)
				} else {
					dense.RecordValue(v)
				}
			}
		})
	}
}

// TestResetReleasesIdleChunks: a worker of a run with thousands of threads
// records a few values per interval, spread over a wide latency range. If
// every chunk it ever touched stayed, each of its histograms would grow to
// the whole range over a long run (a 90 s run at 1,000 threads reached
// 294 MiB). A Reset keeps only the chunks that held values since the previous
// one, so a histogram holds at most as many chunks as it got values in its
// last generation.
func TestResetReleasesIdleChunks(t *testing.T) {
	const perGen, gens = 20, 200
	h := New(1, 3_600_000_000, 3)
	rng := rand.New(rand.NewPCG(7, 11))
	peak := 0
	for range gens {
		for range perGen {
			// log-uniform over 1 ms .. 1 s: one thousand threads on a busy node
			h.RecordValue(int64(math.Exp(math.Log(1_000) + rng.Float64()*math.Log(1_000))))
		}
		peak = max(peak, h.ChunksInUse())
		h.Reset()
		if n := h.ChunksInUse(); n > perGen {
			t.Fatalf("after Reset %d chunks in use, want at most %d (the values of the last generation)", n, perGen)
		}
	}
	if peak > 2*perGen {
		t.Errorf("%d chunks in use at the peak, want at most %d", peak, 2*perGen)
	}
	// Chunks that held values are kept: the same values again allocate nothing.
	for v := int64(5_000); v < 5_000+chunkLen; v++ {
		h.RecordValue(v)
	}
	h.Reset()
	allocs := testing.AllocsPerRun(10, func() {
		for v := int64(5_000); v < 5_000+chunkLen; v++ {
			h.RecordValue(v)
		}
		h.Reset()
	})
	if allocs != 0 {
		t.Errorf("recording into kept chunks allocates %.1f times", allocs)
	}
}
