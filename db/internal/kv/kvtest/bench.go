package kvtest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goycsb/ycsb/db"
)

// Bench measures the binding's operations with YCSB's default record shape
// (10 fields of 100 bytes) over a preloaded table, with the default
// engine.* settings: Insert, Read (all
// fields), Update (one field), Scan (10 records). engine.sync is false.
func Bench(b *testing.B, open Opener) {
	const preload = 20000
	h := &harness{open: open}
	d := h.mustOpen(b, b.TempDir(), nil) // the default cache and memtable sizes
	defer d.Close()
	ss := session(b, d)
	defer ss.Close(ctx())
	keys := make([]string, preload)
	vals := make([]db.Field, 10)
	for i := range vals {
		vals[i] = db.Field{Name: fmt.Sprintf("field%d", i), Value: make([]byte, 100)}
		for j := range vals[i].Value {
			vals[i].Value[j] = byte('a' + (i+j)%26)
		}
	}
	for i := range keys {
		keys[i] = fmt.Sprintf("user%019d", uint64(i)*0x9E3779B97F4A7C15>>1)
		if err := ss.Insert(ctx(), "usertable", keys[i], vals); err != nil {
			b.Fatal(err)
		}
	}
	flush(b, d)
	rng := rand.New(rand.NewPCG(1, 2))
	pick := make([]string, 4096)
	for i := range pick {
		pick[i] = keys[rng.IntN(preload)]
	}
	b.Run("Insert", func(b *testing.B) {
		ins := make([]string, 4096)
		for i := range ins {
			ins[i] = fmt.Sprintf("new%019d", rng.Uint64()>>1)
		}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if err := ss.Insert(ctx(), "usertable", ins[i%len(ins)], vals); err != nil {
				b.Fatal(err)
			}
		}
	})
	read := func(b *testing.B) {
		var r db.Record
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			r.Reset()
			if err := ss.Read(ctx(), "usertable", pick[i%len(pick)], nil, &r); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("Read", read)
	b.Run("Update", func(b *testing.B) {
		upd := vals[3:4]
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if err := ss.Update(ctx(), "usertable", pick[i%len(pick)], upd); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ReadAfterUpdates", read) // folds the operands of the updates above
	b.Run("Scan10", func(b *testing.B) {
		var rows db.Rows
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			rows.Reset()
			if err := ss.Scan(ctx(), "usertable", pick[i%len(pick)], 10, nil, &rows); err != nil {
				b.Fatal(err)
			}
		}
	})
}
