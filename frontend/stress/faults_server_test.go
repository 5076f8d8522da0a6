package stress

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db/dbtest"
)

// watchWriter keeps what is written and calls on once, when mark first
// appears in it.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	mark string
	on   func()
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.on != nil && strings.Contains(w.buf.String(), w.mark) {
		go w.on()
		w.on = nil
	}
	return len(p), nil
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// interruptBound is how long after Ctrl-C a run may take to return with
// the node hung: the in-flight requests are abandoned at once and the
// session's close waits 2 s at most; the rest is slack for a loaded
// machine.
const interruptBound = 5 * time.Second

// TestInterruptWithFrozenNode freezes the node (a proxy that stops
// forwarding, connections open) in each phase of a run, then interrupts
// it: Main must return within interruptBound, as load and run do, and a
// run interrupted while measuring still reports the operations finished,
// each of them in the table.
func TestInterruptWithFrozenNode(t *testing.T) {
	s := cluster(t)
	ks := keyspace(t, s, "faults_frozen")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	for _, c := range []struct {
		name string
		// mark: the output that freezes the node when it appears ("":
		// frozen before the start, during the schema's creation)
		mark string
		line []string
		// report: the run measured before the freeze, and reports it
		report bool
	}{
		{"schema", "", []string{"write", "n=100"}, false},
		{"warmup", "Warming up WRITE", []string{"write", "n=400000"}, false},
		{"truncate", "Sleeping", []string{"write", "n=100", "no-warmup", "truncate=once"}, false},
		{"write", "\ntotal,", []string{"write", "duration=60s", "no-warmup"}, true},
		{"user", "\ntotal,", []string{"user", "profile=" + profileIn(t, "blogpost.yaml", ks), "ops(insert=1)", "duration=60s", "no-warmup"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := dbtest.NewProxy(t, testNode+":9042")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			interrupted := make(chan time.Time, 1)
			freezeThenInterrupt := func() {
				p.Freeze()
				time.Sleep(time.Second)
				interrupted <- time.Now()
				cancel()
			}
			out := &watchWriter{mark: c.mark, on: freezeThenInterrupt}
			if c.mark == "" {
				out.on = nil
				go freezeThenInterrupt()
			}
			line := append(c.line, "-rate", "threads=4", "-node", testNode, "-port", "native="+p.PortString(), "-log", "no-settings")
			if c.name != "user" {
				line = append(line, "-schema", "replication(factor=1)", "keyspace="+ks)
			}
			var errOut bytes.Buffer
			err := Main(ctx, line, Env{Stdout: out, Stderr: &errOut, Version: "test"})
			ended := time.Now()
			var at time.Time
			select {
			case at = <-interrupted:
			default:
				t.Fatalf("the run ended before the interrupt: %v\n%s\n%s", err, out, errOut.String())
			}
			p.Thaw()
			took := ended.Sub(at)
			t.Logf("returned %v after the interrupt: %v", took.Round(10*time.Millisecond), err)
			if took > interruptBound {
				t.Errorf("returned %v after the interrupt with the node frozen, want within %v", took, interruptBound)
			}
			if !errors.Is(err, ErrInterrupted) || errors.As(err, new(*BadInput)) {
				t.Errorf("err %v: want ErrInterrupted (exit 130), not bad input (exit 2)", err)
			}
			if !c.report {
				return
			}
			o := out.String()
			pk, errs, _ := results(t, o)
			if pk == 0 || errs != 0 {
				t.Errorf("%d partitions, %d errors: want the writes done before the freeze, and no error for the requests abandoned\n%s", pk, errs, o)
			}
			if c.name == "write" {
				if n := count(t, s, ks+".standard1"); n < pk {
					t.Errorf("the report counts %d partitions written, the table has %d rows", pk, n)
				}
			}
		})
	}
}

var opRateLine = regexp.MustCompile(`(?m)^Op rate +: +([0-9,]+) op/s`)

// TestIgnoreBacksOffDeadNode kills the node (the proxy closes every
// connection and refuses new ones) as the measured run starts: with
// -errors ignore every operation fails, and each thread must back off as
// the cassandra-cql binding does instead of failing hundreds of thousands
// of operations; the failures are errors, never op rate.
func TestIgnoreBacksOffDeadNode(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "faults_dead")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	for _, c := range []struct {
		name string
		line []string
	}{
		{"write", []string{"write", "duration=3s", "no-warmup", "-schema", "replication(factor=1)", "keyspace=" + ks, "-errors", "ignore"}},
		{"write retries=0", []string{"write", "duration=3s", "no-warmup", "-schema", "replication(factor=1)", "keyspace=" + ks, "-errors", "ignore", "retries=0"}},
		{"user", []string{"user", "profile=" + profileIn(t, "blogpost.yaml", ks), "ops(insert=1)", "duration=3s", "no-warmup", "-errors", "ignore"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := dbtest.NewProxy(t, testNode+":9042")
			line := append(c.line, "-rate", "threads=4", "-node", testNode, "-port", "native="+p.PortString(), "-log", "no-settings")
			out := runLineOnStart(t, p.Kill, line...)
			_, errs, _ := results(t, out)
			// Four threads over 3 s, each backing off from 1 ms to 1 s
			// between the tries and the operations: with one try, a dozen
			// failures each; with the default ten, a few. Without a
			// backoff, hundreds of thousands.
			t.Logf("%d failed operations in 3 s", errs)
			if errs == 0 || errs > 400 {
				t.Errorf("%d failed operations with the node down for 3 s: want a few dozen\n%s", errs, out)
			}
			m := opRateLine.FindStringSubmatch(out)
			if m == nil || m[1] != "0" {
				t.Errorf("Op rate %v with every operation failed: want 0\n%s", m, out)
			}
			if pk, _, _ := results(t, out); pk != 0 {
				t.Errorf("%d partitions with every operation failed: want 0\n%s", pk, out)
			}
		})
	}

	// retries=N without ignore: the tries of an operation back off too,
	// and its failure ends the run.
	t.Run("retries", func(t *testing.T) {
		p := dbtest.NewProxy(t, testNode+":9042")
		start := time.Now()
		out, _, _ := runFailsOnStart(t, p.Kill, "write", "duration=60s", "no-warmup", "-errors", "retries=5", "-rate", "threads=2", "-schema", "replication(factor=1)",
			"keyspace="+ks, "-node", testNode, "-port", "native="+p.PortString(), "-log", "no-settings")
		if !strings.Contains(out, "Operation x6 on key(s) [") {
			t.Errorf("retries=5: want the failure after 6 tries\n%s", out)
		}
		t.Logf("failed after %v", time.Since(start).Round(time.Millisecond))
	})
}
