package data

import (
	"math/rand/v2"
	"testing"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

func mustSpec(t *testing.T, s string) settings.Dist {
	t.Helper()
	d, err := settings.ParseDist(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestVisits: with -insert visits=fixed(5) a partition of 10 rows is
// written over 5 inserts of 2 rows each, in order, the last finishing it;
// revisit=fixed(1) makes every insert go back to the oldest partly written
// partition, so partition 1 is done before partition 2 begins.
func TestVisits(t *testing.T) {
	text := CQLType{Name: "text"}
	k, _ := NewGenerator("k", text, nil, nil, nil)
	c, _ := NewGenerator("c", text, nil, nil, MustParseDist("fixed(10)"))
	v, _ := NewGenerator("v", text, nil, nil, nil)
	g := NewPartitionGen([]*Generator{k}, []*Generator{c}, []*Generator{v})
	sm := NewSeedManager(SeqPopulation(1, 100, false), mustSpec(t, "fixed(5)"), mustSpec(t, "fixed(1)"))
	p := NewPartition(g)
	p.Mark = sm.Done
	r := rand.New(rand.NewPCG(1, 2))
	all := NewPartition(g)
	for part := int64(1); part <= 2; part++ {
		all.Reset(part)
		all.Select(r, 1, 1, 0)
		if len(all.Rows) != 10 {
			t.Fatalf("partition %d has %d rows", part, len(all.Rows))
		}
		for visit := 0; visit < 5; visit++ {
			s := sm.Next(r, true)
			if s.Index != part {
				t.Fatalf("visit %d of partition %d: seed %d", visit, part, s.Index)
			}
			p.Reset(s.Index)
			if !p.Write(r, s, 1, 1) {
				t.Fatalf("visit %d: nothing written", visit)
			}
			if len(p.Rows) != 2 || p.First != (visit == 0) || p.Finished != (visit == 4) {
				t.Fatalf("visit %d: %d rows, first %v, finished %v", visit, len(p.Rows), p.First, p.Finished)
			}
			for i, row := range p.Rows {
				if string(row.CK[0]) != string(all.Rows[2*visit+i].CK[0]) {
					t.Errorf("visit %d row %d: %q, want %q", visit, i, row.CK[0], all.Rows[2*visit+i].CK[0])
				}
			}
		}
	}
	if len(sm.pool) != 0 || len(sm.managing) != 0 {
		t.Errorf("pool %v, managing %v: want both empty once the partitions are done", sm.pool, sm.managing)
	}
}
