package kv

import (
	"bytes"
	"context"
	"fmt"

	"github.com/goycsb/ycsb/db"
)

// Conn is one worker's handle on an embedded engine: the few key-value
// operations the shared Session runs the records through. A binding
// implements it over its engine's API with its own value handling
// (Pebble's zero-copy value and closer, RocksDB's copy into the session's
// buffer in one C call). Not safe for
// concurrent use. Errors are the engine's own; Session wraps them.
type Conn interface {
	// Get returns the value stored under key, or found=false when there is
	// none. A found value may point into engine memory and stays valid until
	// Release, which the caller calls before anything else on the Conn.
	Get(key []byte) (value []byte, found bool, err error)
	// Release frees the value of the last Get that found one.
	Release()
	// Put stores value under key, replacing any older value.
	Put(key, value []byte) error
	// Merge adds value as a merge operand of key.
	Merge(key, value []byte) error
	// Delete removes key.
	Delete(key []byte) error
	// NewIter returns an iterator over the keys in [lower, upper). Both
	// slices stay untouched until the iterator is closed (an engine may keep
	// pointers to them). The iterator may be reused by the next NewIter.
	NewIter(lower, upper []byte) (Iterator, error)
	// Close releases the Conn.
	Close() error
}

// Iterator walks a key range in key order. Key and Value may point into
// engine memory and stay valid until the next move.
type Iterator interface {
	// First moves to the first key of the range and reports whether there
	// is one.
	First() bool
	// Next moves to the next key and reports whether there is one.
	Next() bool
	Key() []byte
	Value() ([]byte, error)
	// Close releases the iterator and returns an error met while iterating.
	Close() error
}

// Session is the db.Session of the key-value engines (all but sqlite, which
// keeps the reference's table layout): the record layout, NOT_FOUND
// handling, error messages and the count of user bytes written live here
// once, and each binding supplies only a Conn. Errors name the binding
// ("pebble: read: ...").
type Session struct {
	binding string
	conn    Conn
	key     []byte
	val     []byte
	upper   []byte
	dec     Decoder
	rec     db.Record // stands in for a nil out
	rows    db.Rows
	written *WriteCounter
}

// NewSession returns a session of binding that runs over conn.
func NewSession(binding string, conn Conn) *Session {
	return &Session{binding: binding, conn: conn, written: NewWriteCounter()}
}

func (s *Session) wrap(op string, err error) error {
	return fmt.Errorf("%s: %s: %w", s.binding, op, err)
}

// Read implements db.Session.
func (s *Session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if out == nil {
		s.rec.Reset()
		out = &s.rec
	}
	s.key = AppendStoreKey(s.key[:0], table, key)
	v, found, err := s.conn.Get(s.key)
	if err != nil {
		return s.wrap("read", err)
	}
	if !found {
		return db.ErrNotFound
	}
	if !Exists(v) {
		s.conn.Release()
		return db.ErrNotFound
	}
	err = s.dec.Decode(v, fields, out)
	s.conn.Release()
	if err != nil {
		return fmt.Errorf("%s: read %q: %w", s.binding, key, err)
	}
	return nil
}

// Scan implements db.Session: up to count records of table from startKey
// on, skipping keys that hold only updates.
func (s *Session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if out == nil {
		s.rows.Reset()
		out = &s.rows
	}
	s.key = AppendStoreKey(s.key[:0], table, startKey)
	s.upper = AppendTableEnd(s.upper[:0], table)
	it, err := s.conn.NewIter(s.key, s.upper)
	if err != nil {
		return s.wrap("scan", err)
	}
	prefix := len(table) + 1
	n := 0
	for valid := it.First(); valid && n < count; valid = it.Next() {
		v, err := it.Value()
		if err != nil {
			it.Close()
			return s.wrap("scan", err)
		}
		if !Exists(v) {
			continue
		}
		r := out.Next()
		r.SetKey(it.Key()[prefix:])
		if err := s.dec.Decode(v, fields, r); err != nil {
			it.Close()
			return fmt.Errorf("%s: scan %q: %w", s.binding, r.Key, err)
		}
		n++
		if n&63 == 0 && ctx.Err() != nil {
			it.Close()
			return ctx.Err()
		}
	}
	if err := it.Close(); err != nil {
		return s.wrap("scan", err)
	}
	return nil
}

// Update implements db.Session: a blind merge of the changed fields.
func (s *Session) Update(ctx context.Context, table, key string, values []db.Field) error {
	return s.write(ctx, "update", KindUpdate, table, key, values)
}

// Insert implements db.Session: a put of the whole record.
func (s *Session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	return s.write(ctx, "insert", KindRecord, table, key, values)
}

// write stores values under (table, key) as kind: a merge operand for
// KindUpdate, a put otherwise.
func (s *Session) write(ctx context.Context, op string, kind byte, table, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.key = AppendStoreKey(s.key[:0], table, key)
	s.val = AppendValue(s.val[:0], kind, values)
	var err error
	if kind == KindUpdate {
		err = s.conn.Merge(s.key, s.val)
	} else {
		err = s.conn.Put(s.key, s.val)
	}
	if err != nil {
		return s.wrap(op, err)
	}
	s.written.Add(UserBytes(key, values))
	return nil
}

// Delete implements db.Session.
func (s *Session) Delete(ctx context.Context, table, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.key = AppendStoreKey(s.key[:0], table, key)
	if err := s.conn.Delete(s.key); err != nil {
		return s.wrap("delete", err)
	}
	s.written.Add(int64(len(key)))
	return nil
}

// Close implements db.Session.
func (s *Session) Close(context.Context) error {
	s.written.Close()
	if err := s.conn.Close(); err != nil {
		return s.wrap("close session", err)
	}
	return nil
}

// ScanLiveBytes is the user bytes of the records conn's engine holds now
// (UserBytes of each: key, field names and values), by a scan of every
// table: the denominator of SpaceAmplification.
func ScanLiveBytes(conn Conn) (int64, error) {
	// Every stored key starts with a table name (never empty) and a zero
	// byte: [0x00, 0xff) holds them all. (Pebble's invariant checks reject
	// an empty lower bound.)
	it, err := conn.NewIter([]byte{0}, []byte{0xff})
	if err != nil {
		return 0, err
	}
	var n int64
	for valid := it.First(); valid; valid = it.Next() {
		v, err := it.Value()
		if err != nil {
			it.Close()
			return 0, err
		}
		if !Exists(v) {
			continue
		}
		k := it.Key()
		if i := bytes.IndexByte(k, 0); i >= 0 {
			k = k[i+1:]
		}
		n += int64(len(k))
		for b := v[1:]; len(b) > 0; {
			name, val, rest, ok := next(b)
			if !ok {
				it.Close()
				return 0, ErrCorrupt
			}
			n += int64(len(name) + len(val))
			b = rest
		}
	}
	return n, it.Close()
}
