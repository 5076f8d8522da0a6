package cqlwire

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// Options are a pool's connections' settings; they mirror the driver's
// (internal/cqlcluster builds both from one place).
type Options struct {
	Keyspace       string
	ConnectTimeout time.Duration
	// Timeout bounds each request, from its sending to its response.
	Timeout time.Duration
	// Conns is the connections per host (at least one).
	Conns int
	// Retry is how long a host whose connection failed is left before it
	// is dialled again; the requests meanwhile fail at once.
	Retry      time.Duration
	TLS        *tls.Config
	VerifyHost bool
	Auth       gocql.Authenticator
	Compressor gocql.Compressor
}

// Pool holds the connections to each host, dialled on first use.
type Pool struct {
	o      Options
	mu     sync.Mutex
	hosts  map[string]*Host
	closed bool
	now    atomic.Int64 // coarse clock, ns, kept by the sweeper
	stop   chan struct{}
}

// NewPool returns a pool with o; nothing is dialled yet. Close stops it.
func NewPool(o Options) *Pool {
	o.Conns = max(o.Conns, 1)
	p := &Pool{o: o, hosts: map[string]*Host{}, stop: make(chan struct{})}
	p.now.Store(time.Now().UnixNano())
	go p.sweeper()
	return p
}

// sweeper keeps the coarse clock and sweeps every connection.
func (p *Pool) sweeper() {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	var conns []*conn
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			ns := now.UnixNano()
			p.now.Store(ns)
			conns = conns[:0]
			p.mu.Lock()
			for _, h := range p.hosts {
				h.mu.Lock()
				for _, c := range h.conns {
					if c != nil {
						conns = append(conns, c)
					}
				}
				h.mu.Unlock()
			}
			p.mu.Unlock()
			for _, c := range conns {
				c.sweep(ns)
			}
		}
	}
}

// Host is the connections to one node.
type Host struct {
	p     *Pool
	addr  string
	name  string // for TLS
	next  atomic.Uint32
	mu    sync.Mutex
	conns []*conn
	retry time.Time // no dial before it, after a failed one
	last  error     // that failure
}

// Host returns the host dialled at addr (ip:port), whose TLS server name
// is name's host part (the driver's HostInfo gives both:
// ConnectAddressAndPort, HostnameAndPort).
func (p *Pool) Host(addr, name string) *Host {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.hosts[addr]
	if h == nil {
		host, _, err := net.SplitHostPort(name)
		if err != nil {
			host = name
		}
		h = &Host{p: p, addr: addr, name: host, conns: make([]*conn, p.o.Conns)}
		p.hosts[addr] = h
	}
	return h
}

// Close closes every connection; requests in flight fail.
func (p *Pool) Close() {
	p.mu.Lock()
	if !p.closed {
		close(p.stop)
	}
	p.closed = true
	hosts := p.hosts
	p.hosts = map[string]*Host{}
	p.mu.Unlock()
	for _, h := range hosts {
		h.mu.Lock()
		for _, c := range h.conns {
			if c != nil {
				c.close()
			}
		}
		h.mu.Unlock()
	}
}

// conn picks a connection of h, dialling it when it is missing or broken
// (unless a dial failed within the pool's Retry).
func (h *Host) conn(ctx context.Context) (*conn, error) {
	i := int(h.next.Add(1)) % len(h.conns)
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.conns[i]
	if c != nil && !c.broken() {
		return c, nil
	}
	if c != nil {
		// Another connection of the host may still be good.
		for _, o := range h.conns {
			if o != nil && !o.broken() {
				return o, nil
			}
		}
	}
	if time.Now().Before(h.retry) {
		return nil, h.last
	}
	h.p.mu.Lock()
	closed := h.p.closed
	h.p.mu.Unlock()
	if closed {
		return nil, gocql.ErrConnectionClosed
	}
	c, err := dial(ctx, h.addr, h.name, &h.p.o, &h.p.now)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// The driver's sentinel: no node could take the request.
		h.last = fmt.Errorf("%w: %s: %v", gocql.ErrNoConnections, h.addr, err)
		h.retry = time.Now().Add(h.p.o.Retry)
		return nil, h.last
	}
	h.conns[i] = c
	return c, nil
}

// Stmt is a statement prepared on each host it runs on; one goroutine's.
type Stmt struct {
	CQL string
	// Serial is the serial consistency of a conditional statement; zero
	// sends none (the server's default, SERIAL).
	Serial gocql.Consistency
	last   *Host
	prep   *prepared
	byH    map[*Host]*prepared
}

type prepared struct {
	id   []byte
	cols []string // the result's column names
}

func (st *Stmt) on(h *Host) *prepared {
	if st.last == h {
		return st.prep
	}
	return st.byH[h]
}

func (st *Stmt) set(h *Host, p *prepared) {
	if st.byH == nil {
		st.byH = map[*Host]*prepared{}
	}
	if p == nil {
		delete(st.byH, h)
	} else {
		st.byH[h] = p
	}
	st.last, st.prep = h, p
}

// Exec executes st on h with values (nil is null) at consistency cl,
// preparing it there first when needed (again when the node forgot it).
// The response stays in call for Rows until call's next use.
func (h *Host) Exec(ctx context.Context, call *Call, st *Stmt, cl gocql.Consistency, values [][]byte) error {
	c, err := h.conn(ctx)
	if err != nil {
		return err
	}
	p := st.on(h)
	for attempt := 0; ; attempt++ {
		if p == nil {
			if p, err = c.prepare(ctx, call, st.CQL); err != nil {
				return err
			}
			st.set(h, p)
		}
		if err = c.execute(ctx, call, p.id, cl, st.Serial, values); err == nil {
			st.last, st.prep = h, p
			return nil
		}
		var se *ServerError
		if attempt > 0 || !errors.As(err, &se) || se.code != errUnprepared {
			return err
		}
		st.set(h, nil) // the node restarted: prepare again, once
		p = nil
	}
}

func (c *conn) prepare(ctx context.Context, call *Call, cql string) (*prepared, error) {
	fr := appendHeader(call.frame[:0], 0, opPrepare)
	body := appendLongString(call.body[:0], cql)
	fr, err := c.finish(fr, body, true)
	if err != nil {
		return nil, err
	}
	call.frame = fr
	if err := c.do(ctx, call); err != nil {
		return nil, fmt.Errorf("prepare %q: %w", cql, err)
	}
	r := reader{b: call.body}
	if kind := r.int(); kind != resultPrepared {
		return nil, fmt.Errorf("prepare %q: result kind %d", cql, kind)
	}
	p := &prepared{id: append([]byte(nil), r.shortBytes()...)}
	// The bound variables' metadata (v4: with the partition key's
	// indexes), then the result's.
	flags := r.int()
	n := r.int()
	for k := r.int(); k > 0 && r.err == nil; k-- {
		r.short()
	}
	skipColumns(&r, flags, int(n), nil)
	flags = r.int()
	n = r.int()
	if n < 0 || n > 65535 {
		return nil, fmt.Errorf("prepare %q: %d result columns", cql, n)
	}
	skipColumns(&r, flags, int(n), func(name []byte) { p.cols = append(p.cols, string(name)) })
	if r.err != nil {
		return nil, fmt.Errorf("prepare %q: %w", cql, r.err)
	}
	return p, nil
}

// skipColumns reads n column specifications after a metadata's flags and
// count, giving each name to name when it is set.
func skipColumns(r *reader, flags int32, n int, name func([]byte)) {
	if flags&0x0002 != 0 { // has more pages
		r.bytes()
	}
	if flags&0x0004 != 0 { // no metadata
		return
	}
	global := flags&0x0001 != 0
	if global {
		r.string()
		r.string()
	}
	for i := 0; i < n && r.err == nil; i++ {
		if !global {
			r.string()
			r.string()
		}
		col := r.string()
		if name != nil {
			name(col)
		}
		r.option(0)
	}
}

func (c *conn) execute(ctx context.Context, call *Call, id []byte, cl, serial gocql.Consistency, values [][]byte) error {
	fr := appendHeader(call.frame[:0], 0, opExecute)
	start := len(fr)
	fr = appendShort(fr, uint16(len(id)))
	fr = append(fr, id...)
	fr = appendShort(fr, uint16(cl))
	if len(values) > 65535 {
		return fmt.Errorf("cqlwire: %d bound values, above the protocol's 65535", len(values))
	}
	var flags byte
	if len(values) > 0 {
		flags |= 0x01
	}
	if serial != 0 {
		flags |= 0x10
	}
	fr = append(fr, flags)
	if len(values) > 0 {
		fr = appendShort(fr, uint16(len(values)))
		for _, v := range values {
			if v == nil {
				fr = appendInt(fr, -1)
				continue
			}
			fr = appendInt(fr, int32(len(v)))
			fr = append(fr, v...)
		}
	}
	if serial != 0 {
		fr = appendShort(fr, uint16(serial))
	}
	if c.comp != nil {
		// Compress what was appended: the body moves to a scratch slice.
		body := append(call.body[:0], fr[start:]...)
		call.body = body
		var err error
		if fr, err = c.finish(fr[:start], body, true); err != nil {
			return err
		}
	} else if fr, err := c.finish(fr, nil, false); err != nil {
		return err
	} else {
		call.frame = fr
		return c.do(ctx, call)
	}
	call.frame = fr
	return c.do(ctx, call)
}

// Rows reads the rows of the last response in call: each row's values by
// column (nil for null), with the column names of st's preparation on
// that host. It stops early when row returns false.
func (call *Call) Rows(st *Stmt, row func(cols []string, vals [][]byte) bool, scratch [][]byte) ([][]byte, error) {
	r := reader{b: call.body}
	switch kind := r.int(); kind {
	case resultRows:
	case resultVoid:
		return scratch, nil
	default:
		return scratch, fmt.Errorf("cqlwire: result kind %d, not rows", kind)
	}
	flags := r.int()
	n := int(r.int())
	if n < 0 || n > 65535 {
		return scratch, fmt.Errorf("cqlwire: %d columns", n)
	}
	var cols []string
	if st.prep != nil && len(st.prep.cols) == n {
		cols = st.prep.cols
	}
	if cols == nil {
		cols = make([]string, 0, n)
		skipColumns(&r, flags, n, func(b []byte) { cols = append(cols, string(b)) })
	} else {
		skipColumns(&r, flags, n, nil)
	}
	rows := r.int()
	// The count is the server's: rows of no columns read nothing, so a
	// large count would have the loop below spin on an empty body.
	if r.err == nil && (rows < 0 || (n == 0 && rows > 0)) {
		return scratch, fmt.Errorf("cqlwire: malformed rows: %d rows of %d columns", rows, n)
	}
	vals := scratch[:0]
	for i := int32(0); i < rows && r.err == nil; i++ {
		vals = vals[:0]
		for j := 0; j < n; j++ {
			vals = append(vals, r.bytes())
		}
		if r.err != nil {
			break
		}
		if len(cols) != n {
			return vals, errors.New("cqlwire: rows without column names")
		}
		if !row(cols, vals) {
			break
		}
	}
	if r.err != nil {
		return vals, fmt.Errorf("cqlwire: malformed rows: %w", r.err)
	}
	return vals, nil
}
