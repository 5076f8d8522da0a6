package partition

import (
	"testing"
)

// TestSlices: the clients' slices of every total are disjoint, cover
// 0..total-1 in index order, and differ in length by at most one; the
// shares sum to the total exactly.
func TestSlices(t *testing.T) {
	for _, tc := range []struct {
		total int64
		count int
		want  [][2]int64 // start, count per client
	}{
		{9, 3, [][2]int64{{0, 3}, {3, 3}, {6, 3}}},
		{10, 3, [][2]int64{{0, 4}, {4, 3}, {7, 3}}},
		{11, 3, [][2]int64{{0, 4}, {4, 4}, {8, 3}}},
		{2, 3, [][2]int64{{0, 1}, {1, 1}, {2, 0}}},
		{30000, 3, [][2]int64{{0, 10000}, {10000, 10000}, {20000, 10000}}},
		{7, 1, [][2]int64{{0, 7}}},
		{0, 2, [][2]int64{{0, 0}, {0, 0}}},
	} {
		for i, w := range tc.want {
			c := Clients{Count: tc.count, Index: i}
			if s, n := c.Slice(tc.total); s != w[0] || n != w[1] {
				t.Errorf("Slice(%d) of client %v = %d, %d; want %d, %d", tc.total, c, s, n, w[0], w[1])
			}
		}
	}
	for _, count := range []int{1, 2, 3, 7, 64, 1000} {
		for _, total := range []int64{0, 1, 2, 999, 1000, 1001, 123_457, 1e15} {
			next, sum := int64(0), int64(0)
			lo, hi := total, int64(0)
			for i := range count {
				c := Clients{Count: count, Index: i}
				s, n := c.Slice(total)
				if s != next {
					t.Fatalf("count %d total %d: client %d starts at %d, want %d (gap or overlap)", count, total, i, s, next)
				}
				next = s + n
				sum += c.Share(total)
				lo, hi = min(lo, n), max(hi, n)
			}
			if next != total || sum != total {
				t.Errorf("count %d total %d: slices end at %d, shares sum to %d", count, total, next, sum)
			}
			if hi-lo > 1 {
				t.Errorf("count %d total %d: slice lengths from %d to %d, want the remainder spread", count, total, lo, hi)
			}
		}
	}
}

// TestInsertKeys: the clients' run-phase insert key numbers never collide,
// interleave from base, and a lone client's are the reference's.
func TestInsertKeys(t *testing.T) {
	const base, count, perClient = 1000, 3, 500
	seen := map[int64]int{}
	for i := range count {
		c := Clients{Count: count, Index: i}
		if k := c.InsertKey(base, 17); k != 17 {
			t.Errorf("client %d maps loaded key 17 to %d", i, k)
		}
		for k := int64(base); k < base+perClient; k++ {
			g := c.InsertKey(base, k)
			if j, dup := seen[g]; dup {
				t.Fatalf("key %d inserted by clients %d and %d", g, j, i)
			}
			seen[g] = i
		}
	}
	for g := int64(base); g < base+count*perClient; g++ {
		if _, ok := seen[g]; !ok {
			t.Fatalf("key %d skipped: the clients' keys should interleave without gaps", g)
		}
	}
	for _, c := range []Clients{{}, {Count: 1}} {
		if k := c.InsertKey(base, base+5); k != base+5 {
			t.Errorf("%+v: InsertKey = %d, want the counter's own %d", c, k, base+5)
		}
	}
}

func TestSeeds(t *testing.T) {
	seen := map[uint64]bool{}
	for i := range 100 {
		s := Clients{Count: 100, Index: i}.Seed(42)
		if seen[s] {
			t.Fatalf("client %d: seed %d repeats", i, s)
		}
		seen[s] = true
	}
	if s := (Clients{}).Seed(42); s != 42 {
		t.Errorf("a lone client's seed is %d, want the base 42", s)
	}
}
