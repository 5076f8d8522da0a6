package cqlwire

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// specRead reads key through sp from first (second beside it) and
// returns the value column, or "" when there was no row.
func specRead(t *testing.T, sp *Speculator, call *Call, first, second *Host, st *Stmt, key string) (string, bool, error) {
	t.Helper()
	c, s, won, err := sp.Exec(context.Background(), call, first, second, st, gocql.One, [][]byte{[]byte(key)})
	if err != nil {
		return "", won, err
	}
	var v string
	if _, err := c.Rows(s, func(_ []string, vals [][]byte) bool { v = string(vals[1]); return false }, nil); err != nil {
		return "", won, err
	}
	return v, won, nil
}

// A first node that does not answer: the second answers within about the
// delay, the operation counts as won, and both nodes serve later requests.
func TestSpeculationAnswersFromSecond(t *testing.T) {
	frozen := newFakeServer(t, "127.0.0.1:0")
	var mu sync.Mutex
	var hung []func()
	frozen.OnExecute = func(c *srvConn, stream int16, key []byte) bool {
		if string(key) != "slow" {
			return false
		}
		mu.Lock()
		hung = append(hung, func() { c.Value(stream, key, []byte("late")) })
		mu.Unlock()
		return true
	}
	frozen.start()
	live := newFakeServer(t, "127.0.0.1:0").start()
	p := NewPool(testOptions())
	defer p.Close()
	first, second := p.Host(frozen.Addr, frozen.Addr), p.Host(live.Addr, live.Addr)
	sp := NewSpeculator(20 * time.Millisecond)
	call, st := NewCall(), &Stmt{CQL: selectCQL}

	v, won, err := specRead(t, sp, call, first, second, st, "fast")
	if err != nil || won || v != "v:fast" || sp.Sent() != 0 {
		t.Fatalf("fast: %q won=%t sent=%d err=%v; want the first's answer, nothing sent", v, won, sp.Sent(), err)
	}
	start := time.Now()
	v, won, err = specRead(t, sp, call, first, second, st, "slow")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("answered after %v with a delay of 20ms", d)
	}
	if err != nil || !won || v != "v:slow" || sp.Sent() != 1 || sp.Won() != 1 {
		t.Fatalf("slow: %q won=%t sent=%d won=%d err=%v; want the second's answer", v, won, sp.Sent(), sp.Won(), err)
	}
	// Routers pass over the node that lost for a while.
	if !first.Down() || second.Down() {
		t.Errorf("after the second won: first down %t, second down %t; want the first only", first.Down(), second.Down())
	}
	// The late answer of the given-up request is not taken for a later one.
	mu.Lock()
	for _, f := range hung {
		f()
	}
	mu.Unlock()
	for i := range 20 {
		v, won, err = specRead(t, sp, call, first, second, st, "after")
		if err != nil || won || v != "v:after" {
			t.Fatalf("after %d: %q won=%t err=%v", i, v, won, err)
		}
	}
	if live.Executes.Load() != 1 {
		t.Errorf("second node executed %d requests, want 1", live.Executes.Load())
	}
}

// A second request that fails leaves the first's answer.
func TestSpeculationSecondFails(t *testing.T) {
	slow := newFakeServer(t, "127.0.0.1:0")
	slow.OnExecute = func(c *srvConn, stream int16, key []byte) bool {
		go func() {
			time.Sleep(80 * time.Millisecond)
			c.Value(stream, key, []byte("first"))
		}()
		return true
	}
	slow.start()
	bad := newFakeServer(t, "127.0.0.1:0")
	bad.OnExecute = func(c *srvConn, stream int16, key []byte) bool {
		c.writeError(stream, gocql.ErrCodeOverloaded, "overloaded")
		return true
	}
	bad.start()
	p := NewPool(testOptions())
	defer p.Close()
	sp := NewSpeculator(10 * time.Millisecond)
	v, won, err := specRead(t, sp, NewCall(), p.Host(slow.Addr, slow.Addr), p.Host(bad.Addr, bad.Addr), &Stmt{CQL: selectCQL}, "k")
	if err != nil || won || v != "first" || sp.Sent() != 1 || sp.Won() != 0 {
		t.Fatalf("%q won=%t sent=%d won=%d err=%v; want the first's answer after a failed second", v, won, sp.Sent(), sp.Won(), err)
	}
}

// Many requests racing their speculation: every one gets its own key's
// answer, whichever node gave it (run with -race).
func TestSpeculationRaces(t *testing.T) {
	jitter := func(s *fakeServer) *fakeServer { s.Shuffle = true; return s.start() }
	a, b := jitter(newFakeServer(t, "127.0.0.1:0")), jitter(newFakeServer(t, "127.0.0.1:0"))
	p := NewPool(testOptions())
	defer p.Close()
	ha, hb := p.Host(a.Addr, a.Addr), p.Host(b.Addr, b.Addr)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			sp := NewSpeculator(150 * time.Microsecond)
			call, st := NewCall(), &Stmt{CQL: selectCQL}
			for i := range 300 {
				key := string(rune('a'+g)) + string(rune('a'+i%26))
				first, second := ha, hb
				if i%2 == 1 {
					first, second = hb, ha
				}
				v, _, err := specRead(t, sp, call, first, second, st, key)
				if err != nil && !errors.Is(err, context.Canceled) {
					t.Error(err)
					return
				}
				if v != "v:"+key {
					t.Errorf("key %s: answer %q", key, v)
					return
				}
			}
		})
	}
	wg.Wait()
}

// Without a speculation, Exec allocates nothing beyond the request's own.
func TestSpeculationAllocates(t *testing.T) {
	s := newFakeServer(t, "127.0.0.1:0").start()
	p := NewPool(testOptions())
	defer p.Close()
	h := p.Host(s.Addr, s.Addr)
	other := p.Host("127.0.0.1:1", "127.0.0.1:1")
	sp := NewSpeculator(time.Minute)
	call, st := NewCall(), &Stmt{CQL: selectCQL}
	vals := [][]byte{[]byte("k")}
	ctx := context.Background()
	if _, _, _, err := sp.Exec(ctx, call, h, other, st, gocql.One, vals); err != nil {
		t.Fatal(err)
	}
	base := testing.AllocsPerRun(200, func() { h.Exec(ctx, call, st, gocql.One, vals) })
	if n := testing.AllocsPerRun(200, func() { sp.Exec(ctx, call, h, other, st, gocql.One, vals) }); n > base {
		t.Errorf("%v allocations a request with speculation armed, %v without", n, base)
	}
}

// One request at a time, each written by its caller on the idle
// connection (no frame queued behind another's write), allocates nothing
// (cannedServer allocates nothing per request either): the raw socket's
// write keeps its state in the connection.
func TestExecAllocates(t *testing.T) {
	addr := cannedServer(t)
	p := NewPool(testOptions())
	defer p.Close()
	h := p.Host(addr, addr)
	call, st := NewCall(), &Stmt{CQL: selectCQL}
	vals := [][]byte{[]byte("k")}
	ctx := context.Background()
	if err := h.Exec(ctx, call, st, gocql.One, vals); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(200, func() { h.Exec(ctx, call, st, gocql.One, vals) }); n != 0 {
		t.Errorf("%v allocations a request", n)
	}
}
