package data

import (
	"math/rand/v2"
	"sync"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// SeedManager is the original's SeedManager (generate/SeedManager.java in
// scylladb/cassandra-stress) for the user command: the seeds (population
// indexes) of inserts and queries, and the partitions that inserts have
// written in part, which later inserts revisit. With -insert visits=V a
// partition is written over about V inserts, each of its share of the
// expected rows; -insert revisit=DIST picks which partly written partition
// an insert goes back to (an index into them in the order they were begun,
// from the inverted DIST: with the default uniform(1..1M) an insert
// revisits one of k partitions with chance k/1M), and bounds how many are
// kept. Safe for concurrent use.
type SeedManager struct {
	pop          *Population
	visits       *Dist
	sample       *Dist
	sampleOffset int64
	sampleSize   int
	immediate    bool // visits average over 1: keep a partition from its start

	mu       sync.Mutex
	managing map[int64]*Seed // partitions being written
	pool     []*Seed         // the original's DynamicList of partly written ones
}

// NewSeedManager makes the seeds of one run from -pop and -insert.
func NewSeedManager(pop *Population, visits, revisit settings.Dist) *SeedManager {
	inv := revisit
	inv.Inverted = !inv.Inverted
	sample := FromSpec(inv)
	r := FromSpec(revisit)
	lo, hi := min(r.MinValue(), r.MaxValue()), max(r.MinValue(), r.MaxValue())
	v := FromSpec(visits)
	return &SeedManager{pop: pop, visits: v, sample: sample, sampleOffset: lo, sampleSize: int(1 + hi - lo),
		immediate: average(v) > 1, managing: map[int64]*Seed{}}
}

// Revisits reports whether visits= averages above 1, the one case where
// writes of one-row partitions (the predefined commands') go back to
// earlier ones: each is kept in the revisit pool from its first write, and
// with one row it is finished at once, so it never leaves it (the
// original's updateSampleImmediately, then markLastWrite of a first
// write).
func (m *SeedManager) Revisits() bool { return m.immediate }

// Next is the seed of the next operation (nil once a no-wrap sequence is
// used up). A query takes the next population index, with the position of
// an insert that is writing it; an insert revisits a partly written
// partition if the revisit draw lands on one, else begins a new one.
func (m *SeedManager) Next(r *rand.Rand, write bool) *Seed {
	if !write {
		idx, pos, ok := m.NextRead(r)
		if !ok {
			return nil
		}
		s := &Seed{Index: idx, Visits: 1}
		s.position.Store(int32(pos))
		return s
	}
	for {
		i := m.sample.Next(r) - m.sampleOffset
		m.mu.Lock()
		if i >= 0 && i < int64(len(m.pool)) && m.pool[i].saved {
			s := m.pool[i]
			m.mu.Unlock()
			return s
		}
		m.mu.Unlock()
		idx, ok := m.pop.Next(r)
		if !ok {
			return nil
		}
		s := &Seed{Index: idx, Visits: int(m.visits.Next(r))}
		m.mu.Lock()
		if m.managing[idx] == nil {
			m.managing[idx] = s
			if !m.immediate || m.save(s, m.sampleSize) {
				m.mu.Unlock()
				return s
			}
			delete(m.managing, idx)
		}
		m.mu.Unlock()
	}
}

// NextRead is Next for a query, without a Seed: the population index (with
// -pop read-lookback=, one looking back over those written) and the rows
// written of it so far if an insert is writing it (else 0).
func (m *SeedManager) NextRead(r *rand.Rand) (idx int64, position int, ok bool) {
	if idx, ok = m.pop.NextRead(r); !ok {
		return 0, 0, false
	}
	m.mu.Lock()
	if s := m.managing[idx]; s != nil {
		position = s.Position()
	}
	m.mu.Unlock()
	return idx, position, true
}

func (m *SeedManager) save(s *Seed, maxSize int) bool {
	if len(m.pool) >= maxSize {
		return false
	}
	m.pool = append(m.pool, s)
	s.saved = true
	return true
}

// Done records an insert of s: first says it was the partition's first,
// last that it reached the partition's end (markFirstWrite and
// markLastWrite). A first write counts the seed written for -pop
// read-lookback= (the original's finishWrite).
func (m *SeedManager) Done(s *Seed, first, last bool) {
	if first {
		m.pop.Wrote(s.Index)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if first && !last && !m.immediate {
		m.save(s, 1<<31-1)
	}
	if last && m.managing[s.Index] == s {
		delete(m.managing, s.Index)
		if !first && s.saved {
			for i, x := range m.pool {
				if x == s {
					m.pool = append(m.pool[:i], m.pool[i+1:]...)
					break
				}
			}
			s.saved = false
		}
	}
}
