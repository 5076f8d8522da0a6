package measured

import (
	"context"
	"errors"
	"fmt"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
)

// Session measures every call of one worker's db.Session into that worker's
// Recorder, like the reference's DBWrapper, under YCSB's operations (Read,
// Update, ...: a run whose workload calls them measures with YCSB's
// table). Not safe for concurrent use, like the Session it wraps.
//
// A panic inside the binding becomes an ERROR for that operation: one bad
// call must not end a run. Insert and Close recover it themselves and return
// a *PanicError (a failed insert's error drives the load phase's retries).
// Read, Scan, Update and Delete, the run phase's hot path, leave it to
// Guard, which the worker loop wraps around many operations, so that no
// deferred call is paid per operation; called outside Guard, they let a
// binding's panic through.
type Session struct {
	db  db.Session
	rec *measurement.Recorder
	// rmw is db when it runs read-modify-writes as transactions; rc is db
	// when it counts its retries, and retried the count seen last.
	rmw     db.ReadModifyWriter
	txn     db.Transactional
	rc      db.RetryCounter
	retried int64
	// intended is the schedule's start time (a Now value) of the current
	// transaction, or 0 without a target rate (SetIntended). Every
	// operation of one transaction (a read-modify-write's read and update)
	// shares it, as in the reference.
	intended int64

	// Failed counts the operations that failed (any status but OK,
	// BATCHED_OK and NOT_FOUND: a missing record is an answer); Inserted
	// the inserts that returned OK or BATCHED_OK. The run compares
	// them before and after a transaction. Plain fields: one worker's.
	Failed, Inserted int64
	// Lost counts the writes that returned BATCHED_OK after the warm-up and
	// whose batch could not be sent (db.LostBatchError): they are counted
	// again under the batch's status, and no longer as inserted.
	Lost int64
	// Unknown counts the writes whose outcome is unknown
	// (db.IsOutcomeUnknown: the server may have applied them), warm-up
	// included: a failed transaction (a load's record, retries included)
	// that met one counts once (EndTransaction), and so does each
	// buffered write lost with a batch of unknown outcome. Each of them is
	// a failed operation too.
	Unknown int64
	// unknown says that a call failed with an outcome unknown since the
	// last EndTransaction.
	unknown bool

	// Causes, when set, is shown every failure's error (shared by the
	// workers; only the error path reaches it).
	Causes *measurement.Causes

	// The binding call in progress, for Guard to charge if it panics.
	calling   bool
	callOp    measurement.Op
	callStart int64
}

// NewSession wraps s so that its operations are recorded into rec.
func NewSession(s db.Session, rec *measurement.Recorder) *Session {
	ms := &Session{db: s, rec: rec}
	ms.rmw, _ = s.(db.ReadModifyWriter)
	ms.txn, _ = s.(db.Transactional)
	if ms.rc, _ = s.(db.RetryCounter); ms.rc != nil {
		ms.retried = ms.rc.Retries()
	}
	return ms
}

// ReadModifyWrites says whether the binding's session runs a
// read-modify-write as one transaction (db.ReadModifyWriter): then the
// workload calls ReadModifyWrite instead of Read and Update.
func (s *Session) ReadModifyWrites() bool { return s.rmw != nil }

// Recorder returns the worker's Recorder.
func (s *Session) Recorder() *measurement.Recorder { return s.rec }

// SetIntended sets the intended start time (a Now value, 0 for none) of
// the transaction about to run: the pacer's due time under a target rate.
func (s *Session) SetIntended(ns int64) { s.intended = ns }

// Intended returns the intended start time SetIntended set (0 for none).
func (s *Session) Intended() int64 { return s.intended }

// MeasureTransaction records a transaction of several operations (a
// read-modify-write) that ran from start to end, from its intended start
// under a target rate.
func (s *Session) MeasureTransaction(op measurement.Op, start, end int64) {
	s.rec.Measure(op, start, end, s.intended)
}

// Finish records an operation the workload ran on a capability of the
// binding's session rather than through its calls here (db/cassandra's
// CQL: statements of the workload's own), as those calls record theirs:
// with status st when err is nil, else as an ERROR counted in Failed and
// shown among the causes; timed from start to end (Now values) after its
// retries tries after the first, from its intended start under a target
// rate.
func (s *Session) Finish(op measurement.Op, st db.Status, start, end, retries int64, err error) {
	if err != nil {
		st = db.Error
		s.failed(op, st, err)
	}
	s.rec.Done(op, st, start, end, s.intended)
	if retries > 0 {
		s.rec.Retried(op, retries)
	}
}

// Unwrap returns the binding's session.
func (s *Session) Unwrap() db.Session { return s.db }

// PanicError is what a binding's panic becomes.
type PanicError struct{ Value any }

func (e *PanicError) Error() string { return fmt.Sprintf("binding panicked: %v", e.Value) }

// Guard calls fn, which runs operations through s, and reports whether fn
// returned. When the binding panics inside Read, Scan, Update or Delete, that
// operation is counted as an ERROR, as a returned error would be, the rest
// of fn is abandoned and Guard returns false: call it again to go on. A panic
// outside a binding call is a bug of ours and is not caught.
func (s *Session) Guard(ctx context.Context, fn func()) (returned bool) {
	defer func() {
		if returned || !s.calling {
			return
		}
		r := recover()
		if r == nil {
			return // runtime.Goexit, not a panic
		}
		s.calling = false
		s.done(ctx, s.callOp, &PanicError{Value: r}, s.callStart)
	}()
	fn()
	return true
}

func (s *Session) enter(op measurement.Op, start int64) {
	s.calling, s.callOp, s.callStart = true, op, start
}

// countRetries files the retries the binding made during op, if it counts
// them: one interface call, no allocation.
func (s *Session) countRetries(op measurement.Op) {
	if s.rc == nil {
		return
	}
	if n := s.rc.Retries(); n != s.retried {
		s.rec.Retried(op, n-s.retried)
		s.retried = n
	}
}

func (s *Session) done(ctx context.Context, op measurement.Op, err error, start int64) {
	s.countRetries(op)
	if err != nil {
		s.lostWrites(err)
	}
	if abandoned(ctx, err) {
		return
	}
	st := db.StatusOf(err)
	if err != nil {
		if ctx.Err() != nil {
			// The binding's error (a timeout, a closed connection) says
			// what the stop did to the request, not why.
			err = fmt.Errorf("in flight when the run stopped: %w", err)
		}
		s.failed(op, st, err)
	}
	s.rec.Done(op, st, start, measurement.Now(), s.intended)
}

// failed counts a failed operation; the error path only.
func (s *Session) failed(op measurement.Op, st db.Status, err error) {
	if st.IsOK() || st == db.NotFound {
		// A missing record is an answer, not a failure: not a cause to
		// show, and it may be most reads, which must not meet a lock.
		return
	}
	s.Failed++
	if db.IsOutcomeUnknown(err) {
		s.unknown = true
	}
	if s.Causes != nil {
		s.Causes.Add(op, st, err)
	}
}

// EndTransaction ends the worker's transaction (a load's insert with its
// retries): when it failed and one of its calls failed with an outcome
// unknown, it counts once in Unknown, however many of its calls or retries
// did; one that succeeded in the end is known (an insert retried after a
// timeout that went in is one record). It reports whether it counted.
func (s *Session) EndTransaction(failed bool) bool {
	unknown := s.unknown
	s.unknown = false
	if failed && unknown {
		s.Unknown++
		return true
	}
	return false
}

// abandoned says whether an operation that failed was cut off by the end of
// the run (Ctrl-C, maxexecutiontime: ctx ended), so that it did not fail
// but was abandoned and is not counted. A write the server may have applied
// (db.IsOutcomeUnknown: it was in flight when the stop cancelled it) is
// counted all the same, as a failure of unknown outcome: left out, a load
// would report fewer rows than its table holds once the server answers.
// So is a write the binding kept in its batch (BATCHED_OK: the stop cut
// short the flush it started), which Inserted counts and Close sends or
// counts as lost.
func abandoned(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && !db.IsOutcomeUnknown(err) && !db.StatusOf(err).IsOK()
}

func recovered(err *error) {
	if r := recover(); r != nil {
		*err = &PanicError{Value: r}
	}
}

func (s *Session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	start := measurement.Now()
	s.enter(measurement.Read, start)
	err := s.db.Read(ctx, table, key, fields, out)
	s.calling = false
	s.done(ctx, measurement.Read, err, start)
	return err
}

func (s *Session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) error {
	start := measurement.Now()
	s.enter(measurement.Scan, start)
	err := s.db.Scan(ctx, table, startKey, count, fields, out)
	s.calling = false
	end := measurement.Now()
	s.countRetries(measurement.Scan)
	if err != nil {
		s.lostWrites(err)
	}
	if abandoned(ctx, err) {
		return err
	}
	st := db.StatusOf(err)
	if err != nil {
		s.failed(measurement.Scan, st, err)
	}
	s.rec.Done(measurement.Scan, st, start, end, s.intended)
	if err == nil && out.Len() > 0 {
		// The reference (HEAD) divides by the row count and crashes on an
		// empty scan; an empty scan simply has no per-record figure here.
		s.rec.MeasureValue(measurement.ScanLatencyPerRecord, (end-start)/1000/int64(out.Len()))
	}
	return err
}

func (s *Session) Update(ctx context.Context, table, key string, values []db.Field) error {
	start := measurement.Now()
	s.enter(measurement.Update, start)
	err := s.db.Update(ctx, table, key, values)
	s.calling = false
	s.done(ctx, measurement.Update, err, start)
	return err
}

// ReadModifyWrite runs a read-modify-write as one transaction of the
// binding's (see ReadModifyWrites), measured as one READ-MODIFY-WRITE with
// its status and retries; there is no READ or UPDATE of it.
func (s *Session) ReadModifyWrite(ctx context.Context, table, key string, fields []string, out *db.Record, values []db.Field) error {
	start := measurement.Now()
	s.enter(measurement.ReadModifyWrite, start)
	err := s.rmw.ReadModifyWrite(ctx, table, key, fields, out, values)
	s.calling = false
	s.done(ctx, measurement.ReadModifyWrite, err, start)
	return err
}

// errNoTransactions is a transaction asked of a binding without them; the
// front end refuses such a run before it starts (workload.CheckTransactions).
var errNoTransactions = errors.New("the binding's session runs no transactions")

// Transact runs body as one transaction of the binding's
// (db.Transactional), measured as op with its status and retries.
func (s *Session) Transact(ctx context.Context, op measurement.Op, body db.TxnBody) error {
	start := measurement.Now()
	s.enter(op, start)
	err := errNoTransactions
	if s.txn != nil {
		err = s.txn.Transact(ctx, body)
	}
	s.calling = false
	s.done(ctx, op, err, start)
	return err
}

func (s *Session) Insert(ctx context.Context, table, key string, values []db.Field) (err error) {
	start := measurement.Now()
	func() {
		defer recovered(&err)
		err = s.db.Insert(ctx, table, key, values)
	}()
	if db.StatusOf(err).IsOK() {
		s.Inserted++
	}
	s.done(ctx, measurement.Insert, err, start)
	return err
}

// lostWrites moves the writes a failed batch lost from BATCHED_OK to the
// batch's status (every buffered write is an insert) and out of Inserted.
// Any operation's error may say so: one that ended the transaction the
// writes waited in (a binding's jdbc.autocommit=false).
func (s *Session) lostWrites(err error) {
	n := db.LostWrites(err)
	if n == 0 {
		return
	}
	st := db.StatusOf(err)
	if st.IsOK() {
		st = db.Error
	}
	s.rec.Reclassify(measurement.Insert, db.BatchedOK, st, int64(n))
	s.Inserted -= int64(n)
	s.Failed += int64(n)
	if db.IsOutcomeUnknown(err) {
		// Past records of their own: not the transaction in progress.
		s.Unknown += int64(n)
	}
	if !s.rec.Warmup() {
		s.Lost += int64(n)
	}
	s.rec.FailedEarlier(int64(n))
}

func (s *Session) Delete(ctx context.Context, table, key string) error {
	start := measurement.Now()
	s.enter(measurement.Delete, start)
	err := s.db.Delete(ctx, table, key)
	s.calling = false
	s.done(ctx, measurement.Delete, err, start)
	return err
}

// Close closes the binding's session, measured as CLEANUP when the run's
// table has it. A failed close (a batch that could not be flushed) is
// counted as [CLEANUP], Return=<STATUS>: the reference has no such line,
// and a clean run still prints none.
func (s *Session) Close(ctx context.Context) (err error) {
	start := measurement.Now()
	func() {
		defer recovered(&err)
		err = s.db.Close(ctx)
	}()
	s.lostWrites(err)
	if !s.rec.MeasureCleanup(start, measurement.Now()) {
		return err
	}
	if err != nil {
		st := db.StatusOf(err)
		if st.IsOK() {
			st = db.Error
		}
		s.rec.Return(s.rec.CleanupOp(), st)
	}
	return err
}
