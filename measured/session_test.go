package measured

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
)

// panicky panics in every call whose key is "boom".
type panicky struct{}

func (panicky) op(key string) error {
	if key == "boom" {
		panic("boom")
	}
	return nil
}
func (p panicky) Read(_ context.Context, _, key string, _ []string, _ *db.Record) error {
	return p.op(key)
}
func (p panicky) Scan(_ context.Context, _, key string, _ int, _ []string, _ *db.Rows) error {
	return p.op(key)
}
func (p panicky) Update(_ context.Context, _, key string, _ []db.Field) error { return p.op(key) }
func (p panicky) Insert(_ context.Context, _, key string, _ []db.Field) error { return p.op(key) }
func (p panicky) Delete(_ context.Context, _, key string) error               { return p.op(key) }
func (panicky) Close(context.Context) error                                   { return nil }

func TestSessionChargesBindingPanics(t *testing.T) {
	cfg := config(t, nil)
	c := measurement.NewCollector(cfg, measurement.YCSB)
	s := NewSession(panicky{}, c.NewRecorder())
	ctx := context.Background()
	calls := []func(key string){
		func(k string) { _ = s.Read(ctx, "t", k, nil, &db.Record{}) },
		func(k string) { _ = s.Scan(ctx, "t", k, 1, nil, &db.Rows{}) },
		func(k string) { _ = s.Update(ctx, "t", k, nil) },
		func(k string) { _ = s.Delete(ctx, "t", k) },
	}
	for _, call := range calls {
		reached := false
		if s.Guard(ctx, func() { call("ok"); call("boom"); reached = true }) {
			t.Fatal("Guard reported a return after a binding panic")
		}
		if reached {
			t.Fatal("the rest of fn ran after a binding panic")
		}
		if !s.Guard(ctx, func() { call("ok") }) {
			t.Fatal("Guard reported a panic after a clean call")
		}
	}
	// Insert recovers by itself: the load phase retries on its error.
	err := s.Insert(ctx, "t", "boom", nil)
	var pe *PanicError
	if !errors.As(err, &pe) || db.StatusOf(err) != db.Error {
		t.Fatalf("Insert of a panicking binding returned %v (status %v), want a *PanicError with status ERROR", err, db.StatusOf(err))
	}
	c.Tick()
	out := string(render(t, cfg, c.Total()))
	for _, want := range []string{"[READ], Return=OK, 2", "[READ], Return=ERROR, 1", "[SCAN], Return=ERROR, 1",
		"[UPDATE], Return=ERROR, 1", "[DELETE], Return=ERROR, 1", "[INSERT], Return=ERROR, 1", "[READ-FAILED], Operations, 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestGuardLetsOtherPanicsThrough(t *testing.T) {
	s := NewSession(panicky{}, measurement.NewCollector(config(t, nil), measurement.YCSB).NewRecorder())
	defer func() {
		if r := recover(); r != "ours" {
			t.Fatalf("recovered %v, want the panic outside the binding", r)
		}
	}()
	s.Guard(context.Background(), func() { panic("ours") })
	t.Fatal("Guard swallowed a panic outside a binding call")
}

// batcher buffers every insert and loses them all at Close, with closeErr
// (a server that is gone, by default).
type batcher struct {
	panicky
	buffered int
	closeErr error
}

func (b *batcher) Insert(context.Context, string, string, []db.Field) error {
	b.buffered++
	return db.ErrBatched
}

func (b *batcher) Close(context.Context) error {
	err := b.closeErr
	if err == nil {
		err = db.WithStatus(db.ServiceUnavailable, errors.New("server gone"))
	}
	return &db.LostBatchError{Acked: b.buffered, Err: err}
}

// Writes lost with a batch whose outcome is unknown are each a write of
// unknown outcome; with a batch refused for sure, none is.
func TestLostBatchOfUnknownOutcome(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		unknown int64
	}{
		{"refused", nil, 0},
		{"cut after sending", db.OutcomeUnknown(db.WithStatus(db.Error, errors.New("connection reset by peer"))), 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession(&batcher{closeErr: tc.err}, measurement.NewCollector(config(t, nil), measurement.YCSB).NewRecorder())
			ctx := context.Background()
			for i := 0; i < 5; i++ {
				s.Insert(ctx, "t", "k", nil)
				s.EndTransaction(false)
			}
			s.Close(ctx)
			if s.Unknown != tc.unknown || s.Failed != 5 {
				t.Errorf("Unknown %d, Failed %d; want %d, 5", s.Unknown, s.Failed, tc.unknown)
			}
		})
	}
}

// flaky fails its inserts with its errors in turn.
type flaky struct {
	panicky
	errs []error
}

func (f *flaky) Insert(context.Context, string, string, []db.Field) error {
	err := f.errs[0]
	f.errs = f.errs[1:]
	return err
}

// A transaction counts once in Unknown however many of its calls met a
// write of unknown outcome, and not at all when it succeeded in the end.
func TestUnknownOncePerTransaction(t *testing.T) {
	cut := db.OutcomeUnknown(errors.New("connection reset by peer"))
	refused := errors.New("duplicate key")
	s := NewSession(&flaky{errs: []error{cut, cut, refused, cut, nil, refused}}, measurement.NewCollector(config(t, nil), measurement.YCSB).NewRecorder())
	ctx := context.Background()
	for i := 0; i < 3; i++ { // cut, cut, refused: given up
		s.Insert(ctx, "t", "k", nil)
	}
	if !s.EndTransaction(true) {
		t.Error("a failed transaction that met a cut is not counted")
	}
	s.Insert(ctx, "t", "k", nil) // cut, then in on the retry
	s.Insert(ctx, "t", "k", nil)
	if s.EndTransaction(false) {
		t.Error("a transaction that went in is counted")
	}
	s.Insert(ctx, "t", "k", nil) // refused for sure
	if s.EndTransaction(true) {
		t.Error("a transaction refused for sure is counted")
	}
	if s.Unknown != 1 || s.Failed != 5 {
		t.Errorf("Unknown %d, Failed %d; want 1, 5", s.Unknown, s.Failed)
	}
}

// Writes acknowledged as BATCHED_OK whose batch is lost are counted under
// the batch's status, no longer as inserted, and as failed operations.
func TestLostBatchMovesWritesOutOfBatchedOK(t *testing.T) {
	cfg := config(t, nil)
	c := measurement.NewCollector(cfg, measurement.YCSB)
	s := NewSession(&batcher{}, c.NewRecorder())
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		if err := s.Insert(ctx, "t", "k", nil); !errors.Is(err, db.ErrBatched) {
			t.Fatal(err)
		}
	}
	if err := s.Close(ctx); db.LostWrites(err) != 5 {
		t.Fatalf("Close: %v, want 5 lost writes", err)
	}
	if s.Inserted != 0 || s.Failed != 5 || s.Lost != 5 {
		t.Errorf("Inserted %d, Failed %d, Lost %d; want 0, 5, 5", s.Inserted, s.Failed, s.Lost)
	}
	// The lost writes are failed operations of the interval that found
	// them (the run's result no longer counts them as succeeded).
	if iv := c.Tick(); iv.Failed != 5 {
		t.Errorf("the interval holds %d failed operations, want the 5 lost writes", iv.Failed)
	}
	out := string(render(t, cfg, c.Total()))
	for _, want := range []string{"[INSERT], Operations, 5", "[INSERT], Return=SERVICE_UNAVAILABLE, 5", "[CLEANUP], Return=SERVICE_UNAVAILABLE, 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "BATCHED_OK") {
		t.Errorf("lost writes still counted as BATCHED_OK:\n%s", out)
	}
}

// txnBreaker buffers its inserts in a transaction that its failing reads
// end, as jdbc.autocommit=false does when a read's connection breaks.
type txnBreaker struct{ batcher }

func (b *txnBreaker) Read(context.Context, string, string, []string, *db.Record) error {
	lost := b.buffered
	b.buffered = 0
	return &db.LostBatchError{Acked: lost, Err: db.WithStatus(db.Error, errors.New("connection reset by peer"))}
}

// A read whose failure took acknowledged inserts with it moves them out of
// BATCHED_OK and of Inserted, as a failed batch's insert does.
func TestReadLosesAcknowledgedInserts(t *testing.T) {
	cfg := config(t, nil)
	c := measurement.NewCollector(cfg, measurement.YCSB)
	s := NewSession(&txnBreaker{}, c.NewRecorder())
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		s.Insert(ctx, "t", "k", nil)
	}
	var rec db.Record
	s.Read(ctx, "t", "k", nil, &rec)
	if s.Inserted != 0 || s.Failed != 4 || s.Lost != 3 {
		t.Errorf("Inserted %d, Failed %d, Lost %d; want 0, 4, 3", s.Inserted, s.Failed, s.Lost)
	}
	c.Tick()
	out := string(render(t, cfg, c.Total()))
	for _, want := range []string{"[INSERT], Return=ERROR, 3", "[READ], Return=ERROR, 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// missing answers NOT_FOUND to every read.
type missing struct{ panicky }

func (missing) Read(context.Context, string, string, []string, *db.Record) error {
	return db.ErrNotFound
}

// NOT_FOUND is an answer: counted, but neither a failure nor a cause shown.
func TestNotFoundIsNoCause(t *testing.T) {
	cfg := config(t, nil)
	c := measurement.NewCollector(cfg, measurement.YCSB)
	s := NewSession(missing{}, c.NewRecorder())
	var said []string
	s.Causes = measurement.NewCauses(measurement.YCSB, func(line string) { said = append(said, line) })
	for i := 0; i < 3; i++ {
		s.Guard(context.Background(), func() { s.Read(context.Background(), "t", "k", nil, &db.Record{}) })
	}
	if len(said) != 0 || s.Failed != 0 {
		t.Errorf("NOT_FOUND reads: causes shown %q, %d failed; want none", said, s.Failed)
	}
	c.Tick()
	if out := string(render(t, cfg, c.Total())); !strings.Contains(out, "[READ], Return=NOT_FOUND, 3") {
		t.Errorf("report lacks the NOT_FOUND count:\n%s", out)
	}
}

// txnBinding runs read-modify-writes itself and counts its retries: each
// read-modify-write retries twice, and fails on key "bad"; reads never
// retry.
type txnBinding struct {
	panicky
	retries int64
}

func (b *txnBinding) ReadModifyWrite(_ context.Context, _, key string, _ []string, _ *db.Record, _ []db.Field) error {
	b.retries += 2
	if key == "bad" {
		return errors.New("ERROR: could not serialize access due to concurrent update (SQLSTATE 40001)")
	}
	return nil
}

func (b *txnBinding) Retries() int64 { return b.retries }

// A binding's retries are counted under the operation that made them, in
// a Retries row after its Return= lines, in every measurement type, and in
// the status line; an operation without retries has no such row.
func TestRetriesRows(t *testing.T) {
	for _, typ := range []string{"hdrhistogram", "histogram", "timeseries", "raw", "hdrhistogram+histogram"} {
		t.Run(typ, func(t *testing.T) {
			cfg := config(t, map[string]string{"measurementtype": typ})
			c := measurement.NewCollector(cfg, measurement.YCSB)
			b := &txnBinding{retries: 5} // retries before the session: not counted
			s := NewSession(b, c.NewRecorder())
			ctx := context.Background()
			if !s.ReadModifyWrites() {
				t.Fatal("the session does not see the binding's ReadModifyWrite")
			}
			causes := measurement.NewCauses(measurement.YCSB, func(string) {})
			s.Causes = causes
			_ = s.Read(ctx, "t", "k", nil, &db.Record{})
			_ = s.ReadModifyWrite(ctx, "t", "k", nil, &db.Record{}, nil)
			_ = s.ReadModifyWrite(ctx, "t", "k", nil, &db.Record{}, nil)
			_ = s.ReadModifyWrite(ctx, "t", "bad", nil, &db.Record{}, nil)
			c.Tick()
			snap := c.Total()
			out := string(render(t, cfg, snap))
			name := "READ-MODIFY-WRITE"
			if typ == "hdrhistogram+histogram" {
				name = "HdrREAD-MODIFY-WRITE"
			}
			want := "[" + name + "], Return=OK, 2\n[" + name + "], Return=ERROR, 1\n[" + name + "], Retries, 6\n"
			if !strings.Contains(out, want) {
				t.Errorf("report lacks\n%s in\n%s", want, out)
			}
			if strings.Contains(out, "[READ], Retries") || strings.Count(out, "Retries") != 1 {
				t.Errorf("Retries rows elsewhere:\n%s", out)
			}
			if sum := snap.Summary(cfg); !strings.Contains(sum, "[READ-MODIFY-WRITE Retries=6]") {
				t.Errorf("status summary %q lacks the retries", sum)
			}
			if s.Failed != 1 || !strings.Contains(causes.First(), "SQLSTATE 40001") {
				t.Errorf("failed %d, cause %q: want the database's error", s.Failed, causes.First())
			}
		})
	}
}

// An insert whose flush the stop cut short stays in the binding's batch
// (BATCHED_OK): it is counted as such and as inserted, so that the report's
// inserts and the load's count agree, and the batch lost at Close takes it
// out of both again.
func TestBatchedWhenStopped(t *testing.T) {
	cfg := config(t, nil)
	c := measurement.NewCollector(cfg, measurement.YCSB)
	b := &batcher{closeErr: db.OutcomeUnknown(db.WithStatus(db.Error, errors.New("timeout")))}
	s := NewSession(b, c.NewRecorder())
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	s.Insert(context.Background(), "t", "k", nil)
	if err := s.Insert(stopped, "t", "k", nil); !errors.Is(err, db.ErrBatched) {
		t.Fatal(err)
	}
	if s.Inserted != 2 {
		t.Errorf("Inserted %d, want 2", s.Inserted)
	}
	c.Tick()
	out := string(render(t, cfg, c.Total()))
	if !strings.Contains(out, "[INSERT], Return=BATCHED_OK, 2") {
		t.Errorf("report lacks the 2 buffered inserts:\n%s", out)
	}
	s.Close(context.Background())
	if s.Inserted != 0 || s.Unknown != 2 || s.Failed != 2 {
		t.Errorf("after the lost batch: Inserted %d, Unknown %d, Failed %d; want 0, 2, 2", s.Inserted, s.Unknown, s.Failed)
	}
	c.Tick()
	out = string(render(t, cfg, c.Total()))
	if !strings.Contains(out, "[INSERT], Return=ERROR, 2") || strings.Contains(out, "BATCHED_OK") {
		t.Errorf("the lost batch's inserts are not counted as failed:\n%s", out)
	}
}
