package data

import (
	"math/rand/v2"
	"testing"
)

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
