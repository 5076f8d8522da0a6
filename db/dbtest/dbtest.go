// Package dbtest is the conformance suite every binding runs against its own
// backend, in the spirit of testing/fstest:
//
//	func TestConformance(t *testing.T) {
//		dbtest.Run(t, func(t *testing.T) db.DB { return openTestDB(t) }, dbtest.Options{})
//	}
//
// Each check uses keys with a prefix of its own, so the suite can run against
// a table that already holds data (but for db.Summer's check, which wants
// the table empty). Each optional capability the binding declares (db's
// package doc lists them) is checked against its contract; give
// Options.Driver and Options.Props for the Driver's own (db.Checker,
// db.TxnDriver).
package dbtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

// Options describe what the binding under test promises.
type Options struct {
	Table  string // default "usertable"
	Fields int    // fields per record; default 10 (field0..field9)
	// TokenOrderScan says scans follow the backend's own order (Cassandra's
	// token order), so only the start key and the count are checked.
	TokenOrderScan bool
	// NoStorage is for the basic binding: operations succeed but store nothing.
	NoStorage bool
	// NoScan says the binding refuses scans (a layout without an index):
	// a scan must fail with NOT_IMPLEMENTED, never succeed empty.
	NoScan bool
	// Driver and Props are the driver that open uses and the properties
	// it opens the DB with: the suite then checks the Driver's
	// capabilities (db.Checker, db.TxnDriver) against them.
	Driver db.Driver
	Props  *props.Properties
}

func (o *Options) defaults() {
	if o.Table == "" {
		o.Table = "usertable"
	}
	if o.Fields == 0 {
		o.Fields = 10
	}
}

// check is one of the suite's checks; storage: it needs a binding that
// stores what it is given (not Options.NoStorage).
type check struct {
	name    string
	storage bool
	fn      func(t *testing.T, ss db.Session, p string)
}

type suite struct {
	t      *testing.T
	opts   Options
	db     db.DB
	prefix string
}

// Run runs every check against the DB returned by open. open is called once;
// the suite closes the DB at the end.
func Run(t *testing.T, open func(t *testing.T) db.DB, opts Options) {
	opts.defaults()
	d := open(t)
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	s := &suite{t: t, opts: opts, db: d, prefix: fmt.Sprintf("dbtest%x", time.Now().UnixNano())}
	checks := append(s.capabilityChecks(t), []check{
		{"InsertRead", true, s.insertRead},
		{"ReadFieldSubset", true, s.readSubset},
		{"UpdateKeepsOtherFields", true, s.updateKeeps},
		{"Scan", true, s.scan},
		{"ScanZero", false, s.scanZero},
		{"DeleteThenNotFound", true, s.deleteNotFound},
		{"MissingKeyIsNotFound", true, s.missing},
		{"UsableAfterError", false, s.usableAfterError},
		{"Cancellation", false, s.cancellation},
		{"CloseFlushes", true, s.closeFlushes},
		{"ConcurrentSessions", true, s.concurrent},
		{"NoStorageOK", false, s.noStorage},
	}...)
	for _, c := range checks {
		if c.storage && opts.NoStorage {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			ss := s.session(t, 0, 1)
			// In a cleanup, so a failed check still returns its pooled
			// connection and the next checks do not wait for one.
			t.Cleanup(func() {
				if err := ss.Close(context.Background()); err != nil {
					t.Errorf("Session.Close: %v", err)
				}
			})
			c.fn(t, ss, s.prefix+"-"+c.name+"-")
		})
	}
}

func (s *suite) session(t *testing.T, worker, workers int) db.Session {
	t.Helper()
	ss, err := s.db.Session(context.Background(), worker, workers)
	if err != nil {
		t.Fatalf("Session: %v", err)
	}
	return ss
}

func (s *suite) fieldName(i int) string { return fmt.Sprintf("field%d", i) }

func (s *suite) record(key string, version int) []db.Field {
	out := make([]db.Field, s.opts.Fields)
	for i := range out {
		out[i] = db.Field{Name: s.fieldName(i), Value: []byte(fmt.Sprintf("%s:%s:v%d", key, s.fieldName(i), version))}
	}
	return out
}

// asMap turns a read result into name→value, ignoring a key column some
// bindings return with all-field reads (the reference's cassandra binding
// returns y_id).
func (s *suite) asMap(r *db.Record) map[string]string {
	m := map[string]string{}
	for _, f := range r.Fields {
		if strings.HasPrefix(f.Name, "field") {
			m[f.Name] = string(f.Value)
		}
	}
	return m
}

func ctx() context.Context { return context.Background() }

func mustOK(t *testing.T, what string, err error) {
	t.Helper()
	if st := db.StatusOf(err); !st.IsOK() {
		t.Fatalf("%s: status %v: %v", what, st, err)
	}
}

func (s *suite) insert(t *testing.T, ss db.Session, key string, version int) {
	t.Helper()
	mustOK(t, "Insert "+key, ss.Insert(ctx(), s.opts.Table, key, s.record(key, version)))
}

func (s *suite) insertRead(t *testing.T, ss db.Session, p string) {
	key := p + "k"
	s.insert(t, ss, key, 1)
	var r db.Record
	mustOK(t, "Read", ss.Read(ctx(), s.opts.Table, key, nil, &r))
	got := s.asMap(&r)
	if len(got) != s.opts.Fields {
		t.Fatalf("read %d fields, want %d: %v", len(got), s.opts.Fields, got)
	}
	for _, f := range s.record(key, 1) {
		if got[f.Name] != string(f.Value) {
			t.Errorf("%s = %q, want %q", f.Name, got[f.Name], f.Value)
		}
	}
	// The caller may reuse its buffers after the call: the stored record
	// must not change when it does.
	vals := s.record(p+"k2", 1)
	mustOK(t, "Insert", ss.Insert(ctx(), s.opts.Table, p+"k2", vals))
	for i := range vals {
		for j := range vals[i].Value {
			vals[i].Value[j] = 'X'
		}
	}
	r.Reset()
	mustOK(t, "Read", ss.Read(ctx(), s.opts.Table, p+"k2", nil, &r))
	if v := s.asMap(&r)["field0"]; v != string(s.record(p+"k2", 1)[0].Value) {
		t.Errorf("stored value changed with the caller's buffer: %q", v)
	}
}

func (s *suite) readSubset(t *testing.T, ss db.Session, p string) {
	key := p + "k"
	s.insert(t, ss, key, 1)
	want := []string{s.fieldName(0), s.fieldName(s.opts.Fields - 1)}
	var r db.Record
	mustOK(t, "Read", ss.Read(ctx(), s.opts.Table, key, want, &r))
	got := s.asMap(&r)
	if len(got) != len(want) {
		t.Fatalf("read %v, want only %v", got, want)
	}
	for _, n := range want {
		if got[n] != fmt.Sprintf("%s:%s:v1", key, n) {
			t.Errorf("%s = %q", n, got[n])
		}
	}
}

func (s *suite) updateKeeps(t *testing.T, ss db.Session, p string) {
	key := p + "k"
	s.insert(t, ss, key, 1)
	upd := []db.Field{{Name: s.fieldName(1), Value: []byte("new1")}, {Name: s.fieldName(3), Value: []byte("new3")}}
	mustOK(t, "Update", ss.Update(ctx(), s.opts.Table, key, upd))
	var r db.Record
	mustOK(t, "Read", ss.Read(ctx(), s.opts.Table, key, nil, &r))
	got := s.asMap(&r)
	for i := 0; i < s.opts.Fields; i++ {
		n := s.fieldName(i)
		want := fmt.Sprintf("%s:%s:v1", key, n)
		switch i {
		case 1:
			want = "new1"
		case 3:
			want = "new3"
		}
		if got[n] != want {
			t.Errorf("after update %s = %q, want %q", n, got[n], want)
		}
	}
}

func (s *suite) scan(t *testing.T, ss db.Session, p string) {
	if s.opts.NoScan {
		s.insert(t, ss, p+"00", 1)
		var rows db.Rows
		err := ss.Scan(ctx(), s.opts.Table, p+"00", 4, nil, &rows)
		if st := db.StatusOf(err); st != db.NotImplemented || rows.Len() != 0 {
			t.Fatalf("scan of a binding without scans: status %v (%v), %d rows; want NOT_IMPLEMENTED and none", st, err, rows.Len())
		}
		return
	}
	var keys []string
	for i := 0; i < 10; i++ {
		k := fmt.Sprintf("%s%02d", p, i)
		keys = append(keys, k)
		s.insert(t, ss, k, 1)
	}
	var rows db.Rows
	mustOK(t, "Scan", ss.Scan(ctx(), s.opts.Table, keys[3], 4, nil, &rows))
	if s.opts.TokenOrderScan {
		// In token order the rows after the start key are whatever hashes
		// above it, possibly none: only the start key and the limit are sure.
		if rows.Len() < 1 || rows.Len() > 4 {
			t.Fatalf("scan returned %d rows, want 1 to 4", rows.Len())
		}
		if got := string(rows.At(0).Key); got != keys[3] {
			t.Errorf("first scanned key %q, want the start key %q", got, keys[3])
		}
		var one db.Rows
		mustOK(t, "Scan 1", ss.Scan(ctx(), s.opts.Table, keys[5], 1, nil, &one))
		if one.Len() != 1 || string(one.At(0).Key) != keys[5] {
			t.Errorf("scan of 1 from %q returned %d rows", keys[5], one.Len())
		}
	} else {
		if rows.Len() != 4 {
			t.Fatalf("scan returned %d rows, want 4", rows.Len())
		}
		for i := 0; i < 4; i++ {
			if got := string(rows.At(i).Key); got != keys[3+i] {
				t.Errorf("row %d key %q, want %q", i, got, keys[3+i])
			}
			if m := s.asMap(rows.At(i)); m["field0"] != keys[3+i]+":field0:v1" {
				t.Errorf("row %d field0 = %q", i, m["field0"])
			}
		}
	}
	seen := map[string]bool{}
	for i := 0; i < rows.Len(); i++ {
		k := string(rows.At(i).Key)
		if seen[k] {
			t.Errorf("key %q scanned twice", k)
		}
		seen[k] = true
	}
	// A field subset applies to every row.
	rows.Reset()
	mustOK(t, "Scan subset", ss.Scan(ctx(), s.opts.Table, keys[0], 2, []string{"field2"}, &rows))
	if rows.Len() != 2 && !(s.opts.TokenOrderScan && rows.Len() == 1) {
		t.Fatalf("subset scan returned %d rows, want 2", rows.Len())
	}
	for i := 0; i < rows.Len(); i++ {
		if m := s.asMap(rows.At(i)); len(m) != 1 || m["field2"] == "" {
			t.Errorf("subset scan row %d fields %v, want only field2", i, m)
		}
	}
	if !s.opts.TokenOrderScan {
		// Past the end of the prefix: fewer rows, never rows before the start.
		rows.Reset()
		mustOK(t, "Scan tail", ss.Scan(ctx(), s.opts.Table, keys[8], 2, nil, &rows))
		if rows.Len() != 2 || string(rows.At(0).Key) != keys[8] || string(rows.At(1).Key) != keys[9] {
			t.Errorf("tail scan keys wrong")
		}
		var got []string
		for i := 0; i < rows.Len(); i++ {
			got = append(got, string(rows.At(i).Key))
		}
		if !sort.StringsAreSorted(got) {
			t.Errorf("scan not in key order: %v", got)
		}
	}
}

// scanZero: a scan of 0 records (minscanlength=0) is OK with no rows, as
// the reference's JDBC binding returns for LIMIT 0, and leaves out as it was.
func (s *suite) scanZero(t *testing.T, ss db.Session, p string) {
	if s.opts.NoScan {
		t.Skip("the binding refuses scans (Scan checks that)")
	}
	key := p + "k"
	if !s.opts.NoStorage {
		s.insert(t, ss, key, 1)
	}
	var rows db.Rows
	rows.Next().SetKey([]byte("before"))
	mustOK(t, "Scan 0", ss.Scan(ctx(), s.opts.Table, key, 0, nil, &rows))
	if rows.Len() != 1 || string(rows.At(0).Key) != "before" {
		t.Errorf("scan of 0 records left %d rows, want only the 1 already there", rows.Len())
	}
}

func (s *suite) deleteNotFound(t *testing.T, ss db.Session, p string) {
	key := p + "k"
	s.insert(t, ss, key, 1)
	mustOK(t, "Delete", ss.Delete(ctx(), s.opts.Table, key))
	var r db.Record
	err := ss.Read(ctx(), s.opts.Table, key, nil, &r)
	if st := db.StatusOf(err); st != db.NotFound {
		t.Fatalf("read after delete: status %v (%v), want NOT_FOUND", st, err)
	}
}

func (s *suite) missing(t *testing.T, ss db.Session, p string) {
	var r db.Record
	err := ss.Read(ctx(), s.opts.Table, p+"never-inserted", nil, &r)
	if st := db.StatusOf(err); st != db.NotFound {
		t.Fatalf("read of a missing key: status %v (%v), want NOT_FOUND", st, err)
	}
	if !errors.Is(err, db.ErrNotFound) {
		t.Errorf("errors.Is(err, db.ErrNotFound) is false for %v", err)
	}
}

func (s *suite) usableAfterError(t *testing.T, ss db.Session, p string) {
	var r db.Record
	_ = ss.Read(ctx(), s.opts.Table, p+"missing", nil, &r)
	cctx, cancel := context.WithCancel(ctx())
	cancel()
	_ = ss.Read(cctx, s.opts.Table, p+"missing", nil, &r)
	key := p + "k"
	mustOK(t, "Insert after errors", ss.Insert(ctx(), s.opts.Table, key, s.record(key, 1)))
	r.Reset()
	mustOK(t, "Read after errors", ss.Read(ctx(), s.opts.Table, key, nil, &r))
}

func (s *suite) cancellation(t *testing.T, ss db.Session, p string) {
	cctx, cancel := context.WithCancel(ctx())
	cancel()
	key := p + "k"
	var r db.Record
	var rows db.Rows
	ops := map[string]func() error{
		"Read":   func() error { return ss.Read(cctx, s.opts.Table, key, nil, &r) },
		"Scan":   func() error { return ss.Scan(cctx, s.opts.Table, key, 1, nil, &rows) },
		"Update": func() error { return ss.Update(cctx, s.opts.Table, key, s.record(key, 2)[:1]) },
		"Insert": func() error { return ss.Insert(cctx, s.opts.Table, key, s.record(key, 1)) },
		"Delete": func() error { return ss.Delete(cctx, s.opts.Table, key) },
	}
	for name, op := range ops {
		done := make(chan error, 1)
		go func() { done <- op() }()
		select {
		case err := <-done:
			if db.StatusOf(err).IsOK() {
				t.Errorf("%s with a cancelled context succeeded", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s with a cancelled context did not return", name)
		}
	}
}

func (s *suite) closeFlushes(t *testing.T, _ db.Session, p string) {
	ss := s.session(t, 0, 1)
	var keys []string
	for i := 0; i < 3; i++ {
		k := fmt.Sprintf("%s%d", p, i)
		keys = append(keys, k)
		s.insert(t, ss, k, 1) // may be BATCHED_OK
	}
	s.closeAndReadBack(t, ss, keys)
}

// closeAndReadBack closes ss, which must send anything it buffered, and
// reads every key from a new session.
func (s *suite) closeAndReadBack(t *testing.T, ss db.Session, keys []string) {
	t.Helper()
	if err := ss.Close(ctx()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ss2 := s.session(t, 0, 1)
	defer ss2.Close(ctx())
	for _, k := range keys {
		var r db.Record
		mustOK(t, "Read after Close "+k, ss2.Read(ctx(), s.opts.Table, k, nil, &r))
	}
}

func (s *suite) concurrent(t *testing.T, _ db.Session, p string) {
	const workers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ss, err := s.db.Session(ctx(), w, workers)
			if err != nil {
				errs <- err
				return
			}
			defer ss.Close(ctx())
			var r db.Record
			for i := 0; i < each; i++ {
				k := fmt.Sprintf("%sw%d-%03d", p, w, i)
				if err := ss.Insert(ctx(), s.opts.Table, k, s.record(k, w)); !db.StatusOf(err).IsOK() {
					errs <- fmt.Errorf("insert %s: %w", k, err)
					return
				}
				if db.StatusOf(ss.Insert(ctx(), s.opts.Table, k, s.record(k, w))) == db.BatchedOK {
					continue
				}
				r.Reset()
				if err := ss.Read(ctx(), s.opts.Table, k, []string{"field0"}, &r); err != nil {
					errs <- fmt.Errorf("read %s: %w", k, err)
					return
				}
				if v, _ := r.Get("field0"); !bytes.Equal(v, []byte(fmt.Sprintf("%s:field0:v%d", k, w))) {
					errs <- fmt.Errorf("read %s: field0 = %q", k, v)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func (s *suite) noStorage(t *testing.T, ss db.Session, p string) {
	if !s.opts.NoStorage {
		t.Skip("binding stores data; covered by the other checks")
	}
	key := p + "k"
	var r db.Record
	var rows db.Rows
	mustOK(t, "Insert", ss.Insert(ctx(), s.opts.Table, key, s.record(key, 1)))
	mustOK(t, "Read", ss.Read(ctx(), s.opts.Table, key, nil, &r))
	mustOK(t, "Scan", ss.Scan(ctx(), s.opts.Table, key, 3, nil, &rows))
	mustOK(t, "Update", ss.Update(ctx(), s.opts.Table, key, s.record(key, 2)))
	mustOK(t, "Delete", ss.Delete(ctx(), s.opts.Table, key))
}
