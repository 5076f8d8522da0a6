package db_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/props"
)

// mapDB is a whole binding in one page: a table of records in memory,
// shared by the workers under a lock. A new binding is a folder under db/
// with this shape, registered in init and imported by db/all, that passes
// the conformance suite (dbtest.Run).
type mapDB struct {
	mu   sync.Mutex
	recs map[string]map[string][]byte // key → field → value
	keys []string                     // sorted, for Scan
}

// mapDriver is the binding's db.Driver, with the optional capability
// db.Checker: ycsb kube checks the properties of a run on other machines
// without opening anything.
var mapDriver = db.CheckedDriver{OpenFunc: openMap, CheckFunc: checkMap}

// checkMap validates the binding's properties as openMap does, and opens
// nothing.
func checkMap(p *props.Properties) error {
	_, err := p.NonNegInt("mapdb.capacity", 0)
	return err
}

// openMap reads and checks its properties first, so that a bad value is
// one line naming the property, then opens.
func openMap(_ context.Context, p *props.Properties, _ io.Writer) (db.DB, error) {
	if err := checkMap(p); err != nil {
		return nil, err
	}
	return &mapDB{recs: map[string]map[string][]byte{}}, nil
}

// Session is one worker's. This one holds no state of its own beyond the
// shared table; a binding with prepared statements, scratch buffers or a
// batch being filled keeps them here, unlocked: a session is one worker's.
func (m *mapDB) Session(context.Context, int, int) (db.Session, error) { return mapSession{m}, nil }

// Close releases the DB once every session is closed.
func (m *mapDB) Close() error { return nil }

// mapSession is one worker's db.Session: the operations are the shared
// table's (mapDB's methods), and Close is the session's own.
type mapSession struct{ *mapDB }

// Close sends what the session buffered (nothing here).
func (mapSession) Close(context.Context) error { return nil }

func (m *mapDB) Read(ctx context.Context, _, key string, fields []string, out *db.Record) error {
	if err := ctx.Err(); err != nil {
		return err // every operation honours cancellation
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	rec, ok := m.recs[key]
	if !ok {
		return db.ErrNotFound
	}
	appendFields(out, rec, fields)
	return nil
}

func (m *mapDB) Scan(ctx context.Context, _, start string, count int, fields []string, out *db.Rows) error {
	if err := ctx.Err(); err != nil {
		return err // every operation honours cancellation
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := sort.SearchStrings(m.keys, start); i < len(m.keys) && count > 0; i, count = i+1, count-1 {
		r := out.Next()
		r.SetKey([]byte(m.keys[i]))
		appendFields(r, m.recs[m.keys[i]], fields)
	}
	return nil
}

// appendFields copies fields (all when nil) of rec into out: results are
// the caller's buffers, filled by copying.
func appendFields(out *db.Record, rec map[string][]byte, fields []string) {
	if fields == nil {
		for name := range rec {
			fields = append(fields, name)
		}
		sort.Strings(fields)
	}
	for _, f := range fields {
		if v, ok := rec[f]; ok {
			out.Add(f, v)
		}
	}
}

func (m *mapDB) Update(ctx context.Context, _, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return err // every operation honours cancellation
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	rec, ok := m.recs[key]
	if !ok {
		return db.ErrNotFound
	}
	for _, f := range values {
		rec[f.Name] = append([]byte(nil), f.Value...) // arguments are the caller's: copy
	}
	return nil
}

func (m *mapDB) Insert(ctx context.Context, _, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return err // every operation honours cancellation
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.recs[key]; !ok {
		i := sort.SearchStrings(m.keys, key)
		m.keys = append(m.keys[:i], append([]string{strings.Clone(key)}, m.keys[i:]...)...)
	}
	rec := map[string][]byte{}
	for _, f := range values {
		rec[f.Name] = append([]byte(nil), f.Value...)
	}
	m.recs[strings.Clone(key)] = rec
	return nil
}

func (m *mapDB) Delete(ctx context.Context, _, key string) error {
	if err := ctx.Err(); err != nil {
		return err // every operation honours cancellation
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.recs[key]; !ok {
		return db.ErrNotFound
	}
	delete(m.recs, key)
	i := sort.SearchStrings(m.keys, key)
	m.keys = append(m.keys[:i], m.keys[i+1:]...)
	return nil
}

// Transact makes the session a db.Transactional (the closed economy's
// transfers need one): body's updates are staged and applied together
// when it returns nil, dropped when it fails. The table's lock, held for
// the whole transaction, isolates it, so no attempt needs a retry.
func (m *mapDB) Transact(ctx context.Context, body db.TxnBody) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	tx := &mapTxn{m: m, staged: map[string][]db.Field{}}
	if err := body.Attempt(ctx, tx); err != nil {
		return err // nothing applied: a rollback
	}
	for key, values := range tx.staged {
		for _, f := range values {
			m.recs[key][f.Name] = append([]byte(nil), f.Value...)
		}
	}
	return nil
}

// mapTxn is a transaction in progress (db.Txn), its table locked.
type mapTxn struct {
	m      *mapDB
	staged map[string][]db.Field // key → updates, in order
}

func (tx *mapTxn) Read(ctx context.Context, _, key string, fields []string, out *db.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rec, ok := tx.m.recs[key]
	if !ok {
		return db.ErrNotFound
	}
	view := maps.Clone(rec) // the transaction reads its own writes
	for _, f := range tx.staged[key] {
		view[f.Name] = f.Value
	}
	appendFields(out, view, fields)
	return nil
}

func (tx *mapTxn) Update(ctx context.Context, _, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, ok := tx.m.recs[key]; !ok {
		return db.ErrUnexpectedState // an update that touches no row
	}
	for _, f := range values {
		tx.staged[key] = append(tx.staged[key], db.Field{Name: f.Name, Value: bytes.Clone(f.Value)})
	}
	return nil
}

func init() {
	// In a binding's own package: `ycsb load mapdb ...` then finds it.
	db.Register("mapdb", "an example: records in a map", mapDriver)
}

// transfer is a transaction's body (db.TxnBody): it moves amount from one
// account's field0 to another's, as the closed economy does.
type transfer struct {
	from, to string
	amount   int
}

func (t transfer) Attempt(ctx context.Context, tx db.Txn) error {
	for key, delta := range map[string]int{t.from: -t.amount, t.to: t.amount} {
		var r db.Record
		if err := tx.Read(ctx, "usertable", key, []string{"field0"}, &r); err != nil {
			return err
		}
		v, _ := r.Get("field0")
		n, err := strconv.Atoi(string(v))
		if err != nil {
			return err
		}
		if err := tx.Update(ctx, "usertable", key, []db.Field{{Name: "field0", Value: []byte(strconv.Itoa(n + delta))}}); err != nil {
			return err
		}
	}
	return nil
}

// A binding registers a Driver; the front end looks it up by the name given
// on the command line, opens one DB, takes a Session per worker and calls
// its operations. Errors are statuses: db.StatusOf classifies them.
func Example_binding() {
	ctx := context.Background()
	driver, name, err := db.Lookup("mapdb")
	if err != nil {
		panic(err)
	}
	database, err := driver.Open(ctx, props.New(), io.Discard)
	if err != nil {
		panic(err)
	}
	defer database.Close()
	s, err := database.Session(ctx, 0, 1)
	if err != nil {
		panic(err)
	}
	defer s.Close(ctx)

	s.Insert(ctx, "usertable", "user1", []db.Field{{Name: "field0", Value: []byte("a")}, {Name: "field1", Value: []byte("b")}})
	var rec db.Record
	s.Read(ctx, "usertable", "user1", nil, &rec)
	fmt.Println(name, rec.Len(), "fields")
	v, _ := rec.Get("field1")
	fmt.Printf("field1=%s\n", v)
	err = s.Read(ctx, "usertable", "user2", nil, &rec)
	fmt.Println("user2:", db.StatusOf(err))

	// A bad property is one line that names it, from Open and, without
	// opening anything, from Check (db.Checker).
	bad := props.FromMap(map[string]string{"mapdb.capacity": "-1"})
	_, err = driver.Open(ctx, bad, io.Discard)
	fmt.Println(err)
	fmt.Println("check:", db.Check(driver, bad))

	// An optional capability is found by a type assertion, as the
	// program does (the closed economy asks for db.Transactional).
	if tr, ok := s.(db.Transactional); ok {
		s.Insert(ctx, "usertable", "user2", []db.Field{{Name: "field0", Value: []byte("0")}})
		s.Update(ctx, "usertable", "user1", []db.Field{{Name: "field0", Value: []byte("10")}})
		fmt.Println("transfer:", tr.Transact(ctx, transfer{from: "user1", to: "user2", amount: 3}))
		fmt.Println("overdrawn:", tr.Transact(ctx, transfer{from: "user1", to: "user9", amount: 3}))
		for _, key := range []string{"user1", "user2"} {
			rec.Reset()
			s.Read(ctx, "usertable", key, []string{"field0"}, &rec)
			v, _ := rec.Get("field0")
			fmt.Printf("%s field0=%s\n", key, v)
		}
	}
	// Output:
	// mapdb 2 fields
	// field1=b
	// user2: NOT_FOUND
	// mapdb.capacity: expected a non-negative integer, got "-1"
	// check: mapdb.capacity: expected a non-negative integer, got "-1"
	// transfer: <nil>
	// overdrawn: NOT_FOUND
	// user1 field0=7
	// user2 field0=3
}

// TestExampleBindingConforms: the example a newcomer copies passes the
// conformance suite every binding runs.
func TestExampleBindingConforms(t *testing.T) {
	dbtest.Run(t, func(t *testing.T) db.DB {
		d, err := mapDriver.Open(context.Background(), props.New(), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}, dbtest.Options{Driver: mapDriver, Props: props.New()})
}
