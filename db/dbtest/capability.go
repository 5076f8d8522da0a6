package dbtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
)

// The optional capabilities of the contract (db's package doc lists them)
// are checked for whatever the binding under test declares: a DB or a
// Session that implements one is held to what its doc promises. Driver
// capabilities (Checker, TxnDriver) need Options.Driver and Options.Props.
// db.Remote is a mark with no behaviour to check.

// capabilityChecks are the checks of the capabilities the DB and its
// sessions declare, run before the suite's other checks: Summer's needs
// the table as open gave it (empty, or rows of integers).
func (s *suite) capabilityChecks(t *testing.T) []check {
	ss := s.session(t, 0, 1)
	if err := ss.Close(ctx()); err != nil {
		t.Fatalf("Session.Close: %v", err)
	}
	_, txnDriver := s.opts.Driver.(db.TxnDriver)
	declared := map[string]bool{
		"Summer":           is[db.Summer](s.db),
		"Checker":          is[db.Checker](s.opts.Driver),
		"Transactional":    is[db.Transactional](ss) || txnDriver,
		"ReadModifyWriter": is[db.ReadModifyWriter](ss),
		"RetryCounter":     is[db.RetryCounter](ss),
		"StatsReporter":    is[db.StatsReporter](s.db),
		"Settler":          is[db.Settler](s.db),
	}
	var out []check
	for _, c := range []check{
		{"Summer", true, s.summer},
		{"Checker", false, s.checker},
		{"Transactional", true, s.transactional},
		{"ReadModifyWriter", true, s.readModifyWriter},
		{"RetryCounter", false, s.retryCounter},
		{"StatsReporter", false, s.statsReporter},
		{"Settler", true, s.settler},
	} {
		if declared[c.name] {
			out = append(out, c)
		}
	}
	return out
}

// is says whether v implements T.
func is[T any](v any) bool {
	_, ok := v.(T)
	return ok
}

// transactionsRefused is the driver's reason why the DB's sessions run no
// transactions (db.TxnDriver); nil when it gives none or is not known.
func (s *suite) transactionsRefused() error {
	if td, ok := s.opts.Driver.(db.TxnDriver); ok && s.opts.Props != nil {
		return td.Transactions(s.opts.Props)
	}
	return nil
}

// summer: Sum adds up a field over every row and counts them; a value that
// is not an integer is an error. The closed economy, Sum's one user, runs
// only where the driver allows transactions (shards of one test database
// would count each row once a shard).
func (s *suite) summer(t *testing.T, ss db.Session, p string) {
	sm, ok := s.db.(db.Summer)
	if !ok {
		t.Skip("the DB is no db.Summer")
	}
	if err := s.transactionsRefused(); err != nil {
		t.Skipf("no transactions, so no closed economy to sum for: %v", err)
	}
	field := s.fieldName(0)
	sum0, rows0, err := sm.Sum(ctx(), s.opts.Table, field)
	if err != nil {
		t.Fatalf("Sum of the table as opened (the suite wants it empty): %v", err)
	}
	values := []string{"5", "-2", "40"}
	for i, v := range values {
		rec := s.record(p, 0)
		for j := range rec {
			rec[j].Value = []byte(v)
		}
		key := fmt.Sprintf("%s%d", p, i)
		mustOK(t, "Insert "+key, ss.Insert(ctx(), s.opts.Table, key, rec))
		t.Cleanup(func() { ss.Delete(ctx(), s.opts.Table, key) })
	}
	sum, rows, err := sm.Sum(ctx(), s.opts.Table, field)
	if err != nil || sum != sum0+43 || rows != rows0+3 {
		t.Fatalf("Sum after 3 rows of 5, -2 and 40 = %d over %d rows (%v), want %d over %d", sum, rows, err, sum0+43, rows0+3)
	}
	key := p + "not-an-integer"
	mustOK(t, "Insert "+key, ss.Insert(ctx(), s.opts.Table, key, s.record(key, 1)))
	t.Cleanup(func() { ss.Delete(ctx(), s.opts.Table, key) })
	if sum, rows, err := sm.Sum(ctx(), s.opts.Table, field); err == nil {
		t.Errorf("Sum over a value that is no integer = %d over %d rows, want an error", sum, rows)
	}
}

// checker: Check accepts the properties Open accepted.
func (s *suite) checker(t *testing.T, _ db.Session, _ string) {
	c, ok := s.opts.Driver.(db.Checker)
	if !ok || s.opts.Props == nil {
		t.Skip("no Options.Driver that is a db.Checker, or no Options.Props")
	}
	if err := c.Check(s.opts.Props); err != nil {
		t.Errorf("Check of the properties Open accepted: %v", err)
	}
}

// errAbort is the error a transaction's body returns to abort it.
var errAbort = errors.New("dbtest: body aborts")

// txnBody adapts a function to db.TxnBody, counting its attempts.
type txnBody struct {
	attempts int
	fn       func(ctx context.Context, tx db.Txn) error
}

func (b *txnBody) Attempt(ctx context.Context, tx db.Txn) error {
	b.attempts++
	return b.fn(ctx, tx)
}

// transactional: Transact commits the body's statements together, rolls
// them back when the body fails and returns its error; the Txn's Read and
// Update say NOT_FOUND and UNEXPECTED_STATE of a missing key. Where the
// driver says the sessions run no transactions (db.TxnDriver), Transact
// fails and writes nothing.
func (s *suite) transactional(t *testing.T, ss db.Session, p string) {
	tr, ok := ss.(db.Transactional)
	if !ok {
		if err := s.transactionsRefused(); err == nil && s.opts.Driver != nil {
			if _, ok := s.opts.Driver.(db.TxnDriver); ok {
				t.Fatal("the driver's Transactions allows transactions, but the session is no db.Transactional")
			}
		}
		t.Skip("the session is no db.Transactional")
	}
	key := p + "k"
	s.insert(t, ss, key, 1)
	v1 := string(s.record(key, 1)[0].Value)
	set := func(v string) []db.Field { return []db.Field{{Name: s.fieldName(0), Value: []byte(v)}} }
	if refused := s.transactionsRefused(); refused != nil {
		err := tr.Transact(ctx(), &txnBody{fn: func(ctx context.Context, tx db.Txn) error {
			return tx.Update(ctx, s.opts.Table, key, set("refused"))
		}})
		if db.StatusOf(err).IsOK() {
			t.Fatalf("Transact succeeded where the driver refuses transactions (%v)", refused)
		}
		s.wantField0(t, key, v1)
		return
	}
	var read db.Record
	commit := &txnBody{fn: func(ctx context.Context, tx db.Txn) error {
		read.Reset()
		if err := tx.Read(ctx, s.opts.Table, key, []string{s.fieldName(0)}, &read); err != nil {
			return err
		}
		return tx.Update(ctx, s.opts.Table, key, set("committed"))
	}}
	mustOK(t, "Transact", tr.Transact(ctx(), commit))
	if got, _ := read.Get(s.fieldName(0)); string(got) != v1 || commit.attempts < 1 {
		t.Errorf("the transaction read %s = %q in %d attempts, want %q", s.fieldName(0), got, commit.attempts, v1)
	}
	s.wantField0(t, key, "committed")

	abort := &txnBody{fn: func(ctx context.Context, tx db.Txn) error {
		if err := tx.Update(ctx, s.opts.Table, key, set("rolled back")); err != nil {
			return err
		}
		return errAbort
	}}
	if err := tr.Transact(ctx(), abort); !errors.Is(err, errAbort) {
		t.Errorf("Transact of a body that fails = %v, want its error", err)
	}
	s.wantField0(t, key, "committed")

	missing := p + "missing"
	var readStatus, updateStatus db.Status
	probe := &txnBody{fn: func(ctx context.Context, tx db.Txn) error {
		var r db.Record
		readStatus = db.StatusOf(tx.Read(ctx, s.opts.Table, missing, nil, &r))
		updateStatus = db.StatusOf(tx.Update(ctx, s.opts.Table, missing, set("x")))
		return nil
	}}
	mustOK(t, "Transact of the missing key's probe", tr.Transact(ctx(), probe))
	if readStatus != db.NotFound || updateStatus != db.UnexpectedState {
		t.Errorf("in a transaction, a missing key's Read is %v and Update %v, want NOT_FOUND and UNEXPECTED_STATE", readStatus, updateStatus)
	}
}

// wantField0 reads key's first field from a new session.
func (s *suite) wantField0(t *testing.T, key, want string) {
	t.Helper()
	ss := s.session(t, 0, 1)
	defer ss.Close(ctx())
	var r db.Record
	mustOK(t, "Read "+key, ss.Read(ctx(), s.opts.Table, key, []string{s.fieldName(0)}, &r))
	if got, _ := r.Get(s.fieldName(0)); string(got) != want {
		t.Errorf("%s of %s = %q, want %q", s.fieldName(0), key, got, want)
	}
}

// readModifyWriter: ReadModifyWrite reads the fields and writes the values
// together; a missing key is NOT_FOUND and nothing is written.
func (s *suite) readModifyWriter(t *testing.T, ss db.Session, p string) {
	rmw, ok := ss.(db.ReadModifyWriter)
	if !ok {
		t.Skip("the session is no db.ReadModifyWriter")
	}
	key := p + "k"
	s.insert(t, ss, key, 1)
	var out db.Record
	values := []db.Field{{Name: s.fieldName(1), Value: []byte("modified")}}
	mustOK(t, "ReadModifyWrite", rmw.ReadModifyWrite(ctx(), s.opts.Table, key, []string{s.fieldName(0)}, &out, values))
	if got, _ := out.Get(s.fieldName(0)); string(got) != string(s.record(key, 1)[0].Value) || out.Len() != 1 {
		t.Errorf("ReadModifyWrite read %d fields, %s = %q", out.Len(), s.fieldName(0), got)
	}
	var r db.Record
	mustOK(t, "Read", ss.Read(ctx(), s.opts.Table, key, nil, &r))
	if m := s.asMap(&r); m[s.fieldName(1)] != "modified" || m[s.fieldName(0)] != string(s.record(key, 1)[0].Value) {
		t.Errorf("after ReadModifyWrite the record is %v", m)
	}
	missing := p + "missing"
	out.Reset()
	if err := rmw.ReadModifyWrite(ctx(), s.opts.Table, missing, nil, &out, values); db.StatusOf(err) != db.NotFound {
		t.Errorf("ReadModifyWrite of a missing key: status %v (%v), want NOT_FOUND", db.StatusOf(err), err)
	}
	if err := ss.Read(ctx(), s.opts.Table, missing, nil, &r); db.StatusOf(err) != db.NotFound {
		t.Errorf("a ReadModifyWrite of a missing key wrote it: read status %v", db.StatusOf(err))
	}
}

// retryCounter: Retries never decreases, from 0 or more.
func (s *suite) retryCounter(t *testing.T, ss db.Session, p string) {
	rc, ok := ss.(db.RetryCounter)
	if !ok {
		t.Skip("the session is no db.RetryCounter")
	}
	last := rc.Retries()
	if last < 0 {
		t.Fatalf("Retries = %d", last)
	}
	var r db.Record
	for i := 0; i < 5; i++ {
		key := fmt.Sprintf("%s%d", p, i)
		_ = ss.Insert(ctx(), s.opts.Table, key, s.record(key, 1))
		_ = ss.Read(ctx(), s.opts.Table, key+"-missing", nil, &r)
		if n := rc.Retries(); n < last {
			t.Fatalf("Retries went down from %d to %d", last, n)
		} else {
			last = n
		}
	}
}

// statsReporter: every row has a section and a name, once, and an int64 or
// float64 value.
func (s *suite) statsReporter(t *testing.T, ss db.Session, p string) {
	sr, ok := s.db.(db.StatsReporter)
	if !ok {
		t.Skip("the DB is no db.StatsReporter")
	}
	if !s.opts.NoStorage {
		s.insert(t, ss, p+"k", 1)
	}
	seen := map[[2]string]bool{}
	for _, st := range sr.Stats() {
		if st.Section == "" || st.Name == "" {
			t.Errorf("a stat without a section or a name: %+v", st)
		}
		if seen[[2]string{st.Section, st.Name}] {
			t.Errorf("[%s] %s reported twice", st.Section, st.Name)
		}
		seen[[2]string{st.Section, st.Name}] = true
		switch st.Value.(type) {
		case int64, float64:
		default:
			t.Errorf("[%s] %s = %v, a %T: want an int64 or a float64", st.Section, st.Name, st.Value, st.Value)
		}
	}
}

// settler: Settle succeeds on a live store, returns soon once its context
// is cancelled, and leaves the store usable.
func (s *suite) settler(t *testing.T, ss db.Session, p string) {
	st, ok := s.db.(db.Settler)
	if !ok {
		t.Skip("the DB is no db.Settler")
	}
	key := p + "k"
	s.insert(t, ss, key, 1)
	mustOK(t, "Settle", st.Settle(ctx()))
	cctx, cancel := context.WithCancel(ctx())
	cancel()
	done := make(chan error, 1)
	go func() { done <- st.Settle(cctx) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Settle with a cancelled context did not return")
	}
	var r db.Record
	mustOK(t, "Read after Settle", ss.Read(ctx(), s.opts.Table, key, nil, &r))
}
