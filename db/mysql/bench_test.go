package mysql

import (
	"context"
	"fmt"
	"testing"

	"github.com/goycsb/ycsb/db"
)

// BenchmarkSession measures one session's operations against the test
// server, with -benchmem the client's allocations per operation.
func BenchmarkSession(b *testing.B) {
	h := needMySQL(b)
	table := testTable(b, h, "ycsb_bench", "")
	d := mustOpen(b, "mariadb", map[string]string{"db.url": testURL(), "table": table})
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ss, err := d.Session(ctx, 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close(context.Background())
	vals := make([]db.Field, 10)
	for i := range vals {
		vals[i] = db.Field{Name: fmt.Sprint("field", i), Value: make([]byte, 100)}
	}
	for i := 0; i < 100; i++ {
		if err := ss.Insert(ctx, table, fmt.Sprint("user", i), vals); err != nil {
			b.Fatal(err)
		}
	}
	var rec db.Record
	var rows db.Rows
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			rec.Reset()
			if err := ss.Read(ctx, table, "user42", nil, &rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("update", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := ss.Update(ctx, table, "user42", vals[:1]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan10", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			rows.Reset()
			if err := ss.Scan(ctx, table, "user1", 10, nil, &rows); err != nil {
				b.Fatal(err)
			}
		}
	})
}
