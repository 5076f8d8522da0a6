package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
)

// Benchmarks of the hot operations against the local server, with the
// run's kind of context (cancellable, no deadline):
//
//	go test -run '^$' -bench . -benchmem ./db/postgres
//
// hold=true is the default (each session keeps one connection); hold=false
// takes a pooled connection for every operation.

const benchRecords = 1000

// benchURL is testURL without TLS unless it asks for it: the figures are
// about the client, and the reference's command lines use sslmode=disable.
func benchURL() string {
	u := testURL()
	if strings.Contains(u, "sslmode=") {
		return u
	}
	if strings.Contains(u, "?") {
		return u + "&sslmode=disable"
	}
	return u + "?sslmode=disable"
}

func benchDB(b *testing.B, hold bool) (db.DB, string) {
	c := needPG(b)
	table := "ycsb_bench"
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil || n != benchRecords {
		testTable(b, c, table)
		d := mustOpen(b, "postgresql", map[string]string{"db.url": benchURL(), "table": table})
		ss, _ := d.Session(context.Background(), 0, 1)
		vals := benchValues()
		for i := 0; i < benchRecords; i++ {
			if err := ss.Insert(context.Background(), table, "user"+strconv.Itoa(i), vals); err != nil {
				b.Fatal(err)
			}
		}
		ss.Close(context.Background())
		d.Close()
	}
	d := mustOpen(b, "postgresql", map[string]string{"db.url": benchURL(), "table": table, propHoldConn: fmt.Sprint(hold), "threadcount": "8"})
	b.Cleanup(func() { d.Close() })
	return d, table
}

func benchValues() []db.Field {
	vals := make([]db.Field, 10)
	for i := range vals {
		v := make([]byte, 100)
		for j := range v {
			v[j] = 'a' + byte((i+j)%26)
		}
		vals[i] = db.Field{Name: "field" + strconv.Itoa(i), Value: v}
	}
	return vals
}

func benchKeys() []string {
	keys := make([]string, benchRecords)
	for i := range keys {
		keys[i] = "user" + strconv.Itoa(i)
	}
	return keys
}

func BenchmarkRead(b *testing.B) {
	for _, hold := range []bool{true, false} {
		b.Run(fmt.Sprint("hold=", hold), func(b *testing.B) {
			d, table := benchDB(b, hold)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			keys := benchKeys()
			b.ReportAllocs()
			b.SetParallelism(4) // 8 workers on 2 cores
			b.RunParallel(func(pb *testing.PB) {
				ss, _ := d.Session(ctx, 0, 1)
				defer ss.Close(context.Background())
				var r db.Record
				i := 0
				for pb.Next() {
					r.Reset()
					if err := ss.Read(ctx, table, keys[i%len(keys)], nil, &r); err != nil {
						b.Error(err)
						return
					}
					i += 7
				}
			})
		})
	}
}

func BenchmarkUpdate(b *testing.B) {
	d, table := benchDB(b, true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	keys := benchKeys()
	vals := benchValues()
	b.ReportAllocs()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		ss, _ := d.Session(ctx, 0, 1)
		defer ss.Close(context.Background())
		i := 0
		for pb.Next() {
			if err := ss.Update(ctx, table, keys[i%len(keys)], vals[i%10:i%10+1]); err != nil {
				b.Error(err)
				return
			}
			i += 13
		}
	})
}

// BenchmarkSessionOps runs each operation on one session, sequentially, to
// show the binding's own allocations per operation.
func BenchmarkSessionOps(b *testing.B) {
	d, table := benchDB(b, true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	keys := benchKeys()
	vals := benchValues()
	ss, _ := d.Session(ctx, 0, 1)
	defer ss.Close(context.Background())
	var r db.Record
	var rows db.Rows
	ops := []struct {
		name string
		fn   func(i int) error
	}{
		{"read", func(i int) error { r.Reset(); return ss.Read(ctx, table, keys[i%len(keys)], nil, &r) }},
		{"readfield", func(i int) error { r.Reset(); return ss.Read(ctx, table, keys[i%len(keys)], []string{"field3"}, &r) }},
		{"scan10", func(i int) error { rows.Reset(); return ss.Scan(ctx, table, keys[i%len(keys)], 10, nil, &rows) }},
		{"update", func(i int) error { return ss.Update(ctx, table, keys[i%len(keys)], vals[3:4]) }},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := op.fn(i); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadModifyWriteInTxn is one session's read-modify-writes as
// transactions (jdbc.rmwintxn), uncontended: the binding's allocations for
// BEGIN, the read, the update and COMMIT, to set beside readfield + update
// of BenchmarkSessionOps.
func BenchmarkReadModifyWriteInTxn(b *testing.B) {
	_, table := benchDB(b, true)
	for _, forUpdate := range []bool{false, true} {
		b.Run(fmt.Sprint("selectforupdate=", forUpdate), func(b *testing.B) {
			d := mustOpen(b, "postgresql", map[string]string{"db.url": benchURL(), "table": table,
				propRMWInTxn: "true", propSelectForUpdate: fmt.Sprint(forUpdate)})
			defer d.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			keys := benchKeys()
			vals := benchValues()
			ss, _ := d.Session(ctx, 0, 1)
			defer ss.Close(context.Background())
			rmw := ss.(db.ReadModifyWriter)
			var r db.Record
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r.Reset()
				if err := rmw.ReadModifyWrite(ctx, table, keys[i%len(keys)], []string{"field3"}, &r, vals[3:4]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// twoRows is a transaction's body that reads two keys and updates both,
// the closed economy's transfer without its arithmetic.
type twoRows struct {
	table string
	a, b  string
	vals  []db.Field
	r     db.Record
}

func (t *twoRows) Attempt(ctx context.Context, tx db.Txn) error {
	for _, k := range []string{t.a, t.b} {
		t.r.Reset()
		if err := tx.Read(ctx, t.table, k, []string{"field3"}, &t.r); err != nil {
			return err
		}
	}
	if err := tx.Update(ctx, t.table, t.a, t.vals); err != nil {
		return err
	}
	return tx.Update(ctx, t.table, t.b, t.vals)
}

// BenchmarkTransact is one session's two-row transactions (db.Transactional),
// uncontended: two reads' and two updates' allocations, nothing for BEGIN
// and COMMIT.
func BenchmarkTransact(b *testing.B) {
	_, table := benchDB(b, true)
	d := mustOpen(b, "postgresql", map[string]string{"db.url": benchURL(), "table": table})
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	keys := benchKeys()
	ss, _ := d.Session(ctx, 0, 1)
	defer ss.Close(context.Background())
	txn := ss.(db.Transactional)
	body := &twoRows{table: table, vals: benchValues()[3:4]}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		body.a, body.b = keys[i%len(keys)], keys[(i+1)%len(keys)]
		if err := txn.Transact(ctx, body); err != nil {
			b.Fatal(err)
		}
	}
}
