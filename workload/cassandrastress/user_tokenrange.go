package cassandrastress

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/workload/cassandrastress/profile"
)

// token_range_queries: the original's TokenRangeQuery and
// TokenRangeIterator (operations/userdefined/TokenRangeQuery.java,
// generate/TokenRangeIterator.java): each operation reads one page of a
// token range of the ring, the worker going on with that range's next page
// until it is read (in the warm-up, one page of at most 100 rows per
// range), then the next range nobody has taken. Rows count what a page
// returned, partitions the distinct tokens not seen before in the range.

// tokenRange is (start, end] of the ring, as the driver's TokenRange.
type tokenRange struct{ start, end int64 }

// userTR is one of the profile's token_range_queries.
type userTR struct {
	def      *profile.TokenRangeQuery
	ranges   []tokenRange
	pageSize int
	// the query of a range is head start mid end: token(pk) > start AND
	// token(pk) <= end
	head, mid string
}

// ringRanges are the ranges between the nodes' tokens as the original
// takes them from the driver (StressProfile.loadTokenRangesV3): (t[i],
// t[i+1]], the one round the end of the ring split at the minimum token
// into (t[last], MIN] and (MIN, t[0]] (a bound of MIN is the ring's end to
// Cassandra), sorted by start then end; a ring of one token is the single
// range (MIN, MIN], the whole ring.
func ringRanges(ctx context.Context, sess *gocql.Session) ([]tokenRange, error) {
	var toks []int64
	for _, q := range []string{"SELECT tokens FROM system.local", "SELECT tokens FROM system.peers"} {
		iter := sess.Query(q).IterContext(ctx)
		var ts []string
		for iter.Scan(&ts) {
			for _, t := range ts {
				v, err := strconv.ParseInt(t, 10, 64)
				if err != nil {
					iter.Close()
					return nil, fmt.Errorf("token %q: only Murmur3Partitioner tokens are supported", t)
				}
				toks = append(toks, v)
			}
		}
		if err := iter.Close(); err != nil {
			return nil, err
		}
	}
	sort.Slice(toks, func(i, j int) bool { return toks[i] < toks[j] })
	toks = slices.Compact(toks)
	switch len(toks) {
	case 0:
		return nil, fmt.Errorf("the nodes list no tokens")
	case 1:
		return []tokenRange{{math.MinInt64, math.MinInt64}}, nil
	}
	var out []tokenRange
	for i, t := range toks {
		end := toks[(i+1)%len(toks)]
		if t > end && end != math.MinInt64 {
			out = append(out, tokenRange{t, math.MinInt64}, tokenRange{math.MinInt64, end})
			continue
		}
		out = append(out, tokenRange{t, end})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].start != out[j].start {
			return out[i].start < out[j].start
		}
		return out[i].end < out[j].end
	})
	return slices.Compact(out), nil
}

// splitRanges is the original's TokenRangeIterator.maybeSplitRanges for
// -tokenrange split-factor=: every range split evenly in factor by the
// Java driver 3 (TokenRange.splitEvenly), all of them sorted by start then
// end, an equal range kept once (its TreeSet). A factor of 1 or less
// leaves the ranges as they are.
func splitRanges(ranges []tokenRange, factor int) []tokenRange {
	if factor <= 1 {
		return ranges
	}
	var out []tokenRange
	for _, r := range ranges {
		start := r.start
		for _, p := range m3pSplit(r.start, r.end, factor) {
			out = append(out, tokenRange{start, p})
			start = p
		}
		out = append(out, tokenRange{start, r.end})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].start != out[j].start {
			return out[i].start < out[j].start
		}
		return out[i].end < out[j].end
	})
	return slices.Compact(out)
}

// m3pSplit is the driver's Murmur3 Token.Factory.split: the factor-1
// points that cut (start, end] in parts of as many tokens (the first ones
// a token longer), over a ring of MAX-MIN tokens, (MIN, MIN] being the
// whole ring up to MAX.
func m3pSplit(start, end int64, factor int) []int64 {
	if start == end && start == math.MinInt64 {
		end = math.MaxInt64
	}
	ringEnd := big.NewInt(math.MaxInt64)
	ringLen := new(big.Int).Sub(ringEnd, big.NewInt(math.MinInt64))
	rng := new(big.Int).Sub(big.NewInt(end), big.NewInt(start))
	if rng.Sign() < 0 {
		rng.Add(rng, ringLen)
	}
	div, rem := new(big.Int).QuoRem(rng, big.NewInt(int64(factor)), new(big.Int))
	left := rem.Int64()
	divPlusOne := new(big.Int).Add(div, big.NewInt(1))
	cur := big.NewInt(start)
	points := make([]int64, 0, factor-1)
	for i := 1; i < factor; i++ {
		if left > 0 {
			cur.Add(cur, divPlusOne)
		} else {
			cur.Add(cur, div)
		}
		left--
		if cur.Cmp(ringEnd) > 0 {
			cur.Sub(cur, ringLen)
		}
		points = append(points, cur.Int64())
	}
	return points
}

// newTR builds the queries of def over ranges: '*' names every column,
// as the original lists them so as to add token(pk).
func (sp *userSpec) newTR(def *profile.TokenRangeQuery, ranges []tokenRange) *userTR {
	cols := def.Columns
	if strings.TrimSpace(cols) == "*" {
		var names []string
		for _, cs := range [][]column{sp.pk, sp.ck, sp.vs} {
			for _, c := range cs {
				names = append(names, quoteIdent(c.name))
			}
		}
		cols = strings.Join(names, ", ")
	}
	var pk []string
	for _, c := range sp.pk {
		pk = append(pk, quoteIdent(c.name))
	}
	tok := "token(" + strings.Join(pk, ", ") + ")"
	return &userTR{def: def, ranges: ranges, pageSize: def.PageSize,
		head: "SELECT " + tok + ", " + cols + " FROM " + quoteIdent(sp.p.Table) + " WHERE " + tok + " > ", mid: " AND " + tok + " <= "}
}

// cql is the query of range i (made when it is read: with split-factor=
// the ranges can be many).
func (tr *userTR) cql(i int) string {
	r := tr.ranges[i]
	return tr.head + strconv.FormatInt(r.start, 10) + tr.mid + strconv.FormatInt(r.end, 10)
}

// trIterator is the ranges still to read in one run, shared by its workers.
type trIterator struct {
	mu   sync.Mutex
	next int
	n    int
	wrap bool
}

func (it *trIterator) update() {
	it.mu.Lock()
	if it.wrap && it.next >= it.n {
		it.next = 0
	}
	it.mu.Unlock()
}

func (it *trIterator) exhausted() bool {
	it.mu.Lock()
	defer it.mu.Unlock()
	return it.next >= it.n
}

// take is the index of the next range, or -1.
func (it *trIterator) take() int {
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.next >= it.n {
		return -1
	}
	it.next++
	return it.next - 1
}

// trState is a worker's range being read.
type trState struct {
	rng    int
	paging []byte
	seen   map[int64]struct{}
}

type discardCell struct{}

func (*discardCell) UnmarshalCQL(gocql.TypeInfo, []byte) error { return nil }

var discard discardCell

// tokenRangeReady is TokenRangeQuery.ready: false once every range is read
// (without -tokenrange wrap) and the worker has none under way, or when
// n= is used up.
func (wk *userWorker) tokenRangeReady(o *userOp) bool {
	it := wk.w.trIters[o]
	it.update()
	if it.exhausted() && wk.trStates[o] == nil {
		return false
	}
	return wk.w.take(1) > 0
}

// tokenRangePage reads the next page: the run of TokenRangeQuery's
// JavaDriverRun.
func (wk *userWorker) tokenRangePage(ctx context.Context, o *userOp) (int, int, error) {
	tr := o.tr
	st := wk.trStates[o]
	if st == nil {
		i := wk.w.trIters[o].take()
		if i < 0 {
			return 0, 0, nil // nothing left to read
		}
		st = &trState{rng: i, seen: map[int64]struct{}{}}
		wk.trStates[o] = st
	}
	pageSize := tr.pageSize
	if wk.w.warmup {
		pageSize = min(100, pageSize)
	}
	sess := wk.sessions[o.spec.p.Keyspace]
	cql := tr.cql(st.rng)
	iter := sess.Query(cql).Consistency(wk.w.cl).PageSize(pageSize).PageState(st.paging).IterContext(ctx)
	cols := len(iter.Columns())
	for len(wk.trDst) < cols {
		wk.trDst = append(wk.trDst, &discard)
	}
	var tok int64
	dst := append(wk.trArgs[:0], &tok)
	dst = append(dst, wk.trDst[1:cols]...)
	wk.trArgs = dst
	rows, parts := 0, 0
	for iter.Scan(dst...) {
		rows++
		if _, ok := st.seen[tok]; !ok {
			st.seen[tok] = struct{}{}
			parts++
		}
	}
	next := iter.PageState()
	if err := iter.Close(); err != nil {
		return 0, 0, err
	}
	st.paging = append(st.paging[:0], next...)
	done := len(next) == 0
	if !done {
		// the driver's isExhausted: it fetches the next page to know, so
		// a range ends with the page that finds nothing after it
		more := sess.Query(cql).Consistency(wk.w.cl).PageSize(pageSize).PageState(next).IterContext(ctx)
		n, last := more.NumRows(), len(more.PageState()) == 0
		if err := more.Close(); err != nil {
			return 0, 0, err
		}
		done = n == 0 && last
	}
	if done || wk.w.warmup {
		wk.trStates[o] = nil
	}
	return parts, rows, nil
}
