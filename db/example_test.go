package db_test

import (
	"context"
	"fmt"
	"io"
	"sort"
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

// openMap is the binding's db.Driver: it reads and checks its properties
// first, so that a bad value is one line naming the property, then opens.
func openMap(_ context.Context, p *props.Properties, _ io.Writer) (db.DB, error) {
	if _, err := p.NonNegInt("mapdb.capacity", 0); err != nil {
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

func init() {
	// In a binding's own package: `ycsb load mapdb ...` then finds it.
	db.Register("mapdb", "an example: records in a map", db.DriverFunc(openMap))
}

// A binding registers a Driver; the runner looks it up by the name given
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

	// A bad property is one line that names it.
	_, err = driver.Open(ctx, props.FromMap(map[string]string{"mapdb.capacity": "-1"}), io.Discard)
	fmt.Println(err)
	// Output:
	// mapdb 2 fields
	// field1=b
	// user2: NOT_FOUND
	// mapdb.capacity: expected a non-negative integer, got "-1"
}

// TestExampleBindingConforms: the example a newcomer copies passes the
// conformance suite every binding runs.
func TestExampleBindingConforms(t *testing.T) {
	dbtest.Run(t, func(t *testing.T) db.DB {
		d, err := openMap(context.Background(), props.New(), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}, dbtest.Options{})
}
