package dbtest

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

// Bindings that break one capability's contract each, on Memory: the
// suite must fail each of them in that capability's check.

// sessionDB gives Memory's sessions a capability by wrapping them.
type sessionDB struct {
	*Memory
	wrap func(db.Session) db.Session
}

func (d sessionDB) Session(ctx context.Context, w, n int) (db.Session, error) {
	ss, err := d.Memory.Session(ctx, w, n)
	return d.wrap(ss), err
}

// eagerTxn applies the body's updates as it goes: a failed body's stay.
type eagerTxn struct{ db.Session }

func (s eagerTxn) Transact(ctx context.Context, body db.TxnBody) error {
	return body.Attempt(ctx, s.Session)
}

// blindRMW writes without reading.
type blindRMW struct{ db.Session }

func (s blindRMW) ReadModifyWrite(ctx context.Context, table, key string, _ []string, _ *db.Record, values []db.Field) error {
	return s.Update(ctx, table, key, values)
}

// fallingRetries counts down.
type fallingRetries struct {
	db.Session
	n *int64
}

func (s fallingRetries) Retries() int64 { *s.n--; return *s.n }

type zeroSum struct{ *Memory }

func (zeroSum) Sum(context.Context, string, string) (int64, int64, error) { return 0, 0, nil }

type textStats struct{ *Memory }

func (textStats) Stats() []db.Stat {
	return []db.Stat{{Section: "ENGINE", Name: "Level", Value: "high"}}
}

type failingSettle struct{ *Memory }

func (failingSettle) Settle(context.Context) error { return errors.New("settle failed") }

// broken are the bindings by the capability each breaks, with the options
// the suite is run with.
var broken = map[string]func() (db.DB, Options){
	"Transactional": func() (db.DB, Options) {
		return sessionDB{NewMemory(), func(s db.Session) db.Session { return eagerTxn{s} }}, Options{}
	},
	"ReadModifyWriter": func() (db.DB, Options) {
		return sessionDB{NewMemory(), func(s db.Session) db.Session { return blindRMW{s} }}, Options{}
	},
	"RetryCounter": func() (db.DB, Options) {
		n := int64(10)
		return sessionDB{NewMemory(), func(s db.Session) db.Session { return fallingRetries{s, &n} }}, Options{}
	},
	"Summer":        func() (db.DB, Options) { return zeroSum{NewMemory()}, Options{} },
	"StatsReporter": func() (db.DB, Options) { return textStats{NewMemory()}, Options{} },
	"Settler":       func() (db.DB, Options) { return failingSettle{NewMemory()}, Options{} },
	"Checker": func() (db.DB, Options) {
		refuses := db.CheckedDriver{
			OpenFunc:  func(context.Context, *props.Properties, io.Writer) (db.DB, error) { return NewMemory(), nil },
			CheckFunc: func(*props.Properties) error { return errors.New("refused") },
		}
		return NewMemory(), Options{Driver: refuses, Props: props.New()}
	},
}

// TestBrokenBinding runs the suite on the broken binding that
// DBTEST_BROKEN names; TestCapabilityContracts runs it in a child process
// and expects it to fail.
func TestBrokenBinding(t *testing.T) {
	kind := os.Getenv("DBTEST_BROKEN")
	if kind == "" {
		t.Skip("run by TestCapabilityContracts")
	}
	d, opts := broken[kind]()
	Run(t, func(*testing.T) db.DB { return d }, opts)
}

func TestCapabilityContracts(t *testing.T) {
	for kind := range broken {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenBinding$", "-test.v")
			cmd.Env = append(os.Environ(), "DBTEST_BROKEN="+kind)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a binding whose %s breaks its contract:\n%s", kind, out)
			}
			if !strings.Contains(string(out), "--- FAIL: TestBrokenBinding/"+kind+" ") {
				t.Errorf("the suite failed, but not in the check of %s:\n%s", kind, out)
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, "--- FAIL: TestBrokenBinding/") && !strings.Contains(line, "/"+kind+" ") {
					t.Errorf("a check other than %s's failed: %s", kind, line)
				}
			}
		})
	}
}
