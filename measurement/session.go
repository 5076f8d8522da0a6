package measurement

import (
	"context"
	"fmt"

	"github.com/goycsb/ycsb/db"
)

// Session measures every call of one worker's db.Session into that worker's
// Recorder, like the reference's DBWrapper. A panic inside the binding is
// turned into an ERROR for that operation: one bad call must not end a run.
// Not safe for concurrent use, like the Session it wraps.
type Session struct {
	db  db.Session
	rec *Recorder
	// Intended is the schedule's start time (a Now value) of the current
	// transaction, or 0 without a target rate. The runner sets it; every
	// operation of one transaction (a read-modify-write's read and update)
	// shares it, as in the reference.
	Intended int64
}

// NewSession wraps s so that its operations are recorded into rec.
func NewSession(s db.Session, rec *Recorder) *Session { return &Session{db: s, rec: rec} }

// Recorder returns the worker's Recorder.
func (s *Session) Recorder() *Recorder { return s.rec }

// Unwrap returns the binding's session.
func (s *Session) Unwrap() db.Session { return s.db }

// PanicError is what a binding's panic becomes.
type PanicError struct{ Value any }

func (e *PanicError) Error() string { return fmt.Sprintf("binding panicked: %v", e.Value) }

func (s *Session) done(ctx context.Context, op Op, err error, start int64) {
	if err != nil && ctx.Err() != nil {
		// Interrupted by the end of the run (Ctrl-C, maxexecutiontime): the
		// operation did not fail, it was abandoned, so it is not counted.
		return
	}
	s.rec.Done(op, db.StatusOf(err), start, Now(), s.Intended)
}

func recovered(err *error) {
	if r := recover(); r != nil {
		*err = &PanicError{Value: r}
	}
}

func (s *Session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) (err error) {
	start := Now()
	func() {
		defer recovered(&err)
		err = s.db.Read(ctx, table, key, fields, out)
	}()
	s.done(ctx, Read, err, start)
	return err
}

func (s *Session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) (err error) {
	start := Now()
	func() {
		defer recovered(&err)
		err = s.db.Scan(ctx, table, startKey, count, fields, out)
	}()
	end := Now()
	if err != nil && ctx.Err() != nil {
		return err
	}
	s.rec.Done(Scan, db.StatusOf(err), start, end, s.Intended)
	if err == nil && out.Len() > 0 {
		// The reference (HEAD) divides by the row count and crashes on an
		// empty scan; an empty scan simply has no per-record figure here.
		s.rec.MeasureValue(ScanLatencyPerRecord, (end-start)/1000/int64(out.Len()))
	}
	return err
}

func (s *Session) Update(ctx context.Context, table, key string, values []db.Field) (err error) {
	start := Now()
	func() {
		defer recovered(&err)
		err = s.db.Update(ctx, table, key, values)
	}()
	s.done(ctx, Update, err, start)
	return err
}

func (s *Session) Insert(ctx context.Context, table, key string, values []db.Field) (err error) {
	start := Now()
	func() {
		defer recovered(&err)
		err = s.db.Insert(ctx, table, key, values)
	}()
	s.done(ctx, Insert, err, start)
	return err
}

func (s *Session) Delete(ctx context.Context, table, key string) (err error) {
	start := Now()
	func() {
		defer recovered(&err)
		err = s.db.Delete(ctx, table, key)
	}()
	s.done(ctx, Delete, err, start)
	return err
}

// Close closes the binding's session, measured as CLEANUP. A failed close
// (a batch that could not be flushed) is counted as [CLEANUP], Return=<STATUS>:
// the reference has no such line, and a clean run still prints none.
func (s *Session) Close(ctx context.Context) (err error) {
	start := Now()
	func() {
		defer recovered(&err)
		err = s.db.Close(ctx)
	}()
	s.rec.Measure(Cleanup, start, Now(), 0)
	if err != nil {
		st := db.StatusOf(err)
		if st.IsOK() {
			st = db.Error
		}
		s.rec.Return(Cleanup, st)
	}
	return err
}
