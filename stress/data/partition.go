package data

import (
	"math/rand/v2"
)

// PartitionGen is the original's PartitionGenerator
// (generate/PartitionGenerator.java in scylladb/cassandra-stress): the
// generators of a table's partition key, clustering and value columns.
type PartitionGen struct {
	PK, CK, Vals []*Generator
	// descAvg[i] is the average number of rows below one value of
	// clustering column i (clusteringDescendantAverages).
	descAvg          []int64
	MinRows, MaxRows float64
}

// NewPartitionGen groups a table's generators; the slices are kept.
func NewPartitionGen(pk, ck, vals []*Generator) *PartitionGen {
	g := &PartitionGen{PK: pk, CK: ck, Vals: vals, descAvg: make([]int64, len(ck)), MinRows: 1, MaxRows: 1}
	avg := make([]int64, len(ck))
	for i, c := range ck {
		avg[i] = average(c.Clustering())
	}
	for i := len(ck) - 1; i >= 0; i-- {
		g.descAvg[i] = 1
		if i < len(ck)-1 {
			g.descAvg[i] = avg[i+1] * g.descAvg[i+1]
		}
	}
	for _, c := range ck {
		g.MaxRows *= float64(c.Clustering().MaxValue())
		g.MinRows *= float64(c.Clustering().MinValue())
	}
	return g
}

// UserRow is one generated row: its clustering values and value columns, each
// serialized; a nil value is a column left out by row-population.
type UserRow struct {
	CK, Vals [][]byte
	buf      []byte
}

// Partition is the original's PartitionIterator: one partition at a time,
// reusing its buffers. Not safe for concurrent use; each worker makes its
// own PartitionGen (the generators are stateful) and Partition.
type Partition struct {
	g      *PartitionGen
	Key    [][]byte
	keyBuf []byte
	idseed int64
	// the distinct values of each clustering level; every value of a level
	// has the same children, as in the original, whose seed for a level
	// comes from the first value of the level above.
	levels    [][][]byte
	levelBuf  [][]byte
	levelSeed []int64
	// the original keeps these across partitions (MultiRowIterator)
	useChance          float64
	rollmod, chancemod []float64
	rowPop             float64
	total              float64

	ends []int
	uniq map[uint64]int

	Rows  []*UserRow // the rows of the last Select
	pool  []*UserRow
	found bool
	max   int
	r     *rand.Rand
}

// NewPartition makes an iterator over g's partitions.
func NewPartition(g *PartitionGen) *Partition {
	n := len(g.CK)
	p := &Partition{g: g, Key: make([][]byte, len(g.PK)), levels: make([][][]byte, n), levelBuf: make([][]byte, n),
		levelSeed: make([]int64, n), rollmod: make([]float64, n), chancemod: make([]float64, n), total: float64(len(g.Vals))}
	if n > 0 {
		p.rollmod[0] = 1
		p.chancemod[0] = float64(g.descAvg[0])
	}
	return p
}

// Reset moves to the partition of seed (a population index): its key
// columns, each generator seeded with seed, and the idseed they fold into
// (PartitionIterator.setSeed), then the values of each clustering level.
func (p *Partition) Reset(seed int64) {
	g := p.g
	p.keyBuf = p.keyBuf[:0]
	var offs [8]int
	starts := offs[:0]
	var idseed int64
	for _, k := range g.PK {
		k.SetSeed(seed)
		at := len(p.keyBuf)
		p.keyBuf = k.Append(p.keyBuf)
		starts = append(starts, at)
		idseed = k.Seed(idseed, p.keyBuf[at:])
	}
	for i := range g.PK {
		end := len(p.keyBuf)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		p.Key[i] = p.keyBuf[starts[i]:end:end]
	}
	p.idseed = idseed
	for d, c := range g.CK {
		s := idseed
		if d > 0 {
			s = p.levelSeed[d-1]
		}
		c.SetSeed(s)
		n := int(c.NextCluster())
		buf := p.levelBuf[d][:0]
		ends := p.ends[:0]
		clear(p.uniq)
		for i := 0; i < n; i++ {
			at := len(buf)
			buf = c.Append(buf)
			if n > 1 && p.dup(buf, ends, at) {
				buf = buf[:at]
				continue
			}
			ends = append(ends, len(buf))
		}
		p.ends = ends
		p.levelBuf[d] = buf
		vals := p.levels[d][:0]
		prev := 0
		for _, e := range ends {
			vals = append(vals, buf[prev:e:e])
			prev = e
		}
		p.levels[d] = vals
		if len(vals) > 0 {
			p.levelSeed[d] = c.Seed(s, vals[0])
		}
	}
}

// dup says whether buf[at:] is already among the values ending at ends,
// the original's HashSet of a level's values; if not, it is added.
func (p *Partition) dup(buf []byte, ends []int, at int) bool {
	v := buf[at:]
	h := uint64(14695981039346656037)
	for _, b := range v {
		h = (h ^ uint64(b)) * 1099511628211
	}
	for j, ok := p.uniq[h]; ok; j, ok = p.uniq[h] {
		prev := 0
		if j > 0 {
			prev = ends[j-1]
		}
		if string(buf[prev:ends[j]]) == string(v) {
			return true
		}
		h++ // another value with this hash: probe on
	}
	if p.uniq == nil {
		p.uniq = map[uint64]int{}
	}
	p.uniq[h] = len(ends)
	return false
}

// ExpectedRows is the first level's count times the rows below each of
// its values: the rows a read aims at (setNoLastRow).
func (p *Partition) ExpectedRows() int64 {
	if len(p.g.CK) == 0 {
		return 1
	}
	return int64(len(p.levels[0])) * p.g.descAvg[0]
}

// SelectTarget picks about target rows, as a read does: a use chance of
// target over the expected rows.
func (p *Partition) SelectTarget(r *rand.Rand, target int, rowPop float64) {
	p.Select(r, max(0, min(1, float64(target)/float64(p.ExpectedRows()))), rowPop, target)
}

// Select visits the rows of the partition, each with chance useChance (the
// select ratio of an insert), as MultiRowIterator does: the chance is
// rolled at each clustering level, adjusted by the odds of having reached
// it, and if no row was chosen the last one is. rowPop is the share of
// value columns filled (row-population); limit > 0 stops after that many
// rows. The rows are in p.Rows.
func (p *Partition) Select(r *rand.Rand, useChance, rowPop float64, limit int) {
	p.Rows = p.Rows[:0]
	p.r, p.rowPop, p.max, p.found = r, rowPop, limit, false
	if len(p.g.CK) == 0 {
		p.emit(nil, p.idseed)
		return
	}
	if p.useChance < 1 {
		for i := range p.rollmod {
			p.rollmod[i], p.chancemod[i] = 1, 1
		}
	}
	p.useChance = useChance
	var ck [16][]byte
	p.walk(0, true, ck[:0])
}

// walk visits level d; last says every level above is at its last value.
func (p *Partition) walk(d int, last bool, ck [][]byte) bool {
	vals := p.levels[d]
	leaf := d == len(p.levels)-1
	for i, v := range vals {
		isLast := last && i == len(vals)-1
		chance := p.useChance * p.chancemod[d]
		if !(isLast && !p.found) && !(chance > 0.99999) && !(chance >= p.r.Float64()) {
			continue
		}
		if leaf {
			// MultiRowIterator.advance: the leaf value folded into the
			// leaf level's seed (which came from its first value)
			rowSeed := p.g.CK[d].Seed(p.levelSeed[d], v)
			p.emit(append(ck, v), rowSeed)
			p.found = true
			if p.max > 0 && len(p.Rows) >= p.max {
				return false
			}
			continue
		}
		if p.useChance < 1 {
			p.rollmod[d+1] = p.rollmod[d] / min(1, chance)
			p.chancemod[d+1] = float64(p.g.descAvg[d+1]) * p.rollmod[d+1]
		}
		if !p.walk(d+1, isLast, append(ck, v)) {
			return false
		}
	}
	return true
}

func (p *Partition) emit(ck [][]byte, seed int64) {
	n := len(p.Rows)
	if n == len(p.pool) {
		p.pool = append(p.pool, &UserRow{})
	}
	row := p.pool[n]
	row.CK = append(row.CK[:0], ck...)
	row.buf = row.buf[:0]
	row.Vals = row.Vals[:0]
	var offs [64]int
	ends := offs[:0]
	for i, g := range p.g.Vals {
		if float64(i+1)/p.total > p.rowPop {
			ends = append(ends, -1)
			continue
		}
		g.SetSeed(seed)
		row.buf = g.Append(row.buf)
		ends = append(ends, len(row.buf))
	}
	prev := 0
	for _, e := range ends {
		if e < 0 {
			row.Vals = append(row.Vals, nil)
			continue
		}
		row.Vals = append(row.Vals, row.buf[prev:e:e])
		prev = e
	}
	p.Rows = append(p.Rows, row)
}
