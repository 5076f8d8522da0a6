package workload

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"time"
	"unsafe"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload/generator"
)

// Worker is one worker's view of the workload. Not safe for concurrent use.
type Worker struct {
	w   *CoreWorkload
	s   *measured.Session
	rng *rand.Rand
	val wyrand

	keyChooser  generator.Int
	fieldLength generator.Int
	scanLength  generator.Int

	keyBuf    []byte
	values    []db.Field // reused for every write
	valueBufs [][]byte
	single    [][]string // single[i] = []string{field i}, prebuilt
	record    db.Record
	rows      db.Rows
	expected  []byte
	keys      keyCache // run phase only
	ahead     int64    // the next run-phase key number, drawn one operation early
	haveAhead bool
	started   int64    // run-phase operations started (CoreWorkload.Operations)
	transfer  transfer // the closed economy's transfer in flight
}

// NewWorker returns the state of one worker, drawing from its own random
// source seeded with seed, and operating through s.
func (w *CoreWorkload) NewWorker(s *measured.Session, seed uint64) *Worker {
	wk := &Worker{
		w:           w,
		s:           s,
		rng:         rand.New(newSource(seed)),
		fieldLength: w.newFieldLength(),
		scanLength:  w.newScanLength(),
		values:      make([]db.Field, 0, len(w.FieldNames)),
		valueBufs:   make([][]byte, len(w.FieldNames)),
		val:         wyrand(seed * 0x9e3779b97f4a7c15),
		keys:        newKeyCache(),
	}
	if w.newKeyChooser != nil {
		wk.keyChooser = w.newKeyChooser()
	}
	for i, name := range w.FieldNames {
		wk.single = append(wk.single, []string{name})
		wk.valueBufs[i] = make([]byte, 0, w.fieldLength+valueSlack)
	}
	if w.economy != nil {
		// Kept for their operation counts: only the economy's, so that a
		// capacity search's many steps do not keep every worker alive.
		wk.transfer = transfer{table: w.Table, balance: wk.single[0]}
		w.workersMu.Lock()
		w.workers = append(w.workers, wk)
		w.workersMu.Unlock()
	}
	return wk
}

// NewTransactor is NewWorker as a Workload's.
func (w *CoreWorkload) NewTransactor(s *measured.Session, seed uint64) Transactor {
	return w.NewWorker(s, seed)
}

// key builds the key for keynum in the worker's buffer. The string shares
// that buffer: it is valid until the next key is built, which the binding
// contract allows (a binding that keeps a key copies it).
func (wk *Worker) key(keynum int64) string {
	wk.keyBuf = AppendKey(wk.keyBuf[:0], keynum, wk.w.ZeroPadding, wk.w.OrderedInserts)
	return unsafe.String(unsafe.SliceData(wk.keyBuf), len(wk.keyBuf))
}

// runKey is key for the run phase, through the worker's key cache: keynum
// is a number of the key chooser, which counts run-phase inserts on the
// insert counter's numbers (see CoreWorkload.transactionInsert). The
// string shares the cache slot, valid until the next key is built.
func (wk *Worker) runKey(keynum int64) string {
	c := &wk.keys
	e := c.lookup(keynum)
	if e.tag&keyTagNum == uint64(keynum)+1 {
		return unsafe.String(&e.key[0], int(e.tag>>keyTagLenShift))
	}
	if wk.w.ZeroPadding > maxCachedPadding || uint64(keynum) >= keyTagNum {
		return wk.key(wk.w.insertKeynum(keynum)) // too long for a slot: not cached
	}
	if c.budget--; c.budget < 0 && c.missed(wk.w.transactionInsert.Last()+1) {
		e = c.lookup(keynum) // the slots moved
	}
	// Built in place, with no copy: the key and AppendKey's store slack fit.
	// Cached by the counter's number, built from the client's key number.
	b := AppendKey(e.key[:0], wk.w.insertKeynum(keynum), wk.w.ZeroPadding, wk.w.OrderedInserts)
	e.tag = uint64(keynum) + 1 | uint64(len(b))<<keyTagLenShift
	return unsafe.String(&e.key[0], len(b))
}

func (wk *Worker) fillValue(i int, key string) {
	n := int(wk.fieldLength.Next(wk.rng))
	buf := wk.valueBufs[i][:0]
	if wk.w.DataIntegrity {
		buf = AppendIntegrityValue(buf, key, wk.w.FieldNames[i], n)
	} else {
		if cap(buf) < n+valueSlack {
			buf = make([]byte, n, n+valueSlack)
		}
		buf = buf[:n]
		fillRandom(buf, &wk.val)
	}
	wk.valueBufs[i] = buf
	wk.values = append(wk.values, db.Field{Name: wk.w.FieldNames[i], Value: buf})
}

// allValues fills every field, for inserts and write-all updates.
func (wk *Worker) allValues(key string) []db.Field {
	wk.values = wk.values[:0]
	for i := range wk.w.FieldNames {
		wk.fillValue(i, key)
	}
	return wk.values
}

// updateValues fills all fields or one random field (writeallfields).
func (wk *Worker) updateValues(key string) []db.Field {
	if wk.w.writeAllFields {
		return wk.allValues(key)
	}
	wk.values = wk.values[:0]
	wk.fillValue(int(wk.w.fieldChooser.Next(wk.rng)), key)
	return wk.values
}

// readFields returns nil (all fields) or one random field. byName and data
// integrity ask for every field by name instead of nil.
func (wk *Worker) readFields(byName bool) []string {
	if !wk.w.readAllFields {
		return wk.single[wk.w.fieldChooser.Next(wk.rng)]
	}
	if byName {
		return wk.w.FieldNames
	}
	return nil
}

// DoInsert runs one load-phase insert. It returns false when the worker
// should stop: the insert failed after its retries and keep-going is off.
func (wk *Worker) DoInsert(ctx context.Context) bool {
	w := wk.w
	keynum := w.keySequence.Next()
	key := wk.key(keynum)
	var values []db.Field
	if w.economy != nil {
		values = wk.balanceValues(keynum)
	} else {
		values = wk.allValues(key)
	}
	retries := 0
	for {
		err := wk.s.Insert(ctx, w.Table, key, values)
		st := db.StatusOf(err)
		if st.IsOK() {
			return true
		}
		if ctx.Err() != nil || w.Stopped() {
			return false
		}
		retries++
		if retries > w.retryLimit {
			fmt.Fprintf(w.stderr, "Error inserting, not retrying any more. number of attempts: %dInsertion Retry Limit: %d\n", retries, w.retryLimit)
			return w.keepGoing
		}
		fmt.Fprintf(w.stderr, "Retrying insertion, retry count: %d\n", retries)
		pause := time.Duration(float64(w.retryInterval) * (0.8 + 0.4*wk.rng.Float64()))
		if !within.Sleep(ctx, pause) {
			return false
		}
	}
}

// DoTransaction runs one run-phase operation chosen by the operation mix.
// Failed operations are counted, not fatal, so it always returns true.
func (wk *Worker) DoTransaction(ctx context.Context) bool {
	wk.started++
	switch wk.w.ops.Next(wk.rng) {
	case opRead:
		wk.doRead(ctx)
	case opUpdate:
		wk.doUpdate(ctx)
	case opInsert:
		wk.doInsert(ctx)
	case opScan:
		wk.doScan(ctx)
	case opReadModifyWrite:
		if wk.w.economy != nil {
			wk.doTransfer(ctx)
		} else {
			wk.doReadModifyWrite(ctx)
		}
	}
	return true
}

// nextKeynum returns the key number of this run-phase operation, drawn
// during the previous one, and draws the next. The draw depends on nothing
// the current operation does, so the processor overlaps its chain of
// dependent multiplies (x^100, FNV) with building this operation's key,
// calling the binding and recording the latency: about a tenth of a
// transaction's cost with the basic binding. Drawing one operation early
// changes neither the distribution nor the insert limit the keys respect,
// which only grows. A chooser whose state the workers share (sequential)
// is not drawn ahead: the key a worker would draw and never use (its last)
// is lost to all, and a cycle of N keys met by T workers would visit up to
// T keys twice, as the reference's shared generator does not.
func (wk *Worker) nextKeynum() int64 {
	if wk.w.keysShared {
		return wk.drawKeynum()
	}
	if !wk.haveAhead {
		wk.ahead, wk.haveAhead = wk.drawKeynum(), true
	}
	k := wk.ahead
	wk.ahead = wk.drawKeynum()
	return k
}

// drawKeynum draws a key number that has been inserted (acknowledged).
func (wk *Worker) drawKeynum() int64 {
	limit := wk.w.transactionInsert.Last()
	if e := wk.w.exponential; e != nil {
		for {
			if k := limit - int64(e.NextFloat(wk.rng)); k >= 0 {
				return k
			}
		}
	}
	for {
		if k := wk.keyChooser.Next(wk.rng); k <= limit {
			return k
		}
	}
}

func (wk *Worker) doRead(ctx context.Context) {
	key := wk.runKey(wk.nextKeynum())
	fields := wk.readFields(wk.w.readAllFieldsByName || wk.w.DataIntegrity)
	wk.record.Reset()
	_ = wk.s.Read(ctx, wk.w.Table, key, fields, &wk.record)
	if wk.w.DataIntegrity {
		wk.verify(key)
	}
}

func (wk *Worker) doUpdate(ctx context.Context) {
	key := wk.runKey(wk.nextKeynum())
	_ = wk.s.Update(ctx, wk.w.Table, key, wk.updateValues(key))
}

func (wk *Worker) doInsert(ctx context.Context) {
	w := wk.w
	keynum := w.transactionInsert.Next()
	key := wk.key(w.insertKeynum(keynum))
	_ = wk.s.Insert(ctx, w.Table, key, wk.allValues(key))
	// Acknowledged even on failure, as in the reference, so "latest" and the
	// insert limit keep moving.
	if err := w.transactionInsert.Acknowledge(keynum); err != nil {
		fmt.Fprintf(w.stderr, "workload: %v\n", err)
	}
}

func (wk *Worker) doScan(ctx context.Context) {
	key := wk.runKey(wk.nextKeynum())
	n := int(wk.scanLength.Next(wk.rng))
	fields := wk.readFields(false)
	wk.rows.Reset()
	_ = wk.s.Scan(ctx, wk.w.Table, key, n, fields, &wk.rows)
}

func (wk *Worker) doReadModifyWrite(ctx context.Context) {
	key := wk.runKey(wk.nextKeynum())
	fields := wk.readFields(false)
	values := wk.updateValues(key)
	wk.record.Reset()
	if wk.s.ReadModifyWrites() {
		// One transaction, measured (with its retries) as one
		// READ-MODIFY-WRITE by the session: no READ, no UPDATE.
		_ = wk.s.ReadModifyWrite(ctx, wk.w.Table, key, fields, &wk.record, values)
		if wk.w.DataIntegrity {
			wk.verify(key)
		}
		return
	}
	start := measurement.Now()
	_ = wk.s.Read(ctx, wk.w.Table, key, fields, &wk.record)
	_ = wk.s.Update(ctx, wk.w.Table, key, values)
	end := measurement.Now()
	if ctx.Err() == nil {
		wk.s.MeasureTransaction(measurement.ReadModifyWrite, start, end)
	}
	if wk.w.DataIntegrity {
		wk.verify(key)
	}
}

// verify checks a read's fields against the deterministic values: no field
// at all is ERROR, a wrong value UNEXPECTED_STATE. Measured as VERIFY.
func (wk *Worker) verify(key string) {
	start := measurement.Now()
	st := db.OK
	if wk.record.Len() == 0 {
		st = db.Error
	}
	size := int(wk.w.fieldLength)
	for _, f := range wk.record.Fields {
		wk.expected = AppendIntegrityValue(wk.expected[:0], key, f.Name, size)
		if !bytes.Equal(f.Value, wk.expected) {
			st = db.UnexpectedState
			break
		}
	}
	rec := wk.s.Recorder()
	rec.MeasureValue(measurement.Verify, (measurement.Now()-start)/1000)
	rec.Return(measurement.Verify, st)
}
