//go:build rocksdb

package rocksdb

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/props"
)

// folderMerge is the full merge as kv.Folder (Pebble's operator) computes
// it: the C operator must give the same bytes.
func folderMerge(existing []byte, operands [][]byte) ([]byte, bool) {
	var f kv.Folder
	for i := len(operands) - 1; i >= 0; i-- {
		if f.AddOlder(operands[i]) != nil {
			return nil, false
		}
	}
	if len(existing) > 0 && f.AddOlder(existing) != nil {
		return nil, false
	}
	return f.AppendTo(nil), true
}

func TestNativeMergerName(t *testing.T) {
	if got := nativeMergerName(); got != kv.MergerName {
		t.Fatalf("C merge operator named %q, want %q", got, kv.MergerName)
	}
}

// rec encodes a value of kind from name, value pairs.
func rec(kind byte, pairs ...string) []byte {
	var fs []db.Field
	for i := 0; i+1 < len(pairs); i += 2 {
		fs = append(fs, db.Field{Name: pairs[i], Value: []byte(pairs[i+1])})
	}
	return kv.AppendValue(nil, kind, fs)
}

func TestNativeMergeMatchesFolder(t *testing.T) {
	long := string(bytes.Repeat([]byte("v"), 300)) // two-byte length prefixes
	var many []string
	for i := 0; i < 40; i++ { // more fields than the C fold's inline room
		many = append(many, "f"+string(rune('a'+i%26))+string(rune('a'+i/26)), "x")
	}
	for _, c := range []struct {
		name     string
		existing []byte
		operands [][]byte
		want     []byte // nil: must fail
	}{
		{"update over record", rec('R', "a", "1", "b", "2"), [][]byte{rec('U', "b", "3")}, rec('R', "b", "3", "a", "1")},
		{"newest operand wins", rec('R', "a", "1"), [][]byte{rec('U', "a", "2"), rec('U', "a", "3")}, rec('R', "a", "3")},
		{"no record below", nil, [][]byte{rec('U', "a", "2"), rec('U', "b", "3")}, rec('U', "b", "3", "a", "2")},
		{"empty existing is none", []byte{}, [][]byte{rec('U', "a", "2")}, rec('U', "a", "2")},
		{"update-only existing", rec('U', "a", "1"), [][]byte{rec('U', "b", "2")}, rec('U', "b", "2", "a", "1")},
		{"long values", rec('R', "a", long), [][]byte{rec('U', "b", long)}, rec('R', "b", long, "a", long)},
		{"many fields", rec('R', many...), [][]byte{rec('U', "fz", "y")}, rec('R', append([]string{"fz", "y"}, many...)...)},
		{"empty operand", rec('R', "a", "1"), [][]byte{{}}, nil},
		{"cut operand", rec('R', "a", "1"), [][]byte{{'U', 5, 'a'}}, nil},
		{"cut existing", []byte{'R', 1, 'a', 9}, [][]byte{rec('U', "a", "2")}, nil},
		{"varint overflow", rec('R'), [][]byte{{'U', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}}, nil},
		{"no fields", rec('R'), [][]byte{rec('U')}, rec('R')},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref, ok := folderMerge(c.existing, c.operands)
			got, err := nativeFold(c.existing, c.operands)
			if (err == nil) != ok || !bytes.Equal(got, ref) {
				t.Fatalf("C merge %q, %v; kv.Folder %q, %v", got, err, ref, ok)
			}
			if !bytes.Equal(got, c.want) {
				t.Fatalf("C merge %q, want %q", got, c.want)
			}
		})
	}
}

// FuzzNativeMerge checks the C operator against kv.Folder on any bytes:
// the first byte says how many of the pieces after it (split at 0xfe) are
// operands, the rest the existing value.
func FuzzNativeMerge(f *testing.F) {
	f.Add([]byte{1}, []byte("R\x01a\x011\xfeU\x01a\x012"))
	f.Add([]byte{2}, []byte("U\x01b\x013\xfeU\x01a\x012\xfeR\x01a\x011\x01b\x012"))
	f.Fuzz(func(t *testing.T, head, body []byte) {
		pieces := bytes.Split(body, []byte{0xfe})
		n := len(pieces)
		if len(head) > 0 {
			n = min(n, int(head[0])%8)
		}
		operands, existing := pieces[:n], []byte(nil)
		if n < len(pieces) {
			existing = pieces[n]
		}
		ref, ok := folderMerge(existing, operands)
		got, err := nativeFold(existing, operands)
		if (err == nil) != ok || !bytes.Equal(got, ref) {
			t.Fatalf("C merge %q, %v; kv.Folder %q, %v", got, err, ref, ok)
		}
	})
}

// openSession opens a store in a temporary directory and a session on it,
// both closed when t ends.
func openSession(t *testing.T) db.Session {
	t.Helper()
	s, _ := openDBSession(t)
	return s
}

// openDBSession is openSession with the database it is a session of.
func openDBSession(t *testing.T) (db.Session, *DB) {
	t.Helper()
	ctx := context.Background()
	d, err := open(ctx, props.FromMap(map[string]string{"engine.dir": t.TempDir()}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	s, err := d.Session(ctx, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(ctx) })
	return s, d.(*DB)
}

// TestReadLargerThanBuffer reads values larger than the session's read
// buffer (it starts at 4KiB): the C call says the size, the buffer grows and
// the read is made again.
func TestReadLargerThanBuffer(t *testing.T) {
	ctx := context.Background()
	s := openSession(t)
	for _, n := range []int{10, 5000, 100000, 300} {
		v := bytes.Repeat([]byte{byte('a' + n%26)}, n)
		key := "k" + strconv.Itoa(n)
		if err := s.Insert(ctx, "t", key, []db.Field{{Name: "f", Value: v}}); err != nil {
			t.Fatal(err)
		}
		var r db.Record
		if err := s.Read(ctx, "t", key, nil, &r); err != nil {
			t.Fatal(err)
		}
		if got, ok := r.Get("f"); !ok || !bytes.Equal(got, v) {
			t.Fatalf("%d bytes: read %d bytes (found %t)", n, len(got), ok)
		}
	}
}

// TestSessionYields: a session that only makes cgo calls yields its
// processor once yieldAfter has passed since it last did, checked at each
// call and each step of a scan, so that the runtime does not take the P
// away in the middle of one (callArgs.done). On one P, a goroutine made
// runnable before the operations runs only when the session yields or the
// runtime takes the P (a call of 20 µs or more, or 10 ms of calls). With
// a clock that moves a quarter of yieldAfter a reading, it must have run
// within 4 reads (a reading each) or 2 scans (two readings at least);
// without the yield it ran after 29,154 reads.
func TestSessionYields(t *testing.T) {
	ctx := context.Background()
	s := openSession(t)
	if err := s.Insert(ctx, "t", "k", []db.Field{{Name: "f", Value: []byte("v")}}); err != nil {
		t.Fatal(err)
	}
	var r db.Record
	var rows db.Rows
	for i, c := range []struct {
		name string
		op   func() error
		max  int
	}{
		{"read", func() error { return s.Read(ctx, "t", "k", nil, &r) }, 4},
		{"scan", func() error { return s.Scan(ctx, "t", "k", 1, nil, &rows) }, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A clock an hour a case ahead of the real one (so ahead of
			// every earlier yield), a quarter of yieldAfter a reading.
			var fake atomic.Int64
			fake.Store(now() + int64(i+1)*int64(time.Hour))
			defer func(real func() int64) { now = real }(now)
			now = func() int64 { return fake.Add(int64(yieldAfter / 4)) }
			for range 100 { // warm the memtable's path; the session yields
				if err := c.op(); err != nil {
					t.Fatal(err)
				}
			}
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			var ran atomic.Bool
			go ran.Store(true)
			n := 0
			for ; n < 100000 && !ran.Load(); n++ {
				if err := c.op(); err != nil {
					t.Fatal(err)
				}
			}
			if n > c.max {
				t.Fatalf("the other goroutine ran after %d operations, want at most %d", n, c.max)
			}
		})
	}
}

// TestPerfCountersOff: RocksDB counts its per-thread performance counters
// by default, on every call (a key comparison is a count), and nothing
// reads them; the session's calls turn them off on their thread, as
// db_bench does (ycsb_thread_perf_off). With them on, merges took 2 µs of
// CPU more (0.78 of db_bench's rate, against 0.89 without, in sittings
// minutes apart: docs/engines.md).
func TestPerfCountersOff(t *testing.T) {
	runtime.LockOSThread() // the counters are the thread's
	defer runtime.UnlockOSThread()
	ctx := context.Background()
	s := openSession(t)
	f := []db.Field{{Name: "f", Value: []byte("v")}}
	if err := s.Insert(ctx, "t", "k", f); err != nil { // turns them off on this thread
		t.Fatal(err)
	}
	threadPerfCounted()
	var r db.Record
	for i := range 10 {
		if err := s.Insert(ctx, "t", fmt.Sprint("k", i), f); err != nil {
			t.Fatal(err)
		}
		if err := s.Update(ctx, "t", "k", f); err != nil {
			t.Fatal(err)
		}
		if err := s.Read(ctx, "t", "k", nil, &r); err != nil {
			t.Fatal(err)
		}
	}
	if n := threadPerfCounted(); n != 0 {
		t.Fatalf("RocksDB's performance counters counted %d on the session's thread, want them off (0)", n)
	}
	// A scan goes through grocksdb's calls, on a thread that may have
	// made no other.
	threadPerfOn()
	var rows db.Rows
	if err := s.Scan(ctx, "t", "k", 5, nil, &rows); err != nil || rows.Len() != 5 {
		t.Fatalf("scan: %d rows, %v", rows.Len(), err)
	}
	if n := threadPerfCounted(); n != 0 {
		t.Fatalf("RocksDB's performance counters counted %d in a scan, want them off (0)", n)
	}
}

// TestPerfCountersOffAfterYield: a yield may move the goroutine to another
// thread, where a scan's next calls (grocksdb's) would count again; the
// session turns the counters off after each yield (callArgs.done). On a
// locked thread, with the counters turned back on in the middle of a scan
// and a clock that makes the next step yield, the steps after it count
// nothing.
func TestPerfCountersOffAfterYield(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ctx := context.Background()
	s, d := openDBSession(t)
	for i := range 10 {
		if err := s.Insert(ctx, "t", fmt.Sprint("k", i), []db.Field{{Name: "f", Value: []byte("v")}}); err != nil {
			t.Fatal(err)
		}
	}
	c := &conn{d: d}
	defer c.Close()
	it, err := c.NewIter([]byte{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if !it.First() {
		t.Fatal("no first record")
	}
	defer func(real func() int64) { now = real }(now)
	var fake atomic.Int64
	fake.Store(c.args.yielded + int64(yieldAfter)) // the next step yields
	now = func() int64 { return fake.Load() }
	threadPerfOn()
	if !it.Next() { // counted, then the yield
		t.Fatal("no second record")
	}
	threadPerfCounted()
	rest := 0
	for it.Next() {
		rest++
	}
	if rest != 8 {
		t.Fatalf("the scan went on for %d records, want 8", rest)
	}
	if n := threadPerfCounted(); n != 0 {
		t.Fatalf("RocksDB's performance counters counted %d after a yield, want them off (0)", n)
	}
}
