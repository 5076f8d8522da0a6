package generator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// javaHistogramValue is YCSB's HistogramGenerator.nextValue for a given
// x = nextInt(area), transcribed loop for loop.
func javaHistogramValue(buckets []int64, blockSize, x int64) int64 {
	i := 0
	for ; i < len(buckets)-1; i++ {
		x -= buckets[i]
		if x <= 0 {
			return int64(i+1) * blockSize
		}
	}
	return int64(i) * blockSize
}

func histogramText(blockSize int64, buckets []int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "BlockSize\t%d\n", blockSize)
	for i, c := range buckets {
		fmt.Fprintf(&b, "%d\t%d\n", i, c)
	}
	return b.String()
}

func TestHistogramMatchesJava(t *testing.T) {
	// Every x in [0, area) maps to the value YCSB's loop returns.
	for _, buckets := range [][]int64{
		{10, 0, 25, 40, 5, 20},
		{3},
		{0, 7},
		{4, 0, 0, 9},
		{1, 1, 1, 1, 1},
	} {
		h, err := ParseHistogram(strings.NewReader(histogramText(100, buckets)))
		if err != nil {
			t.Fatalf("%v: %v", buckets, err)
		}
		for x := range h.cum[len(h.cum)-1] {
			if got, want := h.value(x), javaHistogramValue(buckets, 100, x); got != want {
				t.Errorf("%v: x = %d: value %d, YCSB gives %d", buckets, x, got, want)
			}
		}
	}
}

func TestHistogramDistribution(t *testing.T) {
	buckets := []int64{10, 0, 25, 40, 5, 20}
	h, err := ParseHistogram(strings.NewReader(histogramText(100, buckets)))
	if err != nil {
		t.Fatal(err)
	}
	// Exact masses of YCSB's mapping: value (i+1)*100 for bucket i, with
	// bucket 0 one draw heavier and the last bucket folded onto value 500.
	const area = 100
	p := make([]float64, len(buckets)+1) // index = value / 100
	for x := range int64(area) {
		p[javaHistogramValue(buckets, 100, x)/100] += 1.0 / area
	}
	r := newRand(50)
	const draws = 200_000
	obs := make([]int64, len(p))
	for range draws {
		v := h.Next(r)
		if v%100 != 0 || v < 0 || v/100 >= int64(len(p)) {
			t.Fatalf("Next = %d", v)
		}
		obs[v/100]++
	}
	if !chiSquareOK(t, "histogram vs YCSB masses", obs, p) {
		t.Error("draws do not fit the bucket counts")
	}
	// Read naively (bucket i -> (i+1)*100 with count/area), the file
	// predicts draws at 600 that YCSB never makes; the test must see that.
	naive := make([]float64, len(p))
	for i, c := range buckets {
		naive[i+1] = float64(c) / area
	}
	if chiSquareOK(t, "histogram vs naive reading", obs, naive) {
		t.Error("chi-square cannot tell YCSB's mapping from the naive one")
	}
}

func TestParseHistogramErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty input"},
		{"\n\n", "empty input"},
		{"Blocksize\t10\n0\t1\n", `line 1: expected "BlockSize<TAB>n"`},
		{"BlockSize 10\n0\t1\n", `line 1: expected "BlockSize<TAB>n"`},
		{"BlockSize\tten\n", "line 1: expected a positive block size"},
		{"BlockSize\t0\n0\t1\n", "line 1: expected a positive block size"},
		{"BlockSize\t10\n0\t1\n1 2\n", `line 3: expected "bucket<TAB>count"`},
		{"BlockSize\t10\n0\t1\nx\t2\n", "line 3: expected bucket number 1"},
		{"BlockSize\t10\n0\t1\n\n2\t2\n", "line 4: expected bucket number 1, got 2"},
		{"BlockSize\t10\n0\t-1\n", "line 2: expected a count >= 0"},
		{"BlockSize\t10\n0\t9223372036854775807\n1\t1\n", "line 3: total count overflows"},
		{"BlockSize\t4611686018427387904\n0\t1\n1\t1\n2\t1\n", "line 4: bucket 2 times block size"},
		{"BlockSize\t10\n0\t0\n1\t0\n", "no samples"},
		{"BlockSize\t10\n", "no samples"},
	} {
		_, err := ParseHistogram(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseHistogram(%q) err = %v, want one containing %q", c.in, err, c.want)
		}
	}
	// Tolerated: CRLF, blank lines, extra fields (YCSB ignores them).
	h, err := ParseHistogram(strings.NewReader("BlockSize\t8\r\n\r\n0\t2\textra\r\n1\t3\r\n"))
	if err != nil || h.blockSize != 8 || len(h.cum) != 2 || h.cum[1] != 5 {
		t.Errorf("lenient input: h = %+v, err = %v", h, err)
	}
}

func TestLoadHistogram(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "hist.txt")
	if err := os.WriteFile(good, []byte(histogramText(10, []int64{1, 2, 3})), 0o644); err != nil {
		t.Fatal(err)
	}
	if h, err := LoadHistogram(context.Background(), good); err != nil || len(h.cum) != 3 {
		t.Errorf("LoadHistogram(context.Background(), good) = %v, %v", h, err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("BlockSize\t10\n0\tx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{bad, filepath.Join(dir, "missing.txt")} {
		if _, err := LoadHistogram(context.Background(), path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("LoadHistogram(%s) err = %v, want one naming the file", path, err)
		}
	}
}

func FuzzParseHistogram(f *testing.F) {
	f.Add(histogramText(100, []int64{10, 0, 25, 40, 5, 20}))
	f.Add(histogramText(1, []int64{1}))
	f.Add("BlockSize\t7\r\n0\t0\n1\t3\textra\n\n2\t1\n")
	f.Add("BlockSize\t10\n0\t-1\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		h, err := ParseHistogram(strings.NewReader(in))
		if err != nil {
			return
		}
		if h.blockSize <= 0 || len(h.cum) == 0 || h.cum[len(h.cum)-1] <= 0 {
			t.Fatalf("accepted %q with block size %d, buckets %v", in, h.blockSize, h.cum)
		}
		hi := int64(len(h.cum)-1) * h.blockSize
		r := newRand(uint64(len(in)))
		for range 64 {
			v := h.Next(r)
			if v%h.blockSize != 0 || v < 0 || v > hi {
				t.Fatalf("input %q: Next = %d, want a multiple of %d in [0, %d]", in, v, h.blockSize, hi)
			}
		}
	})
}
