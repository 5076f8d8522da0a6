package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/kv"
)

// Statement kinds.
const (
	kindRead byte = iota
	kindScan
	kindInsert
	kindUpdate
	kindDelete
)

// stmt is a prepared statement of one kind over one list of fields.
type stmt struct {
	kind   byte
	fields []string // nil: all columns
	st     driverStmt
	cols   []string // the columns it selects (read, scan)
}

// driverStmt is what the driver's statements implement.
type driverStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// session is a worker's connection with its prepared statements, on the
// driver's own connection: database/sql's pool, conversions and row
// buffers would cost as many allocations as SQLite itself, and a session
// is one worker's. The workload asks the same few field lists over and over,
// so the cache is a short list compared field by field: a hit allocates
// nothing. Statements run with a context that is never done (a done one
// makes the driver watch it from a goroutine of its own); the session checks
// the caller's context before each operation.
type session struct {
	d       *DB
	conn    driver.Conn
	stmts   []stmt
	args    []driver.NamedValue
	vals    []driver.Value
	names   []string
	written *kv.WriteCounter
	rec     db.Record
	rows    db.Rows
}

// background never ends: see session.
var background = context.Background()

func sameFields(a, b []string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func valueNames(values []db.Field, into []string) []string {
	into = into[:0]
	for i := range values {
		into = append(into, values[i].Name)
	}
	return into
}

// prepared returns the statement of kind over fields, preparing it once.
func (s *session) prepared(ctx context.Context, kind byte, fields []string) (*stmt, error) {
	for i := range s.stmts {
		if e := &s.stmts[i]; e.kind == kind && sameFields(e.fields, fields) {
			return e, nil
		}
	}
	cols := fields
	if cols == nil {
		cols = s.d.cfg.fields
	}
	t := s.d.cfg.table
	var q string
	switch kind {
	case kindRead:
		q = "SELECT " + strings.Join(cols, ",") + " FROM " + t + " WHERE YCSB_KEY = ?"
	case kindScan:
		q = "SELECT YCSB_KEY," + strings.Join(cols, ",") + " FROM " + t + " WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?"
	case kindInsert:
		q = "INSERT OR REPLACE INTO " + t + " (YCSB_KEY," + strings.Join(cols, ",") + ") VALUES (?" + strings.Repeat(",?", len(cols)) + ")"
	case kindUpdate:
		q = "UPDATE " + t + " SET " + strings.Join(cols, "=?,") + "=? WHERE YCSB_KEY = ?"
	case kindDelete:
		q = "DELETE FROM " + t + " WHERE YCSB_KEY = ?"
	}
	ds, err := s.conn.Prepare(q)
	if err != nil {
		return nil, err
	}
	st, ok := ds.(driverStmt)
	if !ok {
		ds.Close()
		return nil, fmt.Errorf("driver statement %T cannot run with a context", ds)
	}
	var own []string
	if fields != nil {
		own = append([]string{}, fields...)
	}
	s.stmts = append(s.stmts, stmt{kind: kind, fields: own, st: st, cols: cols})
	return &s.stmts[len(s.stmts)-1], nil
}

func (s *session) wrap(op string, err error) error {
	return fmt.Errorf("sqlite: %s: %s", op, oneLine(err))
}

// bind sets the statement arguments: for an insert the key first, else last.
func (s *session) bind(key string, keyFirst bool, values []db.Field) {
	s.args = s.args[:0]
	if keyFirst {
		s.args = append(s.args, driver.NamedValue{Ordinal: 1, Value: key})
	}
	for i := range values {
		s.args = append(s.args, driver.NamedValue{Ordinal: len(s.args) + 1, Value: values[i].Value})
	}
	if !keyFirst {
		s.args = append(s.args, driver.NamedValue{Ordinal: len(s.args) + 1, Value: key})
	}
}

// query runs st and reads rows of n columns into s.vals, calling row for
// each, until there are no more or limit rows were read.
func (s *session) query(st *stmt, n int, row func() error) error {
	r, err := st.st.QueryContext(background, s.args)
	if err != nil {
		return err
	}
	if cap(s.vals) < n {
		s.vals = make([]driver.Value, n)
	}
	s.vals = s.vals[:n]
	for {
		err := r.Next(s.vals)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			r.Close()
			return err
		}
		if err := row(); err != nil {
			r.Close()
			return err
		}
	}
	return r.Close()
}

// addColumns adds the non-NULL columns of s.vals from first on to out.
func (s *session) addColumns(out *db.Record, cols []string, first int) {
	for i, c := range cols {
		switch v := s.vals[first+i].(type) {
		case []byte:
			out.Add(c, v)
		case string:
			out.Add(c, []byte(v))
		}
	}
}

func (s *session) checkTable(table string) error {
	if table != s.d.cfg.table {
		return fmt.Errorf("sqlite: table %q: the database was opened for table %q (the table property)", table, s.d.cfg.table)
	}
	return nil
}

// Read implements db.Session.
func (s *session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.checkTable(table); err != nil {
		return err
	}
	if out == nil {
		s.rec.Reset()
		out = &s.rec
	}
	st, err := s.prepared(ctx, kindRead, fields)
	if err != nil {
		return s.wrap("read", err)
	}
	s.bind(key, true, nil)
	found := false
	err = s.query(st, len(st.cols), func() error {
		found = true
		s.addColumns(out, st.cols, 0)
		return nil
	})
	if err != nil {
		return s.wrap("read", err)
	}
	if !found {
		return db.ErrNotFound
	}
	return nil
}

// Scan implements db.Session: up to count records from startKey on, in
// key order.
func (s *session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.checkTable(table); err != nil {
		return err
	}
	if out == nil {
		s.rows.Reset()
		out = &s.rows
	}
	st, err := s.prepared(ctx, kindScan, fields)
	if err != nil {
		return s.wrap("scan", err)
	}
	s.bind(startKey, true, nil)
	s.args = append(s.args, driver.NamedValue{Ordinal: 2, Value: int64(count)})
	err = s.query(st, len(st.cols)+1, func() error {
		rec := out.Next()
		switch k := s.vals[0].(type) {
		case string:
			rec.SetKey([]byte(k))
		case []byte:
			rec.SetKey(k)
		}
		s.addColumns(rec, st.cols, 1)
		return nil
	})
	if err != nil {
		return s.wrap("scan", err)
	}
	return nil
}

func (s *session) exec(ctx context.Context, op string, kind byte, table, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.checkTable(table); err != nil {
		return err
	}
	var names []string
	if kind != kindDelete {
		s.names = valueNames(values, s.names)
		names = s.names
	}
	st, err := s.prepared(ctx, kind, names)
	if err != nil {
		return s.wrap(op, err)
	}
	s.bind(key, kind == kindInsert, values)
	if _, err := st.st.ExecContext(background, s.args); err != nil {
		return s.wrap(op, err)
	}
	s.written.Add(kv.UserBytes(key, values))
	return nil
}

// Insert implements db.Session: the whole record, replacing any older one
// (as the key-value engines' put does).
func (s *session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	return s.exec(ctx, "insert", kindInsert, table, key, values)
}

// Update implements db.Session: the changed columns; a missing key stays
// missing.
func (s *session) Update(ctx context.Context, table, key string, values []db.Field) error {
	return s.exec(ctx, "update", kindUpdate, table, key, values)
}

// Delete implements db.Session.
func (s *session) Delete(ctx context.Context, table, key string) error {
	return s.exec(ctx, "delete", kindDelete, table, key, nil)
}

// Close implements db.Session: its connection's page cache counters go to
// the DB's.
func (s *session) Close(context.Context) error {
	c := counters(s.conn)
	s.d.mu.Lock()
	s.d.cache.add(c)
	delete(s.d.open, s)
	s.d.mu.Unlock()
	s.written.Close()
	for i := range s.stmts {
		s.stmts[i].st.Close()
	}
	if err := s.conn.Close(); err != nil {
		return s.wrap("close session", err)
	}
	return nil
}
