package redis

import (
	"context"
	"strconv"
	"testing"

	"github.com/goycsb/ycsb/db"
)

// The hot path against the local server (scripts/redis.sh start): run with
// -benchmem to see the binding's allocations per operation, and -cpu to
// vary the workers sharing the connection.
func benchSession(b *testing.B, m map[string]string, op func(ss db.Session, key string, vals []db.Field, r *db.Record) error) {
	needRedis(b, testAddr(), "Redis (scripts/redis.sh start)")
	d := mustOpen(b, m)
	defer d.Close()
	vals := make([]db.Field, 10)
	for i := range vals {
		vals[i] = db.Field{Name: "field" + strconv.Itoa(i), Value: make([]byte, 100)}
	}
	ss, _ := d.Session(context.Background(), 0, 1)
	for i := 0; i < 100; i++ {
		if err := ss.Insert(context.Background(), "usertable", "bench"+strconv.Itoa(i), vals); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		ss, _ := d.Session(context.Background(), 0, 1)
		var r db.Record
		keys := make([]string, 100)
		for i := range keys {
			keys[i] = "bench" + strconv.Itoa(i)
		}
		i := 0
		for pb.Next() {
			r.Reset()
			if err := op(ss, keys[i%len(keys)], vals, &r); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

func BenchmarkRead(b *testing.B) {
	benchSession(b, map[string]string{"redis.addr": testAddr()}, func(ss db.Session, key string, _ []db.Field, r *db.Record) error {
		return ss.Read(context.Background(), "usertable", key, nil, r)
	})
}

func BenchmarkUpdate(b *testing.B) {
	benchSession(b, map[string]string{"redis.addr": testAddr()}, func(ss db.Session, key string, vals []db.Field, _ *db.Record) error {
		return ss.Update(context.Background(), "usertable", key, vals[:1])
	})
}
