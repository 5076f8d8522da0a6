package workload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
)

const economyClass = "site.ycsb.workloads.ClosedEconomyWorkload"

func TestEconomyConfig(t *testing.T) {
	base := []string{"workload", economyClass, "recordcount", "10"}
	tests := []struct {
		kv   []string
		want string // "" accepted
	}{
		{nil, ""},
		{[]string{"totalcash", "7"}, ""},
		{[]string{"total_cash", "7", "totalCash", "7"}, "totalCash: total_cash is given too"},
		{[]string{"totalcash", "-1"}, "totalcash: expected a non-negative integer"},
		{[]string{"totalCash", "2000000000000000"}, "totalCash: expected at most 1000000000000000"},
		{[]string{"updateproportion", "0.05"}, "updateproportion: 0.05: an update would write a balance from nothing"},
		{[]string{"updateproportion", "0"}, ""},
		{[]string{"insertproportion", "0.1"}, "insertproportion: 0.1: a new account would bring money"},
		{[]string{"dataintegrity", "true"}, "dataintegrity: true: the closed economy's records hold balances"},
		{[]string{"validatebyquery", "maybe"}, `validatebyquery: expected true or false, got "maybe"`},
		{[]string{"recordcount", "1", "readmodifywriteproportion", "1"}, "recordcount: a transfer needs two accounts to choose from, and there are 1"},
		{[]string{"recordcount", "0"}, "recordcount: missing or 0: the closed economy needs its number of accounts"},
		{[]string{"workload", "site.ycsb.workloads.TimeSeriesWorkload"}, "workload: expected site.ycsb.workloads.CoreWorkload or site.ycsb.workloads.ClosedEconomyWorkload"},
	}
	for _, tt := range tests {
		kv := append(append([]string{}, base...), tt.kv...)
		c, err := ParseConfig(newProps(kv...), true)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%v: %v", tt.kv, err)
			} else if c.Economy == nil {
				t.Errorf("%v: no economy", tt.kv)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %q", tt.kv, err, tt.want)
			continue
		}
		if !props.IsBadInput(err) {
			t.Errorf("%v: %v is not a property error", tt.kv, err)
		}
	}
	// The forks' default mix (read 0.95, update 0.05) without an update:
	// the update default would corrupt the economy.
	c, err := ParseConfig(newProps(base...), true)
	if err != nil {
		t.Fatal(err)
	}
	if c.Mix[opUpdate] != 0 || c.Mix[opRead] != 0.95 || c.Economy.TotalCash != 1_000_000 || !c.Economy.ValidateByQuery {
		t.Errorf("defaults: mix %v, economy %+v", c.Mix, *c.Economy)
	}
	for _, name := range []string{"totalcash", "total_cash", "totalCash"} {
		c, err := ParseConfig(newProps(append(append([]string{}, base...), name, "123")...), true)
		if err != nil || c.Economy.TotalCash != 123 {
			t.Errorf("%s=123: %v, %+v", name, err, c)
		}
	}
	// A fleet cannot validate by reads: other clients still transfer.
	p := newProps(append(append([]string{}, base...), "validatebyquery", "false")...)
	if _, err := ParseConfigFor(p, true, partition.Clients{Count: 2, Index: 0}); err == nil || !strings.Contains(err.Error(), "validatebyquery: false with client.count=2") {
		t.Errorf("fleet by reads: %v", err)
	}
}

// TestEconomyBalances: the accounts' balances add up to the total for any
// total and number of accounts, and differ by at most one.
func TestEconomyBalances(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 4))
	cases := [][2]int64{{0, 1}, {5, 10}, {1_000_000, 1000}, {1_000_001, 7}, {3, 3}}
	for range 200 {
		cases = append(cases, [2]int64{rng.Int64N(1e6), 1 + rng.Int64N(500)})
	}
	for _, c := range cases {
		e := &Economy{TotalCash: c[0]}
		var sum, lo, hi int64 = 0, 1 << 62, -1
		for k := range c[1] {
			b := e.balance(k, c[1])
			sum += b
			lo, hi = min(lo, b), max(hi, b)
		}
		if sum != c[0] || hi-lo > 1 {
			t.Fatalf("total %d over %d accounts: sum %d, balances %d..%d", c[0], c[1], sum, lo, hi)
		}
	}
}

// serialTxn is a Transactional session over the memory DB whose
// transactions run one at a time: the isolation a correct database gives.
type serialTxn struct {
	db.Session
	mu      *sync.Mutex
	retries int64
	failNth int // every failNth transaction fails once with a retryable error; 0 never
	n       int
}

func (s *serialTxn) Transact(ctx context.Context, body db.TxnBody) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	if s.failNth > 0 && s.n%s.failNth == 0 {
		s.retries++ // an attempt that "failed": its writes are not kept
	}
	return body.Attempt(ctx, s.Session)
}

func (s *serialTxn) Retries() int64 { return s.retries }

// economyRig loads an economy into a memory DB and returns a worker per
// session.
func economyRig(t testing.TB, workers int, kv ...string) (*ClosedEconomyWorkload, *dbtest.Memory, []*Worker, *measurement.Collector) {
	t.Helper()
	kv = append([]string{"workload", economyClass}, kv...)
	p := newProps(kv...)
	load, err := New(p, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	mcfg, _ := measurement.ParseConfig(p)
	coll := measurement.NewCollector(mcfg, measurement.YCSB)
	mem := dbtest.NewMemory()
	s, _ := mem.Session(context.Background(), 0, 1)
	lw := load.NewWorker(measured.NewSession(s, coll.NewRecorder()), 1)
	for range load.RecordCount {
		if !lw.DoInsert(context.Background()) {
			t.Fatal("load failed")
		}
	}
	run, err := New(p, true, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var out []*Worker
	for i := range workers {
		s, _ := mem.Session(context.Background(), i, workers)
		out = append(out, run.NewWorker(measured.NewSession(&serialTxn{Session: s, mu: &mu, failNth: 3}, coll.NewRecorder()), uint64(i+1)))
	}
	return &ClosedEconomyWorkload{run}, mem, out, coll
}

// TestEconomyTransfers runs transfers from 8 goroutines on serializable
// transactions: every one is counted, money only moves, and the validation
// finds the total; then a balance changed behind the economy's back is
// found, by query and by reads.
func TestEconomyTransfers(t *testing.T) {
	wl, mem, workers, coll := economyRig(t, 8, "recordcount", "6", "totalcash", "601",
		"readproportion", "0.2", "scanproportion", "0.1", "readmodifywriteproportion", "0.7", "maxscanlength", "3")
	var wg sync.WaitGroup
	for _, wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				wk.DoTransaction(context.Background())
			}
		}()
	}
	wg.Wait()
	coll.Tick()
	var rmw, retries int64
	for _, m := range coll.Total().Measurements {
		if m.Name == "READ-MODIFY-WRITE" {
			for _, rc := range m.Returns {
				if rc.Status != db.OK {
					t.Errorf("transfer %s × %d", rc.Status, rc.Count)
				}
				rmw += rc.Count
			}
			retries = m.Retries
		}
	}
	if rmw < 2500 || rmw > 3100 || retries == 0 {
		t.Errorf("%d transfers with %d retries, want about 2800 and some", rmw, retries)
	}
	ctx := context.Background()
	v := wl.Validate(ctx, summing{mem}, nil)
	if v.Status != ValidationSuccess || v.CountedCash != 601 || v.Accounts != 6 || v.Operations != 4000 || v.Method != ByQuery {
		t.Errorf("validation %+v", v)
	}
	// The money moved: not every account holds its starting balance.
	s, _ := mem.Session(ctx, 0, 1)
	moved := false
	for k := range int64(6) {
		b := balanceOf(t, s, wl.CoreWorkload, k)
		if b != wl.economy.balance(k, 6) {
			moved = true
		}
	}
	if !moved {
		t.Error("no money moved")
	}
	// A deposit from nowhere: found by both methods.
	key := keyName(3, 1, false)
	b := balanceOf(t, s, wl.CoreWorkload, 3)
	s.Update(ctx, wl.Table, key, []db.Field{{Name: "field0", Value: []byte(strconv.FormatInt(b+40, 10))}})
	for _, byQuery := range []bool{true, false} {
		wl.economy.ValidateByQuery = byQuery
		v := wl.Validate(ctx, summing{mem}, nil)
		if v.Status != ValidationFailed || v.CountedCash != 641 || v.AnomalyScore != 40.0/4000 || v.Err() == nil {
			t.Errorf("by query %v: validation %+v", byQuery, v)
		}
	}
	// A missing account: the count says so.
	s.Delete(ctx, wl.Table, key)
	wl.economy.ValidateByQuery = false
	if v := wl.Validate(ctx, summing{mem}, nil); v.Accounts != 5 || v.Status != ValidationFailed || !strings.Contains(v.Err().Error(), "5 accounts found, recordcount is 6") {
		t.Errorf("missing account: %+v, %v", v, v.Err())
	}
}

func balanceOf(t testing.TB, s db.Session, wl *CoreWorkload, k int64) int64 {
	t.Helper()
	var r db.Record
	if err := s.Read(context.Background(), wl.Table, keyName(k, 1, false), []string{"field0"}, &r); err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseInt(string(r.Fields[0].Value), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// summing is the memory DB with a db.Summer: the sum of every record's
// field, as one statement of a database would.
type summing struct{ *dbtest.Memory }

func (m summing) Sum(ctx context.Context, table, field string) (sum, rows int64, err error) {
	s, _ := m.Session(ctx, 0, 1)
	var out db.Rows
	if err := s.Scan(ctx, table, "", 1<<30, []string{field}, &out); err != nil {
		return 0, 0, err
	}
	for i := range out.Len() {
		r := out.At(i)
		n, err := strconv.ParseInt(string(r.Fields[0].Value), 10, 64)
		if err != nil {
			return 0, 0, err
		}
		sum += n
		rows++
	}
	return sum, rows, nil
}

// fakeTxn is a transaction over scripted balances, for Attempt alone.
type fakeTxn struct {
	balances map[string]string
	reads    []string
	wrote    map[string]string
}

func (f *fakeTxn) Read(_ context.Context, _, key string, fields []string, out *db.Record) error {
	f.reads = append(f.reads, key)
	v, ok := f.balances[key]
	if !ok {
		return db.ErrNotFound
	}
	out.Add(fields[0], []byte(v))
	return nil
}

func (f *fakeTxn) Update(_ context.Context, _, key string, values []db.Field) error {
	f.wrote[key] = string(values[0].Value)
	return nil
}

func TestTransferAttempt(t *testing.T) {
	tests := []struct {
		from, to string
		want     map[string]string
		err      string
	}{
		{"10", "5", map[string]string{"a": "9", "b": "6"}, ""},
		{"0", "5", map[string]string{"a": "0", "b": "5"}, ""}, // nothing to move: both written unchanged, as the forks do
		{"x1", "5", nil, `account a: balance "x1" is not an integer`},
		{"", "5", nil, `account a: balance "" is not an integer`},
	}
	for _, tt := range tests {
		tr := &transfer{table: "t", balance: []string{"field0"}, from: []byte("a"), to: []byte("b")}
		f := &fakeTxn{balances: map[string]string{"a": tt.from, "b": tt.to}, wrote: map[string]string{}}
		err := tr.Attempt(context.Background(), f)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s→%s: err %v, want %q", tt.from, tt.to, err, tt.err)
			}
			if len(f.wrote) != 0 {
				t.Errorf("%s→%s: wrote %v after a failed read", tt.from, tt.to, f.wrote)
			}
			continue
		}
		if err != nil || len(f.wrote) != 2 || f.wrote["a"] != tt.want["a"] || f.wrote["b"] != tt.want["b"] {
			t.Errorf("%s→%s: wrote %v (%v), want %v", tt.from, tt.to, f.wrote, err, tt.want)
		}
	}
	tr := &transfer{table: "t", balance: []string{"field0"}, from: []byte("a"), to: []byte("gone")}
	if err := tr.Attempt(context.Background(), &fakeTxn{balances: map[string]string{"a": "1"}, wrote: map[string]string{}}); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("missing account: %v", err)
	}
}

// TestTransferOrder: money moves from the higher account number to the
// lower, and the higher is read first (one lock order for all).
func TestTransferOrder(t *testing.T) {
	_, _, workers, _ := economyRig(t, 1, "recordcount", "50", "readproportion", "0", "readmodifywriteproportion", "1", "insertorder", "ordered")
	wk := workers[0]
	for range 200 {
		wk.DoTransaction(context.Background())
		from, _ := strconv.Atoi(strings.TrimPrefix(string(wk.transfer.from), "user"))
		to, _ := strconv.Atoi(strings.TrimPrefix(string(wk.transfer.to), "user"))
		if from <= to {
			t.Fatalf("transfer from %d to %d", from, to)
		}
	}
}

// nopBank is a Transactional session whose accounts all hold 100 and
// whose writes go nowhere: the transfer's own cost.
type nopBank struct{ nop }

var hundred = []byte("100")

func (b *nopBank) Transact(ctx context.Context, body db.TxnBody) error { return body.Attempt(ctx, b) }
func (b *nopBank) Read(_ context.Context, _, _ string, fields []string, out *db.Record) error {
	out.Add(fields[0], hundred)
	return nil
}

// BenchmarkTransfer is a transfer without a database: choose the accounts,
// build their keys, parse and format the balances, measure. 0 allocs/op.
func BenchmarkTransfer(b *testing.B) {
	wk := benchWorker(b, &nopBank{}, "workload", economyClass, "recordcount", "100000", "readproportion", "0", "readmodifywriteproportion", "1")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		wk.DoTransaction(ctx)
	}
}

// TestEconomyJudgesItsOwnRun: money lost before a run (an earlier run at
// READ COMMITTED) is counted at the run's start and does not fail a clean
// run, which states it apart; a change during the run fails it, by that
// change alone. By query and by reads alike.
func TestEconomyJudgesItsOwnRun(t *testing.T) {
	for _, byQuery := range []bool{true, false} {
		t.Run(fmt.Sprintf("byquery=%v", byQuery), func(t *testing.T) {
			wl, mem, workers, _ := economyRig(t, 4, "recordcount", "6", "totalcash", "601", "readmodifywriteproportion", "1", "readproportion", "0")
			wl.economy.ValidateByQuery = byQuery
			ctx := context.Background()
			s, _ := mem.Session(ctx, 0, 1)
			setBalance := func(k, delta int64) {
				b := balanceOf(t, s, wl.CoreWorkload, k)
				if err := s.Update(ctx, wl.Table, keyName(k, 1, false), []db.Field{{Name: "field0", Value: []byte(strconv.FormatInt(b+delta, 10))}}); err != nil {
					t.Fatal(err)
				}
			}
			setBalance(2, -26) // the earlier run's loss
			start, err := wl.Count(ctx, summing{mem})
			if err != nil || start != (Tally{Cash: 575, Accounts: 6}) {
				t.Fatalf("start %+v, %v; want 575 in 6 accounts", start, err)
			}
			var wg sync.WaitGroup
			for _, wk := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 100 {
						wk.DoTransaction(ctx)
					}
				}()
			}
			wg.Wait()
			v := wl.Validate(ctx, summing{mem}, &Start{Tally: start})
			if v.Status != ValidationSuccess || v.Err() != nil || v.CountedCash != 575 || v.TotalCash != 601 || *v.StartCash != 575 || *v.EarlierChange != -26 || v.AnomalyScore != 0 {
				t.Errorf("clean run after a loss: %+v, %v", v, v.Err())
			}
			if len(v.Notes()) != 1 || !strings.Contains(v.Notes()[0], "26 less than totalcash 601") {
				t.Errorf("notes %q", v.Notes())
			}
			// Judged as before, against totalcash, it would fail.
			if old := wl.Validate(ctx, summing{mem}, nil); old.Status != ValidationFailed {
				t.Errorf("without a start: %+v", old)
			}
			setBalance(4, 3) // this run's anomaly
			v = wl.Validate(ctx, summing{mem}, &Start{Tally: start})
			if v.Status != ValidationFailed || v.CountedCash != 578 || v.AnomalyScore != 3.0/400 || !strings.Contains(v.Err().Error(), "held 575 at its start and hold 578 now, +3") {
				t.Errorf("a run that deposited 3: %+v, %v", v, v.Err())
			}
		})
	}
}
