package data

import (
	"bufio"
	"encoding/hex"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/cql/murmur3"
)

// testdata/generators.txt was printed by testdata/Vectors.java.txt run
// against the original's own classes (scylladb/cassandra-stress, built from
// its repository): keys and values through its
// PartitionIterator, its murmur3, java.util.Random, FasterRandom and seeded
// distributions.
func goldenLines(t *testing.T, prefix string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/generators.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if w := strings.Fields(sc.Text()); len(w) > 0 && w[0] == prefix {
			out = append(out, w[1:])
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %q lines in the golden file", prefix)
	}
	return out
}

func atoi64(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestGoldenRows(t *testing.T) {
	for _, w := range goldenLines(t, "row") {
		// label keysize sizespec index keyhex name=hex...
		label, spec := w[0], w[2]
		keySize := int(atoi64(t, w[1]))
		idx := atoi64(t, w[3])
		size := MustParseDist(spec)
		var names []string
		var want [][]byte
		for _, kv := range w[5:] {
			name, h, _ := strings.Cut(kv, "=")
			b, err := hex.DecodeString(h)
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
			want = append(want, b)
		}
		cols, err := NewColumns(len(names), nil, size)
		if err != nil {
			t.Fatal(err)
		}
		key, vals := NewRow(keySize, cols).Generate(idx)
		if got := hex.EncodeToString(key); got != w[4] {
			t.Errorf("%s keysize=%d idx=%d: key %s (%q), want %s", label, keySize, idx, got, key, w[4])
			continue
		}
		for i, n := range cols.Names() {
			if n != names[i] {
				t.Fatalf("%s: column %d is %s, the original's is %s", label, i, n, names[i])
			}
			if string(vals[i]) != string(want[i]) {
				if spec == "extreme(1..1000,1.5)" && len(vals[i]) != len(want[i]) {
					t.Logf("%s idx=%d %s: size %d, the original's %d (FastMath rounding)", label, idx, n, len(vals[i]), len(want[i]))
					continue
				}
				t.Errorf("%s size=%s idx=%d %s:\n got %x\nwant %x", label, spec, idx, n, vals[i], want[i])
			}
		}
	}
}

func TestGoldenMurmur(t *testing.T) {
	for _, w := range goldenLines(t, "murmur") {
		s := w[0]
		if s == "-" {
			s = ""
		}
		if got, want := murmur3.Hash([]byte(s)), atoi64(t, w[1]); got != want {
			t.Errorf("murmur(%q) = %d, want %d", s, got, want)
		}
	}
	w := goldenLines(t, "murmurbin")[0]
	bin := []byte{0xff, 0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xfe, 0x90, 0x7f, 0xc3}
	if got, want := murmur3.Hash(bin), atoi64(t, w[0]); got != want {
		t.Errorf("murmur(non-ASCII tail) = %d, want %d", got, want)
	}
}

func TestGoldenJavaRandom(t *testing.T) {
	for _, w := range goldenLines(t, "jrand") {
		var r jrand
		r.setSeed(atoi64(t, w[0]))
		if got, want := r.nextLong(), atoi64(t, w[1]); got != want {
			t.Errorf("seed %s: nextLong %d, want %d", w[0], got, want)
		}
		if got, want := math.Float64bits(r.Float64()), uint64(atoi64(t, w[2])); got != want {
			t.Errorf("seed %s: nextDouble %x, want %x", w[0], got, want)
		}
		for i, s := range w[3:] {
			if got, want := math.Float64bits(r.NormFloat64()), uint64(atoi64(t, s)); got != want {
				t.Errorf("seed %s: nextGaussian #%d %v, want %v", w[0], i, math.Float64frombits(got), math.Float64frombits(want))
			}
		}
	}
	for _, w := range goldenLines(t, "faster") {
		var f fasterRandom
		f.setSeed(atoi64(t, w[0]))
		for i, s := range w[1:] {
			if got, want := f.nextLong(), atoi64(t, s); got != want {
				t.Fatalf("seed %s: FasterRandom long #%d %d, want %d", w[0], i, got, want)
			}
		}
	}
}

func TestGoldenSeeded(t *testing.T) {
	for _, w := range goldenLines(t, "seeded") {
		d := MustParseDist(w[0])
		for _, g := range w[1:] {
			seed, vals, _ := strings.Cut(g, ":")
			s := d.Seeded()
			s.SetSeed(atoi64(t, seed))
			for i, v := range strings.Split(vals, ",") {
				got, want := s.Next(), atoi64(t, v)
				if got != want {
					if d.Kind() == Extreme && abs64(got-want) <= 1 {
						t.Logf("%s seed %s #%d: %d, the original's %d (FastMath rounding)", w[0], seed, i, got, want)
						continue
					}
					t.Errorf("%s seed %s #%d: %d, want %d", w[0], seed, i, got, want)
				}
			}
		}
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// The "cfg" lines are the original's parameters, printed with %f, and its
// minValue, maxValue (and average, not reproduced).
func TestGoldenParameters(t *testing.T) {
	for _, line := range goldenLines(t, "cfg") {
		spec := line[0]
		d := MustParseDist(spec)
		rest := strings.Join(line, " ")
		var cfg string
		switch d.Kind() {
		case Exp:
			cfg = "mean=" + strconv.FormatFloat(d.Mean(), 'f', 6, 64)
		case Extreme, QExtreme:
			cfg = "scale=" + strconv.FormatFloat(d.Scale(), 'f', 6, 64)
		case Gaussian:
			cfg = "stdev=" + strconv.FormatFloat(d.Stdev(), 'f', 6, 64)
		}
		if !strings.Contains(rest, cfg) {
			t.Errorf("%s: %s not in %q", spec, cfg, rest)
		}
		mm := "min=" + strconv.FormatInt(d.MinValue(), 10) + " max=" + strconv.FormatInt(d.MaxValue(), 10) + " "
		if !strings.Contains(rest, mm) {
			t.Errorf("%s: %q not in %q", spec, mm, rest)
		}
	}
}
