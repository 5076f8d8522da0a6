// Package rendezvous starts the clients of a fleet (client.count) together
// without trusting their clocks. Client 0, the coordinator, listens; every
// other client connects to it and checks in with its index and a
// fingerprint of the experiment; once all have, the coordinator tells each
// to start after a delay, which each client counts on its own clock from
// the moment the message arrives. The clocks never need to agree: the
// clients' starts differ by the one-way trip of that message (well under a
// millisecond within a data centre), not by their clocks' offsets.
//
// The protocol is a few short lines over TCP (protocol.go), every read and
// write bounded in size and time: a peer that dies or goes silent ends the
// rendezvous with an error, never a hang.
package rendezvous

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Delay is how long after its START a client starts. It covers the
// coordinator's sending START to every client one after the other: each
// START carries what is left of the Delay when it is sent, so the clients
// all start Delay after the first was sent, give or take a one-way trip.
const Delay = 500 * time.Millisecond

// Heartbeat is how often the coordinator tells the waiting clients that it
// is still there; silence is the time after which a client takes a silent
// coordinator for gone.
const (
	Heartbeat = time.Second
	silence   = 5 * Heartbeat
)

// Dial retries: the coordinator may start minutes after the others (a pod
// being scheduled, an image being pulled).
const (
	minRetry = 100 * time.Millisecond
	maxRetry = 2 * time.Second
)

// Config is one client's part in a rendezvous.
type Config struct {
	// Addr is HOST:PORT: client 0 listens on its port (on HOST too when
	// HOST is an IP address, on every interface otherwise), the others
	// connect to it.
	Addr        string
	Count       int // clients in all, at least 2
	Index       int // this client's, 0 to Count-1
	Fingerprint string
	// Timeout bounds the whole wait: for every client to check in (client
	// 0), for the START (the others).
	Timeout time.Duration
	// Say reports progress, one line at a time (without '\n').
	Say func(string)
}

// Refused is a client turned away by the coordinator: it belongs to
// another experiment (client.count, fingerprint) or repeats an index.
// It is bad input (props.IsBadInput): the clients were given different
// properties.
type Refused struct{ Reason string }

func (e *Refused) Error() string { return "refused by client 0: " + e.Reason }
func (e *Refused) BadInput()     {}

// Meet takes part in the rendezvous as cfg says and returns the instant,
// on this machine's clock, at which to start. It returns ctx's error when
// ctx ends first (Ctrl-C), at once.
func Meet(ctx context.Context, cfg Config) (time.Time, error) {
	if cfg.Say == nil {
		cfg.Say = func(string) {}
	}
	if cfg.Count < 2 {
		return time.Now(), nil // alone: nobody to wait for
	}
	if cfg.Index == 0 {
		return coordinate(ctx, cfg)
	}
	return join(ctx, cfg)
}

// ListenAddr is where client 0 listens for Addr: on HOST when it is an IP
// address, on every interface otherwise (a name such as a Kubernetes
// Service's resolves to client 0's own address from the outside only).
func ListenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if net.ParseIP(host) != nil {
		return addr, nil
	}
	return net.JoinHostPort("", port), nil
}

// event is a change the coordinator's loop handles.
type event struct {
	conn  net.Conn
	hello message // a check-in; the zero message: conn left or was refused
	why   error   // why it left
	// refused is why checkIn turned it away; index its client.index, 0
	// when the HELLO did not give a valid one.
	refused string
	index   int
}

// member is a client that checked in.
type member struct{ conn net.Conn }

// coordinate is client 0's part: listen, take check-ins until every
// client is in, then send each its START.
func coordinate(parent context.Context, cfg Config) (time.Time, error) {
	laddr, err := ListenAddr(cfg.Addr)
	if err != nil {
		return time.Time{}, err
	}
	ln, err := net.Listen("tcp", laddr)
	if err != nil {
		return time.Time{}, fmt.Errorf("client 0: %w", err)
	}
	ctx, cancel := context.WithTimeout(parent, cfg.Timeout)
	defer cancel()
	// Every connection is closed when the rendezvous ends, whichever way.
	context.AfterFunc(ctx, func() { ln.Close() })
	cfg.Say(fmt.Sprintf("Rendezvous: client 0 listening on %s for clients 1 to %d (client.rendezvous.timeout %s)", ln.Addr(), cfg.Count-1, cfg.Timeout))

	co := &coordinator{cfg: cfg, parent: parent, ctx: ctx, events: make(chan event),
		members: map[int]member{}, refused: map[int]string{}}
	go co.accept(ln)
	beat := time.NewTicker(Heartbeat)
	defer beat.Stop()
	for len(co.members) < cfg.Count-1 {
		select {
		case ev := <-co.events:
			if ctx.Err() != nil || !co.handle(ev) {
				return co.over()
			}
		case <-beat.C:
			if ctx.Err() != nil || !co.heartbeat() {
				return co.over()
			}
		case <-ctx.Done():
			return co.over()
		}
	}
	return co.start(), nil
}

// coordinator is client 0's state during the rendezvous: the clients
// checked in, and those refused, by client.index.
type coordinator struct {
	cfg     Config
	parent  context.Context // the caller's: its end is an interruption
	ctx     context.Context // parent with client.rendezvous.timeout
	events  chan event
	members map[int]member
	refused map[int]string // client.index → why it was refused
}

// post hands ev to the coordinator's loop; false once the rendezvous is
// over.
func (co *coordinator) post(ev event) bool {
	select {
	case co.events <- ev:
		return true
	case <-co.ctx.Done():
		return false
	}
}

// accept takes connections until the listener is closed, each checking in
// on a goroutine of its own.
func (co *coordinator) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return // the listener is closed: the rendezvous is over
		}
		context.AfterFunc(co.ctx, func() { c.Close() })
		go checkIn(c, co.cfg, co.post)
	}
}

// over is the end at the timeout or the interruption. Once ctx has ended
// its connections are being closed: the members are taken as they were,
// not as the closing makes them look (clients leaving).
func (co *coordinator) over() (time.Time, error) {
	if co.parent.Err() != nil {
		return time.Time{}, co.parent.Err()
	}
	cfg := co.cfg
	return time.Time{}, fmt.Errorf("client 0: %d of %d clients checked in within client.rendezvous.timeout %s at %s; never came: %s%s",
		len(co.members)+1, cfg.Count, cfg.Timeout, cfg.Addr, missing(co.members, cfg.Count), refusals(co.members, co.refused))
}

// handle takes one event: a refusal, a client leaving or a check-in. It
// returns false when the rendezvous ended while it answered.
func (co *coordinator) handle(ev event) bool {
	cfg, members := co.cfg, co.members
	if ev.refused != "" {
		cfg.Say(fmt.Sprintf("Rendezvous: refused a client from %s: %s", ev.conn.RemoteAddr(), ev.refused))
		if ev.index > 0 {
			co.refused[ev.index] = ev.refused
		}
		return true
	}
	if ev.hello.kind == "" {
		for i, m := range members {
			if m.conn == ev.conn {
				delete(members, i)
				cfg.Say(fmt.Sprintf("Rendezvous: client %d left before the start (%v; %d of %d checked in)", i, ev.why, len(members)+1, cfg.Count))
			}
		}
		return true
	}
	i := ev.hello.index
	if _, dup := members[i]; dup {
		why := fmt.Sprintf("client.index %d has checked in already, from %s", i, members[i].conn.RemoteAddr())
		cfg.Say(fmt.Sprintf("Rendezvous: refused a client from %s: %s", ev.conn.RemoteAddr(), why))
		send(ev.conn, message{kind: kindRefused, reason: why})
		ev.conn.Close()
		return true
	}
	members[i] = member{ev.conn}
	cfg.Say(fmt.Sprintf("Rendezvous: client %d checked in from %s (%d of %d)", i, ev.conn.RemoteAddr(), len(members)+1, cfg.Count))
	if send(ev.conn, message{kind: kindWait, checkedIn: len(members) + 1, count: cfg.Count}) != nil {
		if co.ctx.Err() != nil {
			return false
		}
		delete(members, i)
		ev.conn.Close()
		return true
	}
	// The end of the connection, or anything sent, is a client
	// leaving.
	go func(c net.Conn) {
		c.SetReadDeadline(time.Time{})
		_, err := c.Read(make([]byte, 1))
		if err == nil {
			err = errors.New("it sent more than its HELLO")
		}
		co.post(event{conn: c, why: err})
	}(ev.conn)
	return true
}

// heartbeat tells every member how many are in, and drops those it cannot
// reach. It returns false when the rendezvous ended meanwhile.
func (co *coordinator) heartbeat() bool {
	cfg, members := co.cfg, co.members
	gone := map[int]error{}
	for i, m := range members {
		if err := send(m.conn, message{kind: kindWait, checkedIn: len(members) + 1, count: cfg.Count}); err != nil {
			gone[i] = err
		}
	}
	if co.ctx.Err() != nil {
		return false // the failures may be the closing's
	}
	for i, err := range gone {
		members[i].conn.Close()
		delete(members, i)
		cfg.Say(fmt.Sprintf("Rendezvous: client %d left before the start (%v; %d of %d checked in)", i, err, len(members)+1, cfg.Count))
	}
	return true
}

// start sends every member its START and returns the instant to start at.
// Each START says what is left of Delay since the first was sent.
func (co *coordinator) start() time.Time {
	cfg := co.cfg
	first := time.Now()
	var lost []int
	for i, m := range co.members {
		if err := send(m.conn, message{kind: kindStart, delay: max(0, Delay-time.Since(first)).Truncate(time.Microsecond)}); err != nil {
			lost = append(lost, i)
		}
	}
	if len(lost) > 0 {
		sort.Ints(lost)
		cfg.Say(fmt.Sprintf("Rendezvous: warning: the START did not reach client.index %v, which will not run", lost))
	}
	cfg.Say(fmt.Sprintf("Rendezvous: all %d clients checked in; starting in %s", cfg.Count, Delay))
	return first.Add(Delay)
}

// missing lists the indexes that have not checked in, the first 20.
func missing(members map[int]member, count int) string {
	var idx []string
	n := 0
	for i := 1; i < count; i++ {
		if _, ok := members[i]; !ok {
			n++
			if len(idx) < 20 {
				idx = append(idx, strconv.Itoa(i))
			}
		}
	}
	s := "client.index " + strings.Join(idx, ", ")
	if n > len(idx) {
		s += fmt.Sprintf(" and %d more", n-len(idx))
	}
	return s
}

// refusals says which of the clients that never came were refused, and
// why; "" when none.
func refusals(members map[int]member, refused map[int]string) string {
	var idx []int
	for i := range refused {
		if _, in := members[i]; !in {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return ""
	}
	sort.Ints(idx)
	var parts []string
	for _, i := range idx[:min(len(idx), 5)] {
		parts = append(parts, fmt.Sprintf("client.index %d (%s)", i, refused[i]))
	}
	s := "; refused: " + strings.Join(parts, "; ")
	if len(idx) > 5 {
		s += fmt.Sprintf(" and %d more", len(idx)-5)
	}
	return s
}

// checkIn reads a new connection's HELLO and posts it, or refuses it and
// posts why.
func checkIn(c net.Conn, cfg Config, post func(event) bool) {
	c.SetReadDeadline(time.Now().Add(ioTimeout))
	m, err := newLineReader(c).read()
	refuse := func(format string, args ...any) {
		why := fmt.Sprintf(format, args...)
		ev := event{conn: c, refused: why}
		if m.kind == kindHello && m.index >= 1 && m.index < cfg.Count {
			ev.index = m.index
		}
		// Posted before the client hears it: a client that tries again
		// at once is refused again after this, and its latest reason is
		// the one client 0 names.
		post(ev)
		send(c, message{kind: kindRefused, reason: why})
		c.Close()
	}
	switch {
	case err != nil:
		c.Close() // not a client of this program, or one that died
	case m.kind != kindHello:
		refuse("expected HELLO, got %s", m.kind)
	case m.version != Version:
		refuse("protocol version %d, this client 0 speaks %d: run the same ycsb version everywhere", m.version, Version)
	case m.count != cfg.Count:
		refuse("client.count=%d, but client 0 has client.count=%d: a client of another run", m.count, cfg.Count)
	case m.index < 1 || m.index >= cfg.Count:
		refuse("client.index %d is not one of 1 to %d", m.index, cfg.Count-1)
	case m.fingerprint != cfg.Fingerprint:
		refuse("the experiment's fingerprint is %s, client 0's is %s: give every client the same properties, but for client.index and its outputs", m.fingerprint, cfg.Fingerprint)
	default:
		if !post(event{conn: c, hello: m}) {
			c.Close()
		}
	}
}

// join is the part of a client other than 0: connect, retrying until the
// timeout, check in, and wait for the START.
func join(parent context.Context, cfg Config) (time.Time, error) {
	ctx, cancel := context.WithTimeout(parent, cfg.Timeout)
	defer cancel()
	cfg.Say(fmt.Sprintf("Rendezvous: client %d checking in with client 0 at %s (client.rendezvous.timeout %s)", cfg.Index, cfg.Addr, cfg.Timeout))
	wait := minRetry
	var lastErr error
	for {
		d := net.Dialer{Timeout: ioTimeout}
		c, err := d.DialContext(ctx, "tcp", cfg.Addr)
		if err == nil {
			var at time.Time
			if at, err = session(ctx, parent, c, cfg); !errors.Is(err, errSilent) {
				return at, err
			}
		}
		lastErr = err
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			if parent.Err() != nil {
				return time.Time{}, parent.Err()
			}
			return time.Time{}, fmt.Errorf("client %d: no client 0 at %s within client.rendezvous.timeout %s (last: %v)", cfg.Index, cfg.Addr, cfg.Timeout, lastErr)
		}
		wait = min(2*wait, maxRetry)
	}
}

// errSilent is a connection closed before a word from the other side: not
// client 0 of this run (a process that held the port a moment, or client
// 0 starting over), so the client connects again.
var errSilent = errors.New("closed without a word")

// session checks in over c and waits for the START.
func session(ctx, parent context.Context, c net.Conn, cfg Config) (time.Time, error) {
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	fail := func(err error) (time.Time, error) {
		switch {
		case parent.Err() != nil:
			return time.Time{}, parent.Err()
		case ctx.Err() != nil:
			return time.Time{}, fmt.Errorf("client %d: no START from client 0 at %s within client.rendezvous.timeout %s", cfg.Index, cfg.Addr, cfg.Timeout)
		}
		var r *Refused
		if errors.As(err, &r) {
			return time.Time{}, fmt.Errorf("client %d: %w", cfg.Index, err)
		}
		return time.Time{}, fmt.Errorf("client %d: client 0 at %s went away before the start: %w", cfg.Index, cfg.Addr, err)
	}
	if err := send(c, message{kind: kindHello, version: Version, index: cfg.Index, count: cfg.Count, fingerprint: cfg.Fingerprint}); err != nil {
		return fail(err)
	}
	lr := newLineReader(c)
	said, heard := false, false
	for {
		c.SetReadDeadline(time.Now().Add(silence))
		m, err := lr.read()
		if err != nil {
			var ne net.Error
			switch {
			case errors.As(err, &ne) && ne.Timeout():
				err = fmt.Errorf("silent for %s", silence)
			case !heard && ctx.Err() == nil && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)):
				return time.Time{}, fmt.Errorf("%w: %v", errSilent, err)
			}
			return fail(err)
		}
		heard = true
		switch m.kind {
		case kindStart:
			at := time.Now().Add(m.delay)
			cfg.Say(fmt.Sprintf("Rendezvous: client 0 says start in %s", m.delay))
			return at, nil
		case kindRefused:
			return fail(&Refused{Reason: m.reason})
		case kindWait:
			if !said {
				said = true
				cfg.Say(fmt.Sprintf("Rendezvous: checked in, %d of %d clients so far", m.checkedIn, m.count))
			}
		default:
			return fail(fmt.Errorf("unexpected %s", m.kind))
		}
	}
}
