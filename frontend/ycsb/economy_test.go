package ycsb

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/props"
)

// economyDriver is a binding with transactions over one memory store that
// outlives its opens, so that a run finds what an earlier one left.
// Transactions run one at a time; with leak, every leak-th transaction's
// first update writes one unit less, as a lost update does.
type economyDriver struct {
	mem  *dbtest.Memory
	mu   sync.Mutex // one transaction at a time
	leak int
	n    int
}

func (d *economyDriver) Transactions(*props.Properties) error { return nil }

func (d *economyDriver) Open(context.Context, *props.Properties, io.Writer) (db.DB, error) {
	return economyDB{d}, nil
}

type economyDB struct{ d *economyDriver }

func (e economyDB) Session(ctx context.Context, i, n int) (db.Session, error) {
	s, err := e.d.mem.Session(ctx, i, n)
	return economySession{Session: s, d: e.d}, err
}

func (e economyDB) Close() error { return nil }

// Sum adds up field over the table, as one statement would.
func (e economyDB) Sum(ctx context.Context, table, field string) (sum, rows int64, err error) {
	s, _ := e.d.mem.Session(ctx, 0, 1)
	var out db.Rows
	if err := s.Scan(ctx, table, "", 1<<30, []string{field}, &out); err != nil {
		return 0, 0, err
	}
	for i := range out.Len() {
		n, err := strconv.ParseInt(string(out.At(i).Fields[0].Value), 10, 64)
		if err != nil {
			return 0, 0, err
		}
		sum, rows = sum+n, rows+1
	}
	return sum, rows, nil
}

type economySession struct {
	db.Session
	d *economyDriver
}

func (s economySession) Transact(ctx context.Context, body db.TxnBody) error {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.d.n++
	return body.Attempt(ctx, &leakyTxn{Session: s.Session, leak: s.d.leak > 0 && s.d.n%s.d.leak == 0})
}

type leakyTxn struct {
	db.Session
	leak bool
}

func (t *leakyTxn) Update(ctx context.Context, table, key string, values []db.Field) error {
	if t.leak {
		t.leak = false
		n, _ := strconv.ParseInt(string(values[0].Value), 10, 64)
		values = []db.Field{{Name: values[0].Name, Value: []byte(strconv.FormatInt(n-1, 10))}}
	}
	return t.Session.Update(ctx, table, key, values)
}

// TestEconomyJudgesItsOwnRun: a run that loses money fails with its own
// loss; the clean run after it (as after a READ COMMITTED run, one with
// FOR UPDATE) counts the balances before it starts, passes, and states the
// earlier loss apart, in the text report, the JSON report and on stderr.
func TestEconomyJudgesItsOwnRun(t *testing.T) {
	d := &economyDriver{mem: dbtest.NewMemory()}
	run := func(load bool, extra ...string) (string, string, string, error) {
		m := map[string]string{"workload": "closedeconomy", "recordcount": "5", "totalcash": "5000",
			"operationcount": "400", "readproportion": "0", "readmodifywriteproportion": "1", "threadcount": "4",
			"dotransactions": strconv.FormatBool(!load)}
		path := filepath.Join(t.TempDir(), "r.json")
		m["report.json"] = path
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		var stdout, stderr syncBuffer
		err := Run(context.Background(), Options{Props: props.FromMap(m), Driver: d, Binding: "test", Stdout: &stdout, Stderr: &stderr})
		return stdout.String(), stderr.String(), path, err
	}
	if _, stderr, _, err := run(true); err != nil {
		t.Fatalf("load: %v\n%s", err, stderr)
	}

	d.leak = 40 // 10 of the 400 transfers lose a unit
	out, stderr, path, err := run(false)
	if err == nil || err.Error() != "closed economy: the invariant broke during this run: the accounts held 5000 at its start and hold 4990 now, -10 (anomaly score 0.025)" {
		t.Fatalf("the lossy run: %v\n%s\n%s", err, out, stderr)
	}
	if !strings.Contains(stderr, "Counting the closed economy's balances before the run, by one query.\n") {
		t.Errorf("no line for the start's count:\n%s", stderr)
	}
	if row(t, out, "VALIDATE", "STATUS") != "FAILED" || rowInt(t, out, "VALIDATE", "START CASH") != 5000 || rowInt(t, out, "VALIDATE", "EARLIER CHANGE") != 0 {
		t.Errorf("the lossy run's rows:\n%s", out)
	}
	if v := readReport(t, path).Validation; v == nil || v.Status != "FAILED" || v.StartCash == nil || *v.StartCash != 5000 || v.CountedCash != 4990 || v.AnomalyScore != 0.025 {
		t.Errorf("the lossy run's JSON validation %+v", v)
	}

	d.leak = 0
	out, stderr, path, err = run(false)
	if err != nil {
		t.Fatalf("the clean run after it failed: %v\n%s\n%s", err, out, stderr)
	}
	for name, want := range map[string]string{"STATUS": "SUCCESS", "TOTAL CASH": "5000", "COUNTED CASH": "4990",
		"START CASH": "4990", "START ACCOUNTS": "5", "EARLIER CHANGE": "-10", "ANOMALY SCORE": "0.0"} {
		if got := row(t, out, "VALIDATE", name); got != want {
			t.Errorf("[VALIDATE], %s, %s; want %s", name, got, want)
		}
	}
	if !strings.Contains(stderr, "closed economy: before this run the accounts held 4990, 10 less than totalcash 5000 (an earlier run or another writer changed them): this run is judged only on its own change\n") {
		t.Errorf("stderr does not state the earlier loss:\n%s", stderr)
	}
	v := readReport(t, path).Validation
	if v == nil || v.Status != "SUCCESS" || v.StartCash == nil || *v.StartCash != 4990 || *v.EarlierChange != -10 || v.TotalCash != 5000 || v.CountedCash != 4990 || v.StartLate {
		t.Errorf("JSON validation %+v", v)
	}
}

// TestEconomyFleetStart: a client of a fleet counts the balances before
// the common start; a count that ends after the starttime, or in a fleet
// without one, may hold the other clients' first transfers and is marked
// late, in the JSON report, the rows and on stderr.
func TestEconomyFleetStart(t *testing.T) {
	d := &economyDriver{mem: dbtest.NewMemory()}
	base := map[string]string{"workload": "closedeconomy", "recordcount": "5", "totalcash": "5000",
		"operationcount": "40", "readproportion": "0", "readmodifywriteproportion": "1", "threadcount": "2"}
	var stderr syncBuffer
	load := props.FromMap(base)
	load.Set("dotransactions", "false")
	if err := Run(context.Background(), Options{Props: load, Driver: d, Binding: "test", Stdout: io.Discard, Stderr: &stderr}); err != nil {
		t.Fatalf("load: %v\n%s", err, stderr.String())
	}
	for _, tc := range []struct {
		name      string
		starttime string
		late      bool
	}{
		{"no starttime", "", true},
		{"starttime passed", time.Now().Add(-30 * time.Second).UTC().Format(time.RFC3339Nano), true},
		{"starttime ahead", time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := props.FromMap(base)
			for k, v := range map[string]string{"dotransactions": "true", "client.count": "2", "client.index": "0",
				"report.json": filepath.Join(t.TempDir(), "r.json")} {
				p.Set(k, v)
			}
			if tc.starttime != "" {
				p.Set("starttime", tc.starttime)
			}
			var stdout, stderr syncBuffer
			if err := Run(context.Background(), Options{Props: p, Driver: d, Binding: "test", Stdout: &stdout, Stderr: &stderr}); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			path, _ := p.Get("report.json")
			v := readReport(t, path).Validation
			if v == nil || v.StartCash == nil || *v.StartCash != 5000 || v.StartLate != tc.late || v.Status != "SUCCESS" {
				t.Errorf("validation %+v, want start 5000, late %v", v, tc.late)
			}
			note := "closed economy: the start was counted when other clients of the fleet may have been transferring already"
			if strings.Contains(stderr.String(), note) != tc.late || strings.Contains(stdout.String(), "[VALIDATE], START, ") != tc.late {
				t.Errorf("late %v, but the note or the row says otherwise:\n%s\n%s", tc.late, stdout.String(), stderr.String())
			}
		})
	}
}
