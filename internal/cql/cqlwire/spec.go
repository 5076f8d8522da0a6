package cqlwire

import (
	"context"
	"errors"
	"sync"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// errSuperseded ends the wait of a request that a speculative one, sent
// to another node after it, answered first.
var errSuperseded = errors.New("cqlwire: answered by the speculative request to another node")

// Speculator sends an idempotent request to a second node when the first
// has not answered within its delay; the first answer wins, and the other
// request is given up (its stream stays taken until its answer comes, as a
// timed-out one's). Without a speculation, a request costs a lock of the
// Speculator's own, a timer's Reset and Stop, and no allocation; a
// speculation allocates its context and, the first few times, its lane.
// It is one goroutine's, as its Calls are.
type Speculator struct {
	delay time.Duration
	timer *time.Timer
	held  *lane // the lane whose answer the caller reads, until the next Exec
	free  chan *lane

	// sent and won are the speculative requests sent and those that
	// answered first; the owner's, read between requests.
	sent, won int64

	mu    sync.Mutex
	state specState
	gen   uint64 // one per request: a late second request finds it moved on
	// the request in progress, for the timer's function
	ctx    context.Context
	first  *Host
	second *Host
	call   *Call
	st     *Stmt
	cl     gocql.Consistency
	vals   [][]byte
	lane   *lane // the second request's, once it won
	cancel context.CancelFunc
}

type specState uint8

const (
	specIdle   specState = iota
	specArmed            // the first request is out, the timer set
	specFired            // the second request is out too
	specFailed           // the second request failed: the first's answer stands
	specWon              // the second request answered first
)

// lane is a second request's own state: it runs beside the first, on
// another goroutine, with its own Call, statements and copy of the values.
type lane struct {
	call  *Call
	stmts map[*Stmt]*Stmt
	vals  [][]byte
	buf   []byte
}

// NewSpeculator returns a Speculator that sends the second request after
// delay (above zero).
func NewSpeculator(delay time.Duration) *Speculator {
	sp := &Speculator{delay: delay, free: make(chan *lane, 4)}
	sp.timer = time.AfterFunc(time.Hour, sp.fire)
	sp.timer.Stop()
	return sp
}

// Sent is the second requests sent; Won, those that answered first.
func (sp *Speculator) Sent() int64 { return sp.sent }

// Won is the operations answered by their second request.
func (sp *Speculator) Won() int64 { return sp.won }

// Exec is first.Exec(ctx, call, st, cl, values), with the same request
// sent to second when first has not answered within the delay (none when
// second is nil or first). It returns the Call and statement whose
// answer to read (call and st, or the second request's, valid until the
// next Exec) and whether the second request answered. When both fail,
// the error is the first's.
func (sp *Speculator) Exec(ctx context.Context, call *Call, first, second *Host, st *Stmt, cl gocql.Consistency, values [][]byte) (*Call, *Stmt, bool, error) {
	if sp.held != nil {
		sp.putLane(sp.held)
		sp.held = nil
	}
	if second == nil || second == first {
		return call, st, false, first.Exec(ctx, call, st, cl, values)
	}
	sp.mu.Lock()
	sp.state = specArmed
	sp.ctx, sp.first, sp.second, sp.call, sp.st, sp.cl, sp.vals = ctx, first, second, call, st, cl, values
	sp.mu.Unlock()
	sp.timer.Reset(sp.delay)
	err := first.Exec(ctx, call, st, cl, values)
	sp.timer.Stop()
	sp.mu.Lock()
	state := sp.state
	ln := sp.lane
	if state == specFired {
		sp.cancel() // the first answered first: give the second up
	}
	sp.state, sp.lane, sp.cancel = specIdle, nil, nil
	sp.ctx, sp.first, sp.second, sp.call, sp.st, sp.vals = nil, nil, nil, nil, nil, nil
	sp.gen++
	sp.mu.Unlock()
	switch state {
	case specFired, specFailed:
		sp.sent++
	case specWon:
		sp.sent++
		sp.won++
		sp.held = ln
		return ln.call, ln.stmt(st), true, nil
	}
	return call, st, false, err
}

// fire sends the second request of the one in progress, if it still is.
func (sp *Speculator) fire() {
	sp.mu.Lock()
	if sp.state != specArmed {
		sp.mu.Unlock()
		return
	}
	gen := sp.gen
	ln := sp.getLane()
	ln.copyValues(sp.vals)
	st := ln.stmt(sp.st)
	ctx, cancel := context.WithCancel(sp.ctx)
	sp.cancel = cancel
	sp.state = specFired
	first, second, call, cl := sp.first, sp.second, sp.call, sp.cl
	sp.mu.Unlock()

	err := second.Exec(ctx, ln.call, st, cl, ln.vals)
	cancel()

	sp.mu.Lock()
	if sp.gen != gen || sp.state != specFired || err != nil {
		if sp.gen == gen && sp.state == specFired {
			sp.state = specFailed
		}
		sp.mu.Unlock()
		sp.putLane(ln)
		return
	}
	sp.state, sp.lane = specWon, ln
	sp.mu.Unlock()
	// The first node is slow or frozen: routers pass over it for the
	// pool's Retry, as over a node whose dial failed. Requests keep going
	// to a frozen node otherwise, until its socket's buffer is full and
	// writes to it block the workers sending them.
	first.markDown()
	// Wake the first request's wait. Between a preparation and its
	// execution it is in no stream: look again until it is, or until it
	// answered by itself (the owner has then taken the answer: gen moved).
	for {
		sp.mu.Lock()
		if sp.gen != gen {
			sp.mu.Unlock()
			return
		}
		found := first.abandon(call)
		sp.mu.Unlock()
		if found {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// abandon gives up call's request in flight on one of h's connections,
// ending its wait with errSuperseded; false when it is in none (its
// answer came, or it is not sent yet).
func (h *Host) abandon(call *Call) bool {
	for i := range h.conns {
		c := h.conns[i].Load()
		if c == nil {
			continue
		}
		c.mu.Lock()
		for s := 0; s < c.high; s++ {
			if c.calls[s] == call {
				c.calls[s] = abandoned
				c.mu.Unlock()
				call.done <- errSuperseded
				return true
			}
		}
		c.mu.Unlock()
	}
	return false
}

func (sp *Speculator) getLane() *lane {
	select {
	case ln := <-sp.free:
		return ln
	default:
		return &lane{call: NewCall(), stmts: map[*Stmt]*Stmt{}, buf: make([]byte, 0, 256)}
	}
}

func (sp *Speculator) putLane(ln *lane) {
	clear(ln.vals)
	select {
	case sp.free <- ln:
	default:
	}
}

// stmt is the lane's own copy of st: a statement's preparations are one
// goroutine's.
func (ln *lane) stmt(st *Stmt) *Stmt {
	t := ln.stmts[st]
	if t == nil {
		t = &Stmt{CQL: st.CQL, Serial: st.Serial, PageSize: st.PageSize}
		ln.stmts[st] = t
	}
	return t
}

// copyValues copies vals into the lane, nil (null) kept apart from empty.
func (ln *lane) copyValues(vals [][]byte) {
	n := 0
	for _, v := range vals {
		n += len(v)
	}
	if cap(ln.buf) < n {
		ln.buf = make([]byte, 0, n)
	}
	buf := ln.buf[:0]
	ln.vals = ln.vals[:0]
	for _, v := range vals {
		if v == nil {
			ln.vals = append(ln.vals, nil)
			continue
		}
		start := len(buf)
		buf = append(buf, v...)
		ln.vals = append(ln.vals, buf[start:len(buf):len(buf)])
	}
}
