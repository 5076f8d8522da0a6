package dbtest

import (
	"context"
	"sort"
	"sync"

	"github.com/goycsb/ycsb/db"
)

// Memory is an in-memory DB for unit tests of code above the binding
// contract (the run, the workload). It is a fake: real bindings run the
// suite against real engines and servers.
type Memory struct {
	mu   sync.Mutex
	recs map[string]map[string][]byte // table/key → fields
}

// NewMemory returns an empty in-memory DB.
func NewMemory() *Memory { return &Memory{recs: map[string]map[string][]byte{}} }

// Len returns the number of stored records over all tables.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.recs)
}

// Session implements db.DB.
func (m *Memory) Session(context.Context, int, int) (db.Session, error) { return memSession{m}, nil }

// Close implements db.DB.
func (m *Memory) Close() error { return nil }

type memSession struct{ m *Memory }

func id(table, key string) string { return table + "\x00" + key }

// withRecord calls fn with the record under (table, key), the DB locked:
// db.ErrNotFound when there is none.
func (s memSession) withRecord(ctx context.Context, table, key string, fn func(r map[string][]byte)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	r, ok := s.m.recs[id(table, key)]
	if !ok {
		return db.ErrNotFound
	}
	fn(r)
	return nil
}

func (s memSession) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	return s.withRecord(ctx, table, key, func(r map[string][]byte) { appendFields(r, fields, out) })
}

func appendFields(r map[string][]byte, fields []string, out *db.Record) {
	if fields == nil {
		names := make([]string, 0, len(r))
		for n := range r {
			names = append(names, n)
		}
		sort.Strings(names)
		fields = names
	}
	for _, n := range fields {
		if v, ok := r[n]; ok {
			out.Add(n, v)
		}
	}
}

func (s memSession) Scan(ctx context.Context, table, start string, count int, fields []string, out *db.Rows) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	var keys []string
	pre := table + "\x00"
	for k := range s.m.recs {
		if len(k) > len(pre) && k[:len(pre)] == pre && k[len(pre):] >= start {
			keys = append(keys, k[len(pre):])
		}
	}
	sort.Strings(keys)
	for i := 0; i < len(keys) && i < count; i++ {
		rec := out.Next()
		rec.SetKey([]byte(keys[i]))
		appendFields(s.m.recs[id(table, keys[i])], fields, rec)
	}
	return nil
}

func (s memSession) Update(ctx context.Context, table, key string, values []db.Field) error {
	return s.withRecord(ctx, table, key, func(r map[string][]byte) {
		for _, f := range values {
			r[f.Name] = append([]byte(nil), f.Value...)
		}
	})
}

func (s memSession) Insert(ctx context.Context, table, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r := make(map[string][]byte, len(values))
	for _, f := range values {
		r[f.Name] = append([]byte(nil), f.Value...)
	}
	s.m.mu.Lock()
	s.m.recs[id(table, key)] = r
	s.m.mu.Unlock()
	return nil
}

func (s memSession) Delete(ctx context.Context, table, key string) error {
	return s.withRecord(ctx, table, key, func(map[string][]byte) { delete(s.m.recs, id(table, key)) })
}

func (s memSession) Close(context.Context) error { return nil }
