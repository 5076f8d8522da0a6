package workload

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/workload/generator"
)

func TestKeyNames(t *testing.T) {
	tests := []struct {
		keynum  int64
		pad     int
		ordered bool
		want    string
	}{
		{0, 1, false, "user6284781860667377211"},
		{1, 1, false, "user8517097267634966620"},
		{2, 1, false, "user1820151046732198393"},
		{5, 1, false, "user1000385178204227360"},
		{999, 1, false, "user2071219101098386137"},
		{5, 1, true, "user5"},
		{5, 8, true, "user00000005"},
		{0, 25, false, "user0000006284781860667377211"},
	}
	for _, tt := range tests {
		if got := keyName(tt.keynum, tt.pad, tt.ordered); got != tt.want {
			t.Errorf("keyName(%d, %d, %v) = %q, want %q", tt.keynum, tt.pad, tt.ordered, got, tt.want)
		}
	}
}

func TestIntegrityValue(t *testing.T) {
	const key = "user6284781860667377211"
	want := "user6284781860667377211:field0:-56807877:2032869390:-165488160:1762371712:-169193395:-1039977118:-10"
	if got := string(AppendIntegrityValue(nil, key, "field0", 100)); got != want {
		t.Errorf("size 100:\n got %q\nwant %q", got, want)
	}
	if got := string(AppendIntegrityValue([]byte("x"), key, "field0", 10)); got != "xuser628478" {
		t.Errorf("size 10 appended to x: %q", got)
	}
}

func TestFillRandomIsPrintable(t *testing.T) {
	src := wyrand(42)
	counts := map[byte]int{}
	for n := 0; n < 400; n++ {
		b := make([]byte, n/2, n/2+n%2*valueSlack) // both the slow path and the 8-byte stores
		fillRandom(b, &src)
		for i, c := range b {
			if c < 32 || c > 127 {
				t.Fatalf("byte %d of %d is %d, outside 32..127", i, n, c)
			}
			// Positions 0, 1, 3, 4 of each group never reach 96..127.
			if p := i % 6; (p == 0 || p == 3) && c > 63 || (p == 1 || p == 4) && c > 95 {
				t.Fatalf("byte %d (group position %d) is %d, outside the reference's range", i, p, c)
			}
			counts[c]++
		}
	}
	if len(counts) < 80 {
		t.Fatalf("only %d distinct byte values: not random enough", len(counts))
	}
}

func newProps(kv ...string) *props.Properties {
	p := props.New()
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1])
	}
	return p
}

func TestNewRejectsBadInput(t *testing.T) {
	tests := []struct {
		kv   []string
		want string
	}{
		{[]string{"recordcount", "-1"}, "recordcount: expected a non-negative integer"},
		{[]string{"recordcount", "1e3"}, `recordcount: expected an integer, got "1e3"`},
		{[]string{"fieldcount", "0"}, "fieldcount: expected at least 1"},
		{[]string{"recordcount", "10", "insertstart", "5", "insertcount", "6"}, "insertcount: insertstart (5) + insertcount (6) must not exceed recordcount (10)"},
		{[]string{"readproportion", "0", "updateproportion", "0"}, "all operation proportions are zero"},
		{[]string{"readproportion", "-0.5"}, "readproportion: expected a proportion of at least 0"},
		{[]string{"requestdistribution", "pareto"}, `requestdistribution: expected one of uniform, zipfian, latest, hotspot, sequential, exponential, got "pareto"`},
		{[]string{"scanlengthdistribution", "x"}, "scanlengthdistribution: expected one of uniform, zipfian"},
		{[]string{"fieldlengthdistribution", "normal"}, "fieldlengthdistribution: expected one of constant, uniform, zipfian, histogram"},
		{[]string{"dataintegrity", "true", "fieldlengthdistribution", "uniform"}, "fieldlengthdistribution: expected constant when dataintegrity=true"},
		{[]string{"zipfianconstant", "1"}, "zipfianconstant: expected a number above 0"},
		{[]string{"requestdistribution", "hotspot", "hotspotdatafraction", "1.5"}, "hotspotdatafraction"},
		{[]string{"fieldlengthdistribution", "histogram", "fieldlengthhistogram", "/nonexistent/hist.txt"}, "fieldlengthhistogram"},
		{[]string{"minscanlength", "10", "maxscanlength", "5"}, "minscanlength (10) must not exceed maxscanlength (5)"},
		{[]string{"readallfields", "yes"}, `readallfields: expected true or false, got "yes"`},
	}
	for _, tt := range tests {
		_, err := New(newProps(tt.kv...), true, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %q", tt.kv, err, tt.want)
			continue
		}
		if !props.IsBadInput(err) {
			t.Errorf("%v: %v is not a property error", tt.kv, err)
		}
	}
	// A load does not need an operation mix.
	if _, err := New(newProps("readproportion", "0", "updateproportion", "0", "recordcount", "10"), false, io.Discard); err != nil {
		t.Errorf("load with zero proportions: %v", err)
	}
}

type rig struct {
	wl   *CoreWorkload
	mem  *dbtest.Memory
	coll *measurement.Collector
}

func newRig(t testing.TB, transactions bool, kv ...string) (*rig, *Worker) {
	t.Helper()
	p := newProps(kv...)
	wl, err := New(p, transactions, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	mcfg, err := measurement.ParseConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{wl: wl, mem: dbtest.NewMemory(), coll: measurement.NewCollector(mcfg, measurement.YCSB)}
	s, _ := r.mem.Session(context.Background(), 0, 1)
	return r, wl.NewWorker(measured.NewSession(s, r.coll.NewRecorder()), 1)
}

func (r *rig) returns(t *testing.T) map[string]int64 {
	r.coll.Tick()
	out := map[string]int64{}
	for _, m := range r.coll.Total().Measurements {
		for _, rc := range m.Returns {
			out[m.Name+" "+rc.Status.String()] += rc.Count
		}
	}
	return out
}

// TestDataIntegrityRoundTrip loads deterministic values, runs reads and
// read-modify-writes, and expects every verification to pass.
func TestDataIntegrityRoundTrip(t *testing.T) {
	kv := []string{"recordcount", "200", "dataintegrity", "true", "fieldlength", "40",
		"readproportion", "0.5", "updateproportion", "0.2", "readmodifywriteproportion", "0.3",
		"requestdistribution", "uniform"}
	loadRig, loader := newRig(t, false, kv...)
	ctx := context.Background()
	for i := 0; i < 200; i++ {
		if !loader.DoInsert(ctx) {
			t.Fatal("insert failed")
		}
	}
	if n := loadRig.mem.Len(); n != 200 {
		t.Fatalf("loaded %d records", n)
	}
	// The run phase sees the same store through a fresh workload.
	p := newProps(kv...)
	wl, _ := New(p, true, io.Discard)
	mcfg, _ := measurement.ParseConfig(p)
	coll := measurement.NewCollector(mcfg, measurement.YCSB)
	s, _ := loadRig.mem.Session(ctx, 0, 1)
	wk := wl.NewWorker(measured.NewSession(s, coll.NewRecorder()), 7)
	for i := 0; i < 2000; i++ {
		wk.DoTransaction(ctx)
	}
	r := &rig{coll: coll}
	got := r.returns(t)
	if got["VERIFY OK"] < 1000 || got["VERIFY UNEXPECTED_STATE"] != 0 || got["VERIFY ERROR"] != 0 {
		t.Fatalf("verification counts: %v", got)
	}
	if got["READ OK"] == 0 || got["UPDATE OK"] == 0 || got["READ NOT_FOUND"] != 0 {
		t.Fatalf("operation counts: %v", got)
	}
	// Corrupt one record: verification must notice.
	key := keyName(3, 1, false)
	s.Update(ctx, "usertable", key, []db.Field{{Name: "field0", Value: []byte(strings.Repeat("x", 40))}})
	wk.record.Reset()
	wk.s.Read(ctx, "usertable", key, wl.FieldNames, &wk.record)
	wk.verify(key)
	if got := r.returns(t); got["VERIFY UNEXPECTED_STATE"] != 1 {
		t.Fatalf("corruption not detected: %v", got)
	}
}

func TestRunPhaseKeysStayBelowTheInsertLimit(t *testing.T) {
	for _, dist := range []string{"uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"} {
		t.Run(dist, func(t *testing.T) {
			_, wk := newRig(t, true, "recordcount", "100", "requestdistribution", dist, "operationcount", "1000")
			for i := 0; i < 5000; i++ {
				k := wk.nextKeynum()
				if k < 0 || k > 99 {
					t.Fatalf("key number %d outside [0, 99]", k)
				}
			}
		})
	}
}

// script is a key chooser that replays fixed key numbers.
type script struct {
	nums []int64
	i    int
}

func (s *script) Next(*rand.Rand) int64 {
	n := s.nums[s.i%len(s.nums)]
	s.i++
	return n
}

// TestKeynumsInOrder: drawn one operation ahead, key numbers still come in
// the order the chooser gives them, none skipped or repeated.
func TestKeynumsInOrder(t *testing.T) {
	_, wk := newRig(t, true, "recordcount", "100")
	nums := []int64{7, 3, 3, 99, 0, 42}
	wk.keyChooser = &script{nums: nums}
	for i := range 2 * len(nums) {
		if got, want := wk.nextKeynum(), nums[i%len(nums)]; got != want {
			t.Fatalf("key number %d is %d, want %d", i, got, want)
		}
	}
}

func TestOperationMix(t *testing.T) {
	r, wk := newRig(t, true, "recordcount", "50", "readproportion", "0.25", "updateproportion", "0.25",
		"insertproportion", "0.25", "scanproportion", "0.25", "maxscanlength", "5")
	ctx := context.Background()
	// Insert the records the run reads.
	for i := int64(0); i < 50; i++ {
		key := keyName(i, 1, false)
		wk.s.Unwrap().Insert(ctx, "usertable", key, []db.Field{{Name: "field0", Value: []byte("v")}})
	}
	const n = 4000
	for i := 0; i < n; i++ {
		wk.DoTransaction(ctx)
	}
	got := r.returns(t)
	for _, op := range []string{"READ OK", "UPDATE OK", "INSERT OK", "SCAN OK"} {
		// Binomial(4000, 0.25): mean 1000, sd 27; 6 sd bounds.
		if c := got[op]; c < 840 || c > 1160 {
			t.Errorf("%s = %d, want about 1000 of %d", op, c, n)
		}
	}
	// Run-phase inserts start at recordcount and advance the limit.
	if last := r.wl.transactionInsert.Last(); last < 50+840-1 {
		t.Errorf("insert limit %d did not advance with the run's inserts", last)
	}
}

func TestReadFieldsChoice(t *testing.T) {
	_, wk := newRig(t, true, "readallfields", "false", "fieldcount", "3")
	seen := map[string]bool{}
	for i := 0; i < 300; i++ {
		f := wk.readFields(false)
		if len(f) != 1 {
			t.Fatalf("readallfields=false gave %v", f)
		}
		seen[f[0]] = true
	}
	if len(seen) != 3 {
		t.Errorf("fields chosen: %v", seen)
	}
	_, wk = newRig(t, true, "readallfieldsbyname", "true")
	if f := wk.readFields(true); len(f) != 10 {
		t.Errorf("byname gave %v", f)
	}
	if f := wk.readFields(false); f != nil {
		t.Errorf("readallfields gave %v, want nil", f)
	}
}

func TestInsertRetriesThenStops(t *testing.T) {
	p := newProps("core_workload_insertion_retry_limit", "1", "core_workload_insertion_retry_interval", "0", "recordcount", "10")
	var stderr bytes.Buffer
	wl, err := New(p, false, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	mcfg, _ := measurement.ParseConfig(p)
	rec := measurement.NewCollector(mcfg, measurement.YCSB).NewRecorder()
	wk := wl.NewWorker(measured.NewSession(failing{}, rec), 1)
	if wk.DoInsert(context.Background()) {
		t.Fatal("DoInsert succeeded against a failing binding")
	}
	want := "Retrying insertion, retry count: 1\nError inserting, not retrying any more. number of attempts: 2Insertion Retry Limit: 1\n"
	if stderr.String() != want {
		t.Fatalf("stderr %q, want %q", stderr.String(), want)
	}
}

type failing struct{ db.Session }

func (failing) Insert(context.Context, string, string, []db.Field) error {
	return db.ErrServiceUnavailable
}

type nop struct{}

func (nop) Read(context.Context, string, string, []string, *db.Record) error    { return nil }
func (nop) Scan(context.Context, string, string, int, []string, *db.Rows) error { return nil }
func (nop) Update(context.Context, string, string, []db.Field) error            { return nil }
func (nop) Insert(context.Context, string, string, []db.Field) error            { return nil }
func (nop) Delete(context.Context, string, string) error                        { return nil }
func (nop) Close(context.Context) error                                         { return nil }

// nopTxn is nop with read-modify-writes in a transaction and retries.
type nopTxn struct {
	nop
	retries int64
}

func (s *nopTxn) ReadModifyWrite(context.Context, string, string, []string, *db.Record, []db.Field) error {
	s.retries++
	return nil
}

func (s *nopTxn) Retries() int64 { return s.retries }

func benchWorker(b *testing.B, s db.Session, kv ...string) *Worker {
	p := newProps(kv...)
	wl, err := New(p, true, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	mcfg, _ := measurement.ParseConfig(p)
	return wl.NewWorker(measured.NewSession(s, measurement.NewCollector(mcfg, measurement.YCSB).NewRecorder()), 1)
}

// BenchmarkTransaction is the hot path without a binding: choose the
// operation and key, build the key and values, measure. 0 allocs/op.
func BenchmarkTransaction(b *testing.B) {
	for _, w := range []struct {
		name, read, update, rmw string
		s                       db.Session
	}{{"A", "0.5", "0.5", "0", nop{}}, {"C", "1", "0", "0", nop{}}, {"F", "0.5", "0", "0.5", nop{}},
		{"F-txn", "0.5", "0", "0.5", &nopTxn{}}} {
		b.Run("workload"+w.name, func(b *testing.B) {
			wk := benchWorker(b, w.s, "recordcount", "100000", "operationcount", "10000000", "requestdistribution", "zipfian",
				"readproportion", w.read, "updateproportion", w.update, "readmodifywriteproportion", w.rmw)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				wk.DoTransaction(ctx)
			}
		})
	}
}

func BenchmarkAppendKey(b *testing.B) {
	buf := make([]byte, 0, 32)
	b.ReportAllocs()
	var i int64
	for b.Loop() {
		buf = AppendKey(buf[:0], i, 1, false)
		i++
	}
}

func BenchmarkFillRandom100(b *testing.B) {
	buf := make([]byte, 100, 100+valueSlack)
	src := wyrand(1)
	b.ReportAllocs()
	b.SetBytes(100)
	for b.Loop() {
		fillRandom(buf, &src)
	}
}

func TestSpread6MatchesPut6(t *testing.T) {
	src := wyrand(7)
	for i := 0; i < 10000; i++ {
		r := uint32(src.next())
		var a [6]byte
		put6(a[:], int32(r))
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], spread6(r))
		if !bytes.Equal(a[:], b[:6]) {
			t.Fatalf("r=%#x: put6 %v, spread6 %v", r, a, b[:6])
		}
	}
}

func TestKeyCache(t *testing.T) {
	// Padding 20 is the longest key built in a slot; 21 bypasses the cache.
	for _, pad := range []int{1, 12, 20, 21} {
		for _, ordered := range []string{"hashed", "ordered"} {
			_, wk := newRig(t, true, "insertorder", ordered, "zeropadding", strconv.Itoa(pad))
			src := wyrand(9)
			for i := 0; i < 200000; i++ {
				n := int64(src.next() % 20000)
				if i%3 == 0 {
					n = int64(i) // a stream of new keys, to evict
				}
				want := keyName(n, pad, ordered == "ordered")
				if got := wk.runKey(n); got != want {
					t.Fatalf("zeropadding=%d: runKey(%d) = %q, want %q", pad, n, got, want)
				}
			}
		}
	}
	// Keys longer than a cache slot are built every time, and still right.
	_, wk := newRig(t, true, "zeropadding", "40")
	for i := int64(0); i < 3; i++ {
		if got, want := wk.runKey(7), keyName(7, 40, false); got != want {
			t.Fatalf("long key %q, want %q", got, want)
		}
	}
}

// TestKeyCacheSizedByNeed: the cache grows as it misses, up to twice the
// keys that exist and keyCacheMaxSlots, and a worker that asks for few keys
// keeps a small one.
func TestKeyCacheSizedByNeed(t *testing.T) {
	tests := []struct {
		records, draws, distinct int64
		minSlots, maxSlots       int
	}{
		{records: 1000, draws: 100, distinct: 1000, minSlots: keyCacheMinSlots, maxSlots: 128}, // a worker of a 1000-thread run
		{records: 100, draws: 200_000, distinct: 100, minSlots: 128, maxSlots: 256},
		{records: 5_000_000, draws: 200_000, distinct: 5_000_000, minSlots: keyCacheMaxSlots, maxSlots: keyCacheMaxSlots},
	}
	for _, tt := range tests {
		_, wk := newRig(t, true, "recordcount", strconv.FormatInt(tt.records, 10))
		src := wyrand(5)
		for range tt.draws {
			n := int64(src.next() % uint64(tt.distinct))
			if got, want := wk.runKey(n), keyName(n, 1, false); got != want {
				t.Fatalf("recordcount=%d: runKey(%d) = %q, want %q", tt.records, n, got, want)
			}
		}
		if n := len(wk.keys.slots); n < tt.minSlots || n > tt.maxSlots {
			t.Errorf("recordcount=%d, %d draws of %d keys: %d slots, want %d to %d", tt.records, tt.draws, tt.distinct, n, tt.minSlots, tt.maxSlots)
		}
	}
	// Keys too long to cache never make a cache, nor write the shared
	// placeholder every new worker starts with.
	_, wk := newRig(t, true, "zeropadding", "40")
	wk.runKey(3)
	if len(wk.keys.slots) != len(noSlots) || noSlots[0].tag != 0 {
		t.Errorf("uncached keys: %d slots, placeholder tag %#x", len(wk.keys.slots), noSlots[0].tag)
	}
}

func TestAppendKeyMatchesFormatting(t *testing.T) {
	src := wyrand(11)
	nums := []int64{0, 1, 9, 10, 99, 100, 12345678, 99999999, 100000000, 1e15, 1e16, 1e17, 1e18, math.MaxInt64, -1, math.MinInt64}
	for i := 0; i < 200000; i++ {
		x := int64(src.next() >> 1)
		nums = append(nums, x, x>>(i%63))
	}
	for _, n := range nums {
		for _, pad := range []int{0, 1, 8, 25} {
			for _, ordered := range []bool{true, false} {
				v := n
				if !ordered {
					v = generator.FNVHash64(n)
				}
				d := strconv.FormatInt(v, 10)
				want := "user" + strings.Repeat("0", max(pad-len(d), 0)) + d
				got := string(AppendKey([]byte("x")[:1:1], n, pad, ordered))
				if got != "x"+want {
					t.Fatalf("AppendKey(%d, %d, %v) = %q, want %q", n, pad, ordered, got, "x"+want)
				}
			}
		}
	}
}

func TestNewRefusesUnboundedLoadAndBadOrder(t *testing.T) {
	base := map[string]string{"workload": "core"}
	tests := []struct {
		set     map[string]string
		load    bool
		wantErr string
	}{
		{map[string]string{}, true, "recordcount: missing or 0: a load needs the number of records"},
		{map[string]string{"insertcount": "10"}, true, ""},
		{map[string]string{"maxexecutiontime": "5"}, true, ""},
		{map[string]string{}, false, ""},
		{map[string]string{"recordcount": "10", "insertorder": "bogus"}, true, `insertorder: expected one of hashed, ordered, got "bogus"`},
		{map[string]string{"recordcount": "1000", "insertstart": "2000"}, true, "insertstart: insertstart (2000) exceeds recordcount (1000)"},
	}
	for _, tt := range tests {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range tt.set {
			m[k] = v
		}
		_, err := New(props.FromMap(m), !tt.load, io.Discard)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%v load=%v: err = %v, want %q", tt.set, tt.load, err, tt.wantErr)
		}
	}
}

// txnSession runs read-modify-writes as one call (db.ReadModifyWriter) over
// another session, counting one retry for each (db.RetryCounter).
type txnSession struct {
	db.Session
	retries int64
}

func (s *txnSession) ReadModifyWrite(ctx context.Context, table, key string, fields []string, out *db.Record, values []db.Field) error {
	s.retries++
	if err := s.Read(ctx, table, key, fields, out); err != nil {
		return err
	}
	return s.Update(ctx, table, key, values)
}

func (s *txnSession) Retries() int64 { return s.retries }

// With a session that runs read-modify-writes in a transaction, each is
// one READ-MODIFY-WRITE with its status and retries, there is no READ or
// UPDATE of it, and data integrity still verifies what it read.
func TestReadModifyWriteInTransaction(t *testing.T) {
	kv := []string{"recordcount", "50", "dataintegrity", "true", "fieldlength", "20",
		"readproportion", "0", "updateproportion", "0", "readmodifywriteproportion", "1"}
	loadRig, loader := newRig(t, false, kv...)
	ctx := context.Background()
	for i := 0; i < 50; i++ {
		if !loader.DoInsert(ctx) {
			t.Fatal("insert failed")
		}
	}
	p := newProps(kv...)
	wl, _ := New(p, true, io.Discard)
	mcfg, _ := measurement.ParseConfig(p)
	coll := measurement.NewCollector(mcfg, measurement.YCSB)
	s, _ := loadRig.mem.Session(ctx, 0, 1)
	wk := wl.NewWorker(measured.NewSession(&txnSession{Session: s}, coll.NewRecorder()), 7)
	for i := 0; i < 300; i++ {
		wk.DoTransaction(ctx)
	}
	r := &rig{coll: coll}
	got := r.returns(t)
	want := map[string]int64{"READ-MODIFY-WRITE OK": 300, "VERIFY OK": 300}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("returns %v, want %v", got, want)
	}
	var retries int64
	for _, m := range coll.Total().Measurements {
		retries += m.Retries
	}
	if retries != 300 {
		t.Errorf("%d retries counted, want 300", retries)
	}
}

// keyName returns AppendKey as a string.
func keyName(keynum int64, zeropadding int, ordered bool) string {
	return string(AppendKey(nil, keynum, zeropadding, ordered))
}
