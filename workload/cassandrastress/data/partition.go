package data

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
)

// PartitionGen is the original's PartitionGenerator
// (generate/PartitionGenerator.java in scylladb/cassandra-stress): the
// generators of a table's partition key, clustering and value columns.
type PartitionGen struct {
	PK, CK, Vals []*Generator
	// descAvg[i] is the average number of rows below one value of
	// clustering column i (clusteringDescendantAverages).
	descAvg []int64
	// compAvg[i] is the average count of clustering column i's values
	// (clusteringComponentAverages).
	compAvg          []int64
	MinRows, MaxRows float64
	// Sorted is -pop contents=sorted: each clustering level in its values'
	// order (PartitionGenerator.Order.SORTED), else in generation order.
	Sorted bool
	// Shuffled is -pop contents=shuffled: each clustering level shuffled
	// (Order.SHUFFLED), by a random seeded from ShuffleSeed and the
	// level's seed, where the original's is unseeded (ThreadLocalRandom):
	// a level comes out the same at every visit of a partition in the
	// run, and again in a run of the same ShuffleSeed.
	Shuffled    bool
	ShuffleSeed uint64
}

// NewPartitionGen groups a table's generators; the slices are kept.
func NewPartitionGen(pk, ck, vals []*Generator) *PartitionGen {
	avg := make([]int64, len(ck))
	g := &PartitionGen{PK: pk, CK: ck, Vals: vals, descAvg: make([]int64, len(ck)), compAvg: avg, MinRows: 1, MaxRows: 1}
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

// LevelOverhead is the bytes a clustering value costs a Partition besides
// its own: its slice in the level and its entry in the set of the level's
// values.
const LevelOverhead = 64

// Footprint is the most one partition of a PartitionGen takes.
type Footprint struct {
	// Rows is the most rows of a partition: the product of the clustering
	// columns' largest cluster counts (1 without clustering columns).
	Rows float64
	// RowBytes is the most bytes of one row: the key, clustering and value
	// columns, serialized.
	RowBytes int64
	// LevelBytes is the most a Partition holds of the clustering levels
	// while it visits a partition: each level's largest count of values,
	// at their largest, with LevelOverhead each.
	LevelBytes int64
	// Levels are the largest cluster count of each clustering column.
	Levels []int64
}

// Footprint is the most one partition of g takes (see Footprint).
func (g *PartitionGen) Footprint() Footprint {
	f := Footprint{Rows: 1}
	for _, c := range g.PK {
		f.RowBytes = satAdd(f.RowBytes, c.MaxBytes())
	}
	for _, c := range g.CK {
		n := max(c.Clustering().Most(), 0)
		f.Levels = append(f.Levels, n)
		f.Rows *= float64(n)
		f.RowBytes = satAdd(f.RowBytes, c.MaxBytes())
		f.LevelBytes = satAdd(f.LevelBytes, satMul(n, satAdd(c.MaxBytes(), LevelOverhead)))
	}
	for _, c := range g.Vals {
		f.RowBytes = satAdd(f.RowBytes, c.MaxBytes())
	}
	return f
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
	// the first level's drawn count (before duplicates are dropped)
	firstCount int

	// the iterator (see advance)
	head, cur, last []int
	ck              [][]byte
	hasNext, write  bool
	seed            *Seed
	own             Seed // Select's

	// First and Finished: the last Write was the seed's first insert, and
	// it reached the partition's end.
	First, Finished bool
	// Mark, if set, is told of a write that was the seed's first or
	// reached the partition's end, as the original's iterator tells its
	// SeedManager (SeedManager.Done).
	Mark func(s *Seed, first, last bool)

	Rows []*UserRow // the rows of the last Write, Read or Select
	pool []*UserRow
	max  int
	r    *rand.Rand
	// the shuffle's random (contents=shuffled)
	pcg rand.PCG
	shr *rand.Rand
}

// NewPartition makes an iterator over g's partitions.
func NewPartition(g *PartitionGen) *Partition {
	n := len(g.CK)
	p := &Partition{g: g, Key: make([][]byte, len(g.PK)), levels: make([][][]byte, n), levelBuf: make([][]byte, n),
		levelSeed: make([]int64, n), rollmod: make([]float64, n), chancemod: make([]float64, n), total: float64(len(g.Vals)),
		head: make([]int, n), cur: make([]int, n), last: make([]int, n), ck: make([][]byte, n)}
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
		if d == 0 {
			p.firstCount = n
		}
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
		if g.Sorted && len(vals) > 1 && sortable(c.kind) {
			sortLevel(c, vals)
		} else if g.Shuffled && len(vals) > 1 {
			p.shuffle(vals, s)
		}
		p.levels[d] = vals
		if len(vals) > 0 {
			p.levelSeed[d] = c.Seed(s, vals[0])
		}
	}
}

// shuffle is the original's SHUFFLED fill of a level: in turn, each place
// takes one of the values not yet placed, at random; the random is seeded
// from the generator's ShuffleSeed and the level's seed.
func (p *Partition) shuffle(vals [][]byte, seed int64) {
	p.pcg.Seed(p.g.ShuffleSeed, uint64(seed))
	if p.shr == nil {
		p.shr = rand.New(&p.pcg)
	}
	for i := 0; i < len(vals)-1; i++ {
		j := i + p.shr.IntN(len(vals)-i)
		vals[i], vals[j] = vals[j], vals[i]
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

// ExpectedRows is the first level's drawn count times the rows below each
// of its values: the rows a read aims at (setNoLastRow).
func (p *Partition) ExpectedRows() int64 {
	if len(p.g.CK) == 0 {
		return 1
	}
	return int64(p.firstCount) * p.g.descAvg[0]
}

// Seed is the original's Seed (generate/Seed.java): a population index,
// the number of inserts its partition is split over (-insert visits=) and
// how far those inserts have got, in rows of the partition's expected
// layout. Shared by the workers.
type Seed struct {
	Index    int64
	Visits   int
	position atomic.Int32
	saved    bool // in the SeedManager's revisit pool
}

// Position is the rows the seed's inserts have claimed so far.
func (s *Seed) Position() int { return int(s.position.Load()) }

// Write picks the rows of the partition's next insert, as the original's
// MultiRowIterator.reset does for a write: the seed's next share of the
// partition (all of it for a single visit, else the expected rows over the
// visits), each row taken with chance useChance (the select ratio). It
// returns false if the seed had no rows left. p.First and p.Finished then
// say whether this was the seed's first insert and whether the partition
// is done, which the SeedManager needs.
func (p *Partition) Write(r *rand.Rand, s *Seed, useChance, rowPop float64) bool {
	p.start(r, rowPop, 0)
	p.write, p.seed = true, s
	if len(p.g.CK) == 0 {
		p.First, p.Finished = true, true
		p.emitRow(nil, p.idseed)
		if p.Mark != nil {
			p.Mark(s, true, true)
		}
		return true
	}
	p.setUseChance(useChance)
	expected := p.firstCount * int(p.g.descAvg[0])
	for {
		p.fill(0)
		count := max(1, expected/max(1, s.Visits))
		if s.Visits == 1 {
			count = 1 + javaInt(p.g.MaxRows)
		}
		pos := int(s.position.Add(int32(count))) - count
		if pos < 0 {
			// the position went past a Java int, as the original's
			// would: there is nothing left of the partition to write
			return false
		}
		p.First = pos == 0
		p.setLastRow(pos + count - 1)
		switch p.seek(pos) {
		case endOfPartition:
			return false
		case success:
			p.collect()
			return true
		}
	}
}

// Read picks about target rows of the partition for a query, as the
// original's reset for a read: a use chance of target over the expected
// rows (of the rows written so far, for a seed partly written: position),
// at most limit rows (0: no limit), the first row always found.
func (p *Partition) Read(r *rand.Rand, position, target int, rowPop float64, limit int) {
	p.start(r, rowPop, limit)
	p.write, p.seed = false, nil
	if len(p.g.CK) == 0 {
		p.emitRow(nil, p.idseed)
		return
	}
	var expected int
	if position != 0 {
		expected = p.setLastRow(position - 1)
	} else {
		for i := range p.last {
			p.last[i] = math.MaxInt32
		}
		expected = p.firstCount * int(p.g.descAvg[0])
	}
	p.setUseChance(max(0, min(1, float64(target)/float64(expected))))
	p.fill(0)
	p.seek(0)
	p.collect()
}

// Bounds is the original's resetToBounds for its validate op
// (ValidatingSchemaQuery), on the partition of the last Reset, whose
// generator should sort (the original reads the bounds in SORTED order):
// every row (a use chance of 1), all of the partition at depth 0, else
// from one random position of the first depth clustering levels to
// another (the later one's prefix: its first row), both included. lo and
// hi are the two positions' values. At depth 0 every column is generated
// (a row population of 1); deeper, none of the value columns is (they are
// nil): the original's resetToBounds sets no row population there, so its
// iterator keeps its initial 0.
func (p *Partition) Bounds(r *rand.Rand, depth int) (lo, hi [][]byte) {
	if depth == 0 || len(p.g.CK) == 0 {
		p.Read(r, 0, math.MaxInt32, 1, 0)
		return nil, nil
	}
	p.start(r, 0, 0)
	p.write, p.seed = false, nil
	p.setUseChance(1)
	for d := range depth {
		if len(p.levels[d]) == 0 {
			return nil, nil // no rows (the original's nextInt(0) throws)
		}
	}
	p.fill(0)
	b1, b2 := p.randomBound(r, depth), p.randomBound(r, depth)
	if slices.Compare(b1, b2) > 0 {
		b1, b2 = b2, b1
	}
	clear(p.last)
	copy(p.last, b2)
	clear(p.cur)
	copy(p.cur, b1)
	if p.seekCur() == success {
		p.collect()
	}
	for d := range depth {
		lo = append(lo, p.levels[d][b1[d]])
		hi = append(hi, p.levels[d][b2[d]])
	}
	return lo, hi
}

// randomBound is the original's: a random position among the values of
// each of the first depth levels (every value of a level has the same
// children).
func (p *Partition) randomBound(r *rand.Rand, depth int) []int {
	pos := make([]int, depth)
	for d := range pos {
		pos[d] = r.IntN(len(p.levels[d]))
	}
	return pos
}

// Select is Write of a fresh single-visit seed: every row with chance
// useChance.
func (p *Partition) Select(r *rand.Rand, useChance, rowPop float64, limit int) {
	s := &p.own
	s.Visits = 1
	s.position.Store(0)
	p.Write(r, s, useChance, rowPop)
	if limit > 0 && len(p.Rows) > limit {
		p.Rows = p.Rows[:limit]
	}
}

func (p *Partition) start(r *rand.Rand, rowPop float64, limit int) {
	p.Rows = p.Rows[:0]
	p.r, p.rowPop, p.max = r, rowPop, limit
	p.First, p.Finished = false, false
}

func (p *Partition) setUseChance(c float64) {
	if p.useChance < 1 {
		for i := range p.rollmod {
			p.rollmod[i], p.chancemod[i] = 1, 1
		}
	}
	p.useChance = c
}

type seekState int

const (
	endOfPartition seekState = iota
	afterLimit
	success
)

// The iterator's state, level by level: the values of level d still to
// visit are levels[d][head[d]:] (head -1: a placeholder ahead of them, as
// the original pushes one to be polled first); cur[d] is the position of
// the current value, last[d] the last position this insert may visit.

func (p *Partition) fill(d int) { p.head[d] = 0 }

func (p *Partition) left(d int) int { return len(p.levels[d]) - p.head[d] }

func (p *Partition) poll(d int) {
	if p.head[d] < len(p.levels[d]) {
		p.head[d]++
	}
}

func (p *Partition) peek(d int) []byte { return p.levels[d][p.head[d]] }

// decompose spreads a row position over the levels by their mean counts.
func (p *Partition) decompose(scalar int, out []int) {
	g := p.g
	for i := range out {
		avg := max(1, int(g.descAvg[i]))
		out[i] = scalar / avg
		scalar %= avg
	}
	for i := len(out) - 1; i > 0; i-- {
		avg := max(1, int(g.compAvg[i]))
		if out[i] >= avg {
			out[i-1] += out[i] / avg
			out[i] %= avg
		}
	}
}

// setLastRow makes position the last row to visit; it returns the
// expected number of rows up to it.
func (p *Partition) setLastRow(position int) int {
	p.decompose(position, p.last)
	n := 0
	for i, l := range p.last {
		n += l * int(p.g.descAvg[i])
	}
	return n + 1
}

// compareToLast is 1 past the last row, 0 at it and -1 before it, judged
// down to level depth as the original's compareToLastRow does.
func (p *Partition) compareToLast(depth int) int {
	prev := 0
	for i := 0; i <= depth; i++ {
		c, l, r := p.cur[i], p.last[i], p.left(i)
		switch {
		case prev < 0:
			if r > 1 {
				return -1
			}
		case c > l:
			return 1
		case c == l:
		case r == 1:
			prev = c - l
		default:
			return -1
		}
	}
	return 0
}

func (p *Partition) seek(scalar int) seekState {
	if scalar == 0 {
		p.cur[0] = -1
		p.head[0]--
		return p.setHasNext(p.advance(0, true))
	}
	p.decompose(scalar, p.cur)
	return p.seekCur()
}

// seekCur is the original's seekToCurrentRow: the iterator at the
// position p.cur (or the next that exists), limited to p.last.
func (p *Partition) seekCur() seekState {
	n := len(p.cur)
	for i := 0; i < n; i++ {
		if i != 0 {
			p.fill(i)
		}
		for c := p.cur[i]; c > 0; c-- {
			p.poll(i)
		}
		if p.left(i) == 0 {
			// a position that does not exist: on to the next real one
			j := i
			for {
				if j--; j < 0 {
					return p.setHasNext(false)
				}
				p.poll(j)
				if p.left(j) > 0 {
					break
				}
			}
			p.cur[j]++
			for k := j + 1; k < n; k++ {
				p.cur[k] = 0
			}
			for j < i {
				j++
				p.fill(j)
			}
		}
		p.ck[i] = p.peek(i)
	}
	if p.compareToLast(n-1) > 0 {
		return p.setHasNext(false)
	}
	p.cur[n-1]--
	p.head[n-1]--
	return p.setHasNext(p.advance(n-1, true))
}

// advance moves to the next row to visit, from level d: each value is
// descended into with the use chance, adjusted by the odds of having
// reached its level; first forces a row at the last position.
func (p *Partition) advance(d int, first bool) bool {
	n := len(p.cur)
	p.poll(d)
	p.cur[d]++
	for {
		if p.left(d) == 0 {
			if d == 0 {
				return false
			}
			d--
			p.poll(d)
			if p.cur[d]++; p.cur[d] > p.last[d] {
				return false
			}
			continue
		}
		cmp := p.compareToLast(d)
		if cmp > 0 {
			return false
		}
		chance := p.useChance * p.chancemod[d]
		// the original compares with the float literal 0.99999f
		if first && cmp == 0 || chance > float64(float32(0.99999)) || chance >= p.r.Float64() {
			p.ck[d] = p.peek(d)
			d++
			if d == n {
				return true
			}
			if p.useChance < 1 {
				p.rollmod[d] = p.rollmod[d-1] / min(1, chance)
				p.chancemod[d] = float64(p.g.descAvg[d]) * p.rollmod[d]
			}
			p.cur[d] = 0
			p.fill(d)
			continue
		}
		if cmp >= 0 {
			return false
		}
		p.poll(d)
		p.cur[d]++
	}
}

func (p *Partition) setHasNext(has bool) seekState {
	p.hasNext = has
	if has {
		return success
	}
	last := p.left(0) == 0
	if p.write && last {
		p.Finished = true
	}
	if p.write && (p.First || last) && p.Mark != nil {
		p.Mark(p.seed, p.First, last)
	}
	if last {
		return endOfPartition
	}
	return afterLimit
}

// collect takes the rows from the current one while there are more (or
// up to the limit).
func (p *Partition) collect() {
	leaf := len(p.cur) - 1
	for p.hasNext {
		// the leaf value folded into the leaf level's seed (which came
		// from its first value)
		p.emitRow(p.ck, p.g.CK[leaf].Seed(p.levelSeed[leaf], p.peek(leaf)))
		if p.max > 0 && len(p.Rows) >= p.max {
			return
		}
		p.setHasNext(p.advance(leaf, false))
	}
}

func (p *Partition) emitRow(ck [][]byte, seed int64) {
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

// javaInt is Java's (int) cast of a double: saturating, NaN to 0.
func javaInt(f float64) int {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}
