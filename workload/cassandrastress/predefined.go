package cassandrastress

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/cassandra"
	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/backoff"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	ycsbworkload "github.com/goycsb/ycsb/workload"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

// Kind is one of the predefined operations.
type Kind uint8

const (
	KindWrite Kind = iota
	KindRead
	KindCounterWrite
	KindCounterRead
	NumKinds
)

// kindNames are the original's op type names (its Command enum), which
// head the per-op interval rows and the Results breakdown.
var kindNames = [NumKinds]string{"WRITE", "READ", "COUNTER_WRITE", "COUNTER_READ"}

// kindOps are the operations each kind is measured as: rows of the
// predefined commands' metrics (KindRows), named as the original names
// them, so that errors and the -log json= report say WRITE, READ,
// COUNTER_WRITE and COUNTER_READ.
var kindOps = [NumKinds]measurement.Op{KindRead: 0, KindWrite: 1, KindCounterWrite: 2, KindCounterRead: 3}

// KindRows are the rows of kindOps, by operation. Their order is the
// tie-break order of the -log json= report's sections (see
// measurement.NewOps): READ, WRITE, COUNTER_WRITE, COUNTER_READ, as in
// every report ycsb stress has written.
var KindRows = func() []string {
	rows := make([]string, NumKinds)
	for k, o := range kindOps {
		rows[o] = kindNames[k]
	}
	return rows
}()

func KindOf(c settings.Command) Kind {
	switch c {
	case settings.CmdWrite:
		return KindWrite
	case settings.CmdCounterWrite:
		return KindCounterWrite
	case settings.CmdCounterRead:
		return KindCounterRead
	}
	return KindRead
}

func (k Kind) String() string { return kindNames[k] }

// sortedKinds are the kinds seen, in the original's TreeMap order of
// their names.
func SortedKinds(seen [NumKinds]bool) []Kind {
	order := []Kind{KindCounterRead, KindCounterWrite, KindRead, KindWrite}
	var ks []Kind
	for _, k := range order {
		if seen[k] {
			ks = append(ks, k)
		}
	}
	return ks
}

// Model is what every run of a command line shares: the driver session,
// the statements' text and the data generators; the population is made
// anew for the warm-up and for each measured run, as in the original.
type Model struct {
	// keyspace is the one the statements run in, on the workers'
	// sessions' CQL: its driver session, and its lean request path (nil:
	// the driver's)
	keyspace string
	cl       gocql.Consistency
	serial   gocql.Consistency
	// unprepared sends the lean path's statements as QUERYs (-mode
	// unprepared), which only runs on it (protocol v4)
	unprepared bool
	cols       *data.Columns
	keySize    int
	add        *data.Dist // counter increments
	pop        *data.Population
	// seeds are the writes' seeds with -insert visits= averaging above 1
	// (nil: the population's in turn)
	seeds *data.SeedManager
	tries int
	errs  settings.ErrorSettings
	cql   [NumKinds]string
	// validate is false with -errors skip-read-validation.
	validate bool
	// slice is -col slice: reads are SELECT *
	slice bool
	// rowPop is -insert row-population-ratio= (nil: every column)
	rowPop *data.Ratio
	// specDelay is -mode speculativeDelay= (0: off)
	specDelay time.Duration
}

// Predefined is one run's Workload: a mix of kinds (one for the predefined
// commands but mixed) and the stop flag the engine polls.
type Predefined struct {
	m       *Model
	kinds   []Kind
	weights []float64 // cumulative, over kinds
	cluster *data.Dist
	RunState
}

var _ ycsbworkload.Workload = (*Predefined)(nil)

func (w *Predefined) NewTransactor(s *measured.Session, seed uint64) ycsbworkload.Transactor {
	m := w.m
	wk := &worker{w: w, m: m, s: s, r: rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909)),
		row: data.NewRow(m.keySize, m.cols)}
	ops := make([]int, len(w.kinds))
	for i, k := range w.kinds {
		ops[i] = int(kindOps[k])
	}
	wk.waits = w.Waits.newWorker(ops)
	// The statements run on the binding's connection (its CQL).
	c := cqlOf(s)
	driver := c.Driver(m.keyspace)
	n := len(m.cols.Names())
	for _, k := range w.kinds {
		if wk.q[k] != nil {
			continue
		}
		var args []any
		switch k {
		case KindWrite:
			wk.vals = make([]byteArg, n)
			for i := range wk.vals {
				args = append(args, &wk.vals[i])
			}
		case KindCounterWrite:
			wk.deltas = make([]longArg, n)
			for i := range wk.deltas {
				args = append(args, &wk.deltas[i])
			}
		case KindRead:
			wk.got = make([][]byte, n)
			for i := range wk.got {
				wk.dest = append(wk.dest, &wk.got[i])
			}
		}
		args = append(args, &wk.key)
		wk.wst[k] = cassandra.Stmt{CQL: m.cql[k], Serial: m.serial, Unprepared: m.unprepared}
		q := driver.Query(m.cql[k], args...).Consistency(m.cl).Idempotent(true)
		if m.serial != 0 {
			q.SerialConsistency(m.serial)
		}
		wk.q[k] = q
	}
	if lean := c.Lean(m.keyspace); lean != nil {
		wk.lean = lean.Caller(m.specDelay)
	}
	return wk
}

// byteArg binds a blob without copying it, or null.
type byteArg struct {
	b    []byte
	null bool
}

func (a *byteArg) MarshalCQL(gocql.TypeInfo) ([]byte, error) {
	if a.null {
		return nil, nil
	}
	if a.b == nil {
		return []byte{}, nil
	}
	return a.b, nil
}

// longArg binds a bigint (a counter increment).
type longArg struct {
	v   int64
	buf [8]byte
}

func (a *longArg) MarshalCQL(gocql.TypeInfo) ([]byte, error) {
	binary.BigEndian.PutUint64(a.buf[:], uint64(a.v))
	return a.buf[:], nil
}

// worker is one client thread's operations.
type worker struct {
	w   *Predefined
	m   *Model
	s   *measured.Session
	r   *rand.Rand
	row *data.Row

	q   [NumKinds]*gocql.Query
	key byteArg
	// the lean path's statements, bound values and caller (nil: the
	// driver's path), which routes each try, to another replica after a
	// failed one, with -mode speculativeDelay='s second request
	wst    [NumKinds]cassandra.Stmt
	lv     [][]byte
	row1   [][]byte
	lean   *cassandra.Caller
	vals   []byteArg
	deltas []longArg
	ds     []int64
	got    [][]byte
	dest   []any

	// invalid is the last read's validation message, set on the failure
	// path only
	invalid string
	// populated is how many columns this operation writes or expects
	// (row-population-ratio=); the others are null
	populated int
	// the row of a -col slice read, sized to the table's columns
	sliceGot  [][]byte
	sliceDest []any

	cur  Kind  // the kind of the current run of operations (mixed)
	left int64 // operations left in it

	// waits are the wait times by kind, nil when not tracked
	waits *workerWaits
	// backoff spaces out the operations while no node can take them
	backoff backoff.Backoff
}

// errNoRow is a read that found no row under -errors skip-read-validation.
var errNoRow = errors.New("no row")

// errNotValidated is a read whose data differ from what the original
// writes for the key; like the original, it is an error and not retried.
var errNotValidated = errors.New("data returned was not validated")

func (wk *worker) DoInsert(ctx context.Context) bool { return wk.DoTransaction(ctx) }

// DoTransaction runs one operation: the next population index, the next
// kind, up to tries attempts; it is measured from the first attempt to the
// last, as the original's Operation.timeWithRetry times it. Its requests
// run under the run's abort context, not the engine's ctx.
func (wk *worker) DoTransaction(context.Context) bool {
	var k Kind
	var idx int64
	var ok bool
	var seed *data.Seed
	pop, sm := wk.m.pop, wk.m.seeds
	if pop.Lookback() || sm != nil {
		// Writes go on in sequence (or revisit), reads look back over
		// what they wrote (or take the next seed).
		k = wk.next()
		switch {
		case k != KindWrite && k != KindCounterWrite:
			idx, ok = pop.NextRead(wk.r)
		case sm != nil:
			if seed = sm.Next(wk.r, true); seed != nil {
				idx, ok = seed.Index, true
			}
		default:
			idx, ok = pop.Next(wk.r)
		}
	} else {
		idx, ok = pop.Next(wk.r)
		k = wk.next()
	}
	if !ok {
		return false // a no-wrap sequence is used up: the run ends
	}
	if k == KindWrite || k == KindCounterWrite {
		// Marked as the original's PartitionIterator marks it: once the
		// row is generated, before it is written.
		if seed != nil && k == KindWrite {
			// its first and last write at once (SingleRowIterator.next),
			// which marks it written; the original's counter writes never
			// iterate the row, so their seeds stay in its SeedManager's
			// managing map
			sm.Done(seed, true, true)
		} else {
			pop.Wrote(idx)
		}
	}
	wk.invalid = ""
	wk.populated = math.MaxInt
	if rp := wk.m.rowPop; rp != nil && (k == KindWrite || k == KindRead) {
		// The original's SingleRowIterator: column i (from 0) is null when
		// (i+1)/columns is above the operation's ratio.
		n := len(wk.m.cols.Names())
		ratio := rp.Next(wk.r)
		wk.populated = 0
		for wk.populated < n && float64(wk.populated+1)/float64(n) <= ratio {
			wk.populated++
		}
	}
	// The requests' context is the run's abort: Ctrl-C abandons them at
	// once (see RunState).
	if wk.lean != nil {
		wk.lean.NewOperation()
	}
	t, ok := wk.w.try(&wk.backoff, &wk.m.errs, wk.m.tries, wk.r,
		func(ctx context.Context) error { return wk.attempt(ctx, k, idx) },
		func(err error) bool { return err == errNotValidated || err == errNoRow })
	if !ok {
		return false // abandoned: not counted, and the worker ends
	}
	st := db.OK
	if t.err == errNoRow {
		// -errors skip-read-validation: a success of no row, as the
		// original counts it; filed under NOT_FOUND so that it counts no
		// partition.
		st, t.err = db.NotFound, nil
	}
	return wk.w.finish(wk.s, wk.waits, &wk.backoff, &wk.m.errs, kindOps[k], st, t, t.err,
		func() string { return failureMessage(t.tries, wk.key.b, t.err, wk.invalid) })
}

// failureMessage is the original's Operation.timeWithRetry message:
// "Operation xN on key(s) [KEY (hex: HEX)]: ...", N the tries made (for a
// read that did not validate, the attempts before it, as the original
// counts them), the key as PartitionIterator.getKeyAsString writes a blob
// of printable bytes.
func failureMessage(tries int, key []byte, err error, invalid string) string {
	detail := "Data returned was not validated"
	if err != errNotValidated {
		detail = "Error executing: " + err.Error()
	} else if invalid != "" {
		detail = invalid
	}
	return "Operation x" + strconv.Itoa(tries) + " on key(s) [" + keyString(key) + "]: " + detail
}

func keyString(key []byte) string {
	const digits = "0123456789abcdef"
	h := make([]byte, 0, 2*len(key))
	printable := len(key) > 0
	for _, c := range key {
		h = append(h, digits[c>>4], digits[c&15])
		printable = printable && c >= 0x20 && c <= 0x7e
	}
	if !printable {
		return string(h)
	}
	return string(key) + " (hex: " + string(h) + ")"
}

// isOverloaded is the coordinator's Overloaded error (the original's
// OverloadedException).
func isOverloaded(err error) bool {
	var re gocql.RequestError
	return errors.As(err, &re) && re.Code() == gocql.ErrCodeOverloaded
}

// next picks the kind of the next operation: mixed runs the kinds in runs
// whose lengths come from clustering= (the original's
// SampledOpDistribution).
func (wk *worker) next() Kind {
	w := wk.w
	if len(w.kinds) == 1 {
		return w.kinds[0]
	}
	if wk.left <= 0 {
		u := wk.r.Float64() * w.weights[len(w.weights)-1]
		wk.cur = w.kinds[len(w.kinds)-1]
		for i, c := range w.weights {
			if u < c {
				wk.cur = w.kinds[i]
				break
			}
		}
		wk.left = max(1, w.cluster.Next(wk.r))
	}
	wk.left--
	return wk.cur
}

func (wk *worker) attempt(ctx context.Context, k Kind, idx int64) error {
	if wk.lean != nil {
		return wk.leanAttempt(ctx, k, idx)
	}
	q := wk.q[k]
	switch k {
	case KindWrite:
		key, values := wk.row.Generate(idx)
		wk.key.b = key
		for i := range wk.vals {
			wk.vals[i].b, wk.vals[i].null = values[i], i >= wk.populated
		}
		q.RoutingKey(key)
		return q.ExecContext(ctx)
	case KindCounterWrite:
		wk.key.b = wk.row.Key(idx)
		wk.ds = data.CounterDeltas(wk.ds[:0], len(wk.deltas), wk.m.add, wk.r)
		for i := range wk.deltas {
			wk.deltas[i].v = wk.ds[i]
		}
		q.RoutingKey(wk.key.b)
		return q.ExecContext(ctx)
	case KindCounterRead:
		wk.key.b = wk.row.Key(idx)
		q.RoutingKey(wk.key.b)
		iter := q.IterContext(ctx)
		n := iter.NumRows()
		if err := iter.Close(); err != nil {
			return err
		}
		if n == 0 {
			return errNotValidated
		}
		return nil
	}
	key, values := wk.row.Generate(idx)
	wk.key.b = key
	q.RoutingKey(key)
	iter := q.IterContext(ctx)
	if wk.m.slice {
		return wk.sliceRead(iter, values)
	}
	found := iter.Scan(wk.dest...)
	if err := iter.Close(); err != nil {
		return err
	}
	if !found {
		return wk.noRow(values)
	}
	if wk.m.validate {
		return wk.validateRow(wk.got, values)
	}
	return nil
}

// noRow is a read that found no row: errNoRow without validation, a row
// that does not validate with it (the original's message names it).
func (wk *worker) noRow(values [][]byte) error {
	if !wk.m.validate {
		return errNoRow
	}
	wk.invalid = wk.missingRow(values)
	return errNotValidated
}

// sliceRead reads the row of -col slice's SELECT * (every column of the
// table, the key first) and validates it as the original does, position by
// position against the written columns: the key makes one column too many,
// so it never validates there either (use -errors skip-read-validation).
func (wk *worker) sliceRead(iter *gocql.Iter, values [][]byte) error {
	if n := len(iter.Columns()); n != len(wk.sliceGot) {
		wk.sliceGot = make([][]byte, n)
		wk.sliceDest = make([]any, n)
		for i := range wk.sliceGot {
			wk.sliceDest[i] = &wk.sliceGot[i]
		}
	}
	found := iter.Scan(wk.sliceDest...)
	if err := iter.Close(); err != nil {
		return err
	}
	if !found {
		return wk.noRow(values)
	}
	if !wk.m.validate {
		return nil
	}
	return wk.validateSlice(values)
}

// validateSlice checks a -col slice read's row (in sliceGot) against the
// written values.
func (wk *worker) validateSlice(values [][]byte) error {
	if len(wk.sliceGot) != len(values) {
		var want, got int
		for _, v := range values {
			want += len(v)
		}
		for _, v := range wk.sliceGot {
			got += len(v)
		}
		wk.invalid = fmt.Sprintf("Data returned was not validated: row 0 column count mismatch (expected %d column(s) %s / %d bytes; got %d column(s) / %d bytes)",
			len(values), namesPreview(wk.m.cols.Names(), len(values)), want, len(wk.sliceGot), got)
		return errNotValidated
	}
	return wk.validateRow(wk.sliceGot, values)
}

// validateRow checks the columns read (got) against the written values.
// Columns past row-population-ratio= are expected null, which the
// original does not check.
func (wk *worker) validateRow(got, values [][]byte) error {
	for i, v := range values[:min(len(values), wk.populated)] {
		if !bytes.Equal(got[i], v) {
			wk.invalid = wk.valueDiffers(i, v, got[i])
			return errNotValidated
		}
	}
	return nil
}

// missingRow is the scylladb fork's validation message (CqlOperation.java's
// CqlRunOpMatchResults.validate) for a read that found no row.
func (wk *worker) missingRow(values [][]byte) string {
	var total int
	for _, v := range values[:min(len(values), wk.populated)] {
		total += len(v) // null columns count no bytes, as there
	}
	n := len(values)
	per := 0
	if n > 0 {
		per = total / n
	}
	return fmt.Sprintf("Data returned was not validated: row empty/missing (expected 1 row(s) with %d column(s) %s, %d bytes total (%dx%d); got 0 rows)",
		n, namesPreview(wk.m.cols.Names(), n), total, n, per)
}

// valueDiffers is its message for a value that is not the one written.
func (wk *worker) valueDiffers(i int, want, got []byte) string {
	label := "column " + strconv.Itoa(i)
	if names := wk.m.cols.Names(); i < len(names) {
		label += " (" + names[i] + ")"
	}
	var diff string
	switch {
	case got == nil:
		diff = fmt.Sprintf("got null (expected %d bytes)", len(want))
	case len(got) != len(want):
		diff = fmt.Sprintf("expected %d bytes, got %d bytes", len(want), len(got))
	default:
		diff = fmt.Sprintf("same size (%d bytes) but content differs; expected[0..%d]=%s, got[0..%d]=%s",
			len(want), min(15, len(want)-1), hexPreview(want), min(15, len(got)-1), hexPreview(got))
	}
	return "Data returned was not validated: row 0, " + label + ": " + diff
}

// namesPreview is its columnNamesPreview: up to 4 names as a Java list,
// more as [first..last].
func namesPreview(names []string, n int) string {
	n = min(n, len(names))
	switch {
	case n <= 0:
		return ""
	case n <= 4:
		return "[" + strings.Join(names[:n], ", ") + "]"
	}
	return "[" + names[0] + ".." + names[n-1] + "]"
}

// hexPreview is Operation.hexPreview: the first 16 bytes in hex, "..." if
// there are more.
func hexPreview(b []byte) string {
	s := "0x" + hex.EncodeToString(b[:min(len(b), 16)])
	if len(b) > 16 {
		s += "..."
	}
	return s
}

// SetCQL fills in the statements of the predefined commands.
func (m *Model) SetCQL(s *settings.Settings) {
	names := m.cols.Names()
	ts := ""
	if s.Columns.Timestamp != nil {
		ts = strconv.FormatInt(*s.Columns.Timestamp, 10)
	}
	m.cql[KindWrite] = data.InsertCQL(names, ts)
	m.cql[KindRead] = data.ReadCQL(names, s.Columns.Slice)
	m.cql[KindCounterWrite] = data.CounterAddCQL(names)
	m.cql[KindCounterRead] = data.CounterGetCQL()
}

// leanAttempt is attempt on the lean request path: the same statements
// and bound values, the same validation.
func (wk *worker) leanAttempt(ctx context.Context, k Kind, idx int64) error {
	vals := wk.lv[:0]
	var values [][]byte
	switch k {
	case KindWrite:
		var key []byte
		key, values = wk.row.Generate(idx)
		wk.key.b = key
		for i, v := range values {
			switch {
			case i >= wk.populated:
				vals = append(vals, nil)
			case v == nil:
				vals = append(vals, []byte{})
			default:
				vals = append(vals, v)
			}
		}
	case KindCounterWrite:
		wk.key.b = wk.row.Key(idx)
		wk.ds = data.CounterDeltas(wk.ds[:0], len(wk.deltas), wk.m.add, wk.r)
		for i := range wk.deltas {
			binary.BigEndian.PutUint64(wk.deltas[i].buf[:], uint64(wk.ds[i]))
			vals = append(vals, wk.deltas[i].buf[:])
		}
	case KindCounterRead:
		wk.key.b = wk.row.Key(idx)
	default:
		wk.key.b, values = wk.row.Generate(idx)
	}
	vals = append(vals, wk.key.b)
	wk.lv = vals
	// A counter's increment is not idempotent: no second request.
	sent, won, err := wk.lean.Exec(ctx, "", wk.key.b, &wk.wst[k], wk.m.cl, vals, k != KindCounterWrite)
	wk.w.specCounts(sent, won)
	clear(wk.lv)
	if err != nil {
		return err
	}
	switch k {
	case KindWrite, KindCounterWrite:
		return nil
	}
	n := 0
	wk.row1, err = wk.lean.Rows(func(_ []string, row [][]byte) bool {
		n++
		switch {
		case k == KindCounterRead:
		case wk.m.slice:
			if len(row) != len(wk.sliceGot) {
				wk.sliceGot = make([][]byte, len(row))
			}
			for i, v := range row {
				wk.sliceGot[i] = append(wk.sliceGot[i][:0], v...)
			}
		default:
			for i := range wk.got {
				if i < len(row) {
					wk.got[i] = append(wk.got[i][:0], row[i]...)
				}
			}
		}
		return false
	}, wk.row1)
	clear(wk.row1)
	if err != nil {
		return err
	}
	if n == 0 {
		if k == KindCounterRead {
			return errNotValidated
		}
		return wk.noRow(values)
	}
	if k == KindCounterRead || !wk.m.validate {
		return nil
	}
	if wk.m.slice {
		return wk.validateSlice(values)
	}
	return wk.validateRow(wk.got, values)
}
