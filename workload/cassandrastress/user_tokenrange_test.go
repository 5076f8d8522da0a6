package cassandrastress

import (
	"math"
	"slices"
	"testing"
)

// TestSplitRanges: -tokenrange split-factor= splits each range as the
// original's TokenRangeIterator has the Java driver 3 split it
// (TokenRange.splitEvenly over Murmur3 tokens, whose ring is MAX-MIN
// tokens long); the split points are those the driver's own
// M3PTokenFactoryTest expects. The ranges come out sorted by start then
// end, without duplicates, as its TreeSet keeps them.
func TestSplitRanges(t *testing.T) {
	const lo, hi = math.MinInt64, math.MaxInt64
	for _, c := range []struct {
		name   string
		in     tokenRange
		factor int
		points []int64
	}{
		{"range", tokenRange{lo, 4611686018427387904}, 3, []int64{-4611686018427387904, 0}},
		{"wraps round the ring", tokenRange{4611686018427387904, 0}, 3, []int64{-9223372036854775807, -4611686018427387903}},
		{"division not integral", tokenRange{0, 11}, 3, []int64{4, 8}},
		{"empty splits", tokenRange{0, 2}, 5, []int64{1, 2, 2, 2}},
		{"empty splits near the ring's end", tokenRange{hi, lo}, 3, []int64{hi, hi}},
		{"empty splits near the ring's start", tokenRange{lo, lo + 1}, 3, []int64{lo + 1, lo + 1}},
		{"whole ring", tokenRange{lo, lo}, 3, []int64{-3074457345618258603, 3074457345618258602}},
	} {
		if got := m3pSplit(c.in.start, c.in.end, c.factor); !slices.Equal(got, c.points) {
			t.Errorf("%s: split %v by %d: %v, want %v", c.name, c.in, c.factor, got, c.points)
		}
	}
	// the whole ring of a one-token node in 4: (MIN, a], (a, b], (b, c],
	// (c, MIN], the last to the ring's end
	got := splitRanges([]tokenRange{{lo, lo}}, 4)
	want := []tokenRange{{lo, -4611686018427387904}, {-4611686018427387904, 0}, {0, 4611686018427387904}, {4611686018427387904, lo}}
	if !slices.Equal(got, want) {
		t.Errorf("whole ring by 4: %v, want %v", got, want)
	}
	// two ranges, sorted together; the empty splits of (0, 2] by 5 are
	// one range (2, 2] as in a TreeSet
	got = splitRanges([]tokenRange{{10, 13}, {0, 2}}, 5)
	want = []tokenRange{{0, 1}, {1, 2}, {2, 2}, {10, 11}, {11, 12}, {12, 13}, {13, 13}}
	if !slices.Equal(got, want) {
		t.Errorf("(10, 13] and (0, 2] by 5: %v, want %v", got, want)
	}
	if got := splitRanges([]tokenRange{{lo, lo}}, 1); !slices.Equal(got, []tokenRange{{lo, lo}}) {
		t.Errorf("split-factor=1: %v", got)
	}
}
