package sqlite

import (
	"context"
	"database/sql"
	"fmt"
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
	st     *sql.Stmt
	cols   []string // the columns it selects (read, scan)
}

// session is a worker's connection with its prepared statements. The
// workload asks the same few field lists over and over, so the cache is a
// short list compared field by field: a hit allocates nothing.
type session struct {
	d       *DB
	conn    *sql.Conn
	stmts   []stmt
	args    []any
	raw     []sql.RawBytes
	dest    []any
	written *kv.WriteCounter
	rec     db.Record
	rows    db.Rows
}

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
	st, err := s.conn.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
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

func (s *session) checkTable(table string) error {
	if table != s.d.cfg.table {
		return fmt.Errorf("sqlite: table %q: the database was opened for table %q (the table property)", table, s.d.cfg.table)
	}
	return nil
}

// scanRow reads the current row's columns into raw; key is the first
// column when withKey.
func (s *session) scanRow(r *sql.Rows, n int) error {
	for len(s.raw) < n {
		s.raw = append(s.raw, nil)
	}
	s.dest = s.dest[:0]
	for i := 0; i < n; i++ {
		s.dest = append(s.dest, &s.raw[i])
	}
	return r.Scan(s.dest...)
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
	r, err := st.st.QueryContext(ctx, key)
	if err != nil {
		return s.wrap("read", err)
	}
	defer r.Close()
	if !r.Next() {
		if err := r.Err(); err != nil {
			return s.wrap("read", err)
		}
		return db.ErrNotFound
	}
	if err := s.scanRow(r, len(st.cols)); err != nil {
		return s.wrap("read", err)
	}
	for i, c := range st.cols {
		if s.raw[i] != nil {
			out.Add(c, s.raw[i])
		}
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
	r, err := st.st.QueryContext(ctx, startKey, count)
	if err != nil {
		return s.wrap("scan", err)
	}
	defer r.Close()
	for r.Next() {
		if err := s.scanRow(r, len(st.cols)+1); err != nil {
			return s.wrap("scan", err)
		}
		rec := out.Next()
		rec.SetKey(s.raw[0])
		for i, c := range st.cols {
			if s.raw[i+1] != nil {
				rec.Add(c, s.raw[i+1])
			}
		}
	}
	if err := r.Err(); err != nil {
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
		names = valueNames(values, make([]string, 0, 16)) // on the stack unless prepared keeps it
	}
	st, err := s.prepared(ctx, kind, names)
	if err != nil {
		return s.wrap(op, err)
	}
	s.args = s.args[:0]
	if kind == kindInsert {
		s.args = append(s.args, key)
	}
	for i := range values {
		s.args = append(s.args, values[i].Value)
	}
	if kind != kindInsert {
		s.args = append(s.args, key)
	}
	if _, err := st.st.ExecContext(ctx, s.args...); err != nil {
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
