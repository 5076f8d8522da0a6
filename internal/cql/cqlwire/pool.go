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
// (internal/cql/cqlcluster builds both from one place).
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
	closed atomic.Bool
	now    atomic.Int64 // coarse clock, ns, kept by the sweeper
	stop   chan struct{}
	rings  rings
}

// NewPool returns a pool with o; nothing is dialled yet. Close stops it.
func NewPool(o Options) *Pool {
	o.Conns = max(o.Conns, 1)
	p := &Pool{o: o, hosts: map[string]*Host{}, stop: make(chan struct{})}
	p.now.Store(time.Now().UnixNano())
	go p.sweeper()
	return p
}

// sweeper keeps the coarse clock and sweeps every connection. It takes
// no host's lock: a host's dial holds its lock for a while.
func (p *Pool) sweeper() {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	var hosts []*Host
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			ns := now.UnixNano()
			p.now.Store(ns)
			hosts = hosts[:0]
			p.mu.Lock()
			for _, h := range p.hosts {
				hosts = append(hosts, h)
			}
			p.mu.Unlock()
			for _, h := range hosts {
				for i := range h.conns {
					if c := h.conns[i].Load(); c != nil {
						c.sweep(ns)
					}
				}
			}
		}
	}
}

// Host is the connections to one node.
type Host struct {
	p     *Pool
	addr  string
	name  string // for TLS
	conns []atomic.Pointer[conn]
	mu    sync.Mutex // held while dialling
	retry time.Time  // no dial before it, after a failed one
	last  error      // that failure
	// downUntil is retry on the pool's coarse clock (ns), read without
	// the lock: routers pass over a host that is down while a replica
	// that is not can take the request.
	downUntil atomic.Int64
}

// Down says whether, within the pool's Retry, h's last dial failed (its
// requests fail at once until then) or a speculative request to another
// node answered before h did.
func (h *Host) Down() bool { return h.p.now.Load() < h.downUntil.Load() }

func (h *Host) markDown() { h.downUntil.Store(h.p.now.Load() + int64(h.p.o.Retry)) }

// Addr is h's address, ip:port.
func (h *Host) Addr() string { return h.addr }

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
		h = &Host{p: p, addr: addr, name: host, conns: make([]atomic.Pointer[conn], p.o.Conns)}
		p.hosts[addr] = h
	}
	return h
}

// Close closes every connection; requests in flight fail.
func (p *Pool) Close() {
	if p.closed.Swap(true) {
		return
	}
	close(p.stop)
	p.mu.Lock()
	hosts := p.hosts
	p.hosts = map[string]*Host{}
	p.mu.Unlock()
	for _, h := range hosts {
		h.mu.Lock()
		for i := range h.conns {
			if c := h.conns[i].Load(); c != nil {
				c.close()
			}
		}
		h.mu.Unlock()
	}
}

// conn picks the connection of h that call's requests go to in turn,
// dialling it when it is missing or broken (unless a dial failed within
// the pool's Retry). It takes no lock unless it dials.
func (h *Host) conn(ctx context.Context, call *Call) (*conn, error) {
	if len(h.conns) > 1 {
		// A connection with a write in progress or due takes the request:
		// it goes out in the same system call, and its response likely in
		// the same read as theirs (with one processor the goroutines a
		// read woke all join the first one's write). The next write
		// starts on the call's turn, so the connections are all used over
		// time; a crowded connection (few free streams) is not joined.
		for i := range h.conns {
			if c := h.conns[i].Load(); c != nil && !c.dead.Load() && !c.crowded.Load() && c.wr.Busy() {
				return c, nil
			}
		}
	}
	call.turn++
	i := int(call.turn % uint32(len(h.conns)))
	if c := h.conns[i].Load(); c != nil && !c.dead.Load() {
		return c, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if c := h.conns[i].Load(); c != nil && !c.dead.Load() {
		return c, nil
	}
	if time.Now().Before(h.retry) {
		return nil, h.last
	}
	if h.p.closed.Load() {
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
		h.markDown()
		return nil, h.last
	}
	if h.p.closed.Load() {
		c.close()
		return nil, gocql.ErrConnectionClosed
	}
	h.conns[i].Store(c)
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
	// PageSize is the rows of a page, as the driver's page size (0: the
	// whole result in one response).
	PageSize int32
	// Unprepared sends the statement as a QUERY, its text with the bound
	// values, which the node parses at each request (cassandra-stress's
	// -mode unprepared): it is never prepared, its routing key is unknown
	// (RoutingKey is nil) and each response carries its rows' metadata.
	Unprepared bool
	// pk are the bound values that make the partition key, in its order,
	// known from the first preparation (nil before it)
	pk []int
}

type prepared struct {
	id   []byte
	cols []string // the result's column names
	pk   []int    // the partition key's bound values
}

// RoutingKey is the partition key of a request with values, encoded as
// the driver routes by it (one column's value, or the composite of
// several, built in *buf); nil until the statement was prepared once,
// or when a key value is null.
func (st *Stmt) RoutingKey(buf *[]byte, values [][]byte) []byte {
	switch {
	case len(st.pk) == 0:
		return nil
	case len(st.pk) == 1:
		if st.pk[0] >= len(values) {
			return nil
		}
		return values[st.pk[0]]
	}
	dst := (*buf)[:0]
	for _, i := range st.pk {
		if i >= len(values) || values[i] == nil || len(values[i]) > 65535 {
			return nil
		}
		dst = appendShort(dst, uint16(len(values[i])))
		dst = append(dst, values[i]...)
		dst = append(dst, 0)
	}
	*buf = dst
	return dst
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
	return h.ExecPage(ctx, call, st, cl, values, nil)
}

// ExecPage is Exec for the page after paging (a copy of the PagingState of
// the previous page's response; nil for the first page).
func (h *Host) ExecPage(ctx context.Context, call *Call, st *Stmt, cl gocql.Consistency, values [][]byte, paging []byte) error {
	call.paging = call.paging[:0]
	call.more = false
	c, err := h.conn(ctx, call)
	if err != nil {
		return err
	}
	if st.Unprepared {
		return c.query(ctx, call, st.CQL, cl, st.Serial, values, st.PageSize, paging)
	}
	p := st.on(h)
	for attempt := 0; ; attempt++ {
		if p == nil {
			if p, err = c.prepare(ctx, call, st.CQL); err != nil {
				return err
			}
			st.set(h, p)
			if st.pk == nil {
				st.pk = p.pk
			}
		}
		if err = c.execute(ctx, call, p.id, len(p.cols) > 0, cl, st.Serial, values, st.PageSize, paging); err == nil {
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
		// A preparation changes no data: the statement was not executed,
		// whatever became of the request.
		var fe *InFlightError
		if errors.As(err, &fe) {
			err = fe.Err
		}
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
	k := r.int()
	if k < 0 || k > 65535 {
		return nil, fmt.Errorf("prepare %q: %d partition key columns of %d", cql, k, n)
	}
	p.pk = make([]int, 0, k)
	for ; k > 0 && r.err == nil; k-- {
		p.pk = append(p.pk, int(r.short()))
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
// count, giving each name to name when it is set; it returns the paging
// state when there are more pages.
func skipColumns(r *reader, flags int32, n int, name func([]byte)) (paging []byte, more bool) {
	if flags&0x0002 != 0 { // has more pages
		paging, more = r.bytes(), true
	}
	if flags&0x0004 != 0 { // no metadata
		return paging, more
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
	return paging, more
}

// With skipMeta (the preparation gave the result's columns) the node
// sends rows without their metadata, as the drivers ask (Rows names the
// columns from the preparation).
func (c *conn) execute(ctx context.Context, call *Call, id []byte, skipMeta bool, cl, serial gocql.Consistency, values [][]byte, pageSize int32, paging []byte) error {
	fr := appendHeader(call.frame[:0], 0, opExecute)
	fr = appendShort(fr, uint16(len(id)))
	fr = append(fr, id...)
	return c.run(ctx, call, fr, skipMeta, cl, serial, values, pageSize, paging)
}

// query runs cql unprepared: a QUERY with the same parameters as an
// EXECUTE's.
func (c *conn) query(ctx context.Context, call *Call, cql string, cl, serial gocql.Consistency, values [][]byte, pageSize int32, paging []byte) error {
	fr := appendHeader(call.frame[:0], 0, opQuery)
	fr = appendLongString(fr, cql)
	return c.run(ctx, call, fr, false, cl, serial, values, pageSize, paging)
}

// run appends the query parameters to fr, a request's header and the
// start of its body (the prepared id or the query's text), and sends it.
func (c *conn) run(ctx context.Context, call *Call, fr []byte, skipMeta bool, cl, serial gocql.Consistency, values [][]byte, pageSize int32, paging []byte) error {
	start := headerSize
	fr = appendShort(fr, uint16(cl))
	if len(values) > 65535 {
		return fmt.Errorf("cqlwire: %d bound values, above the protocol's 65535", len(values))
	}
	var flags byte
	if len(values) > 0 {
		flags |= 0x01
	}
	if skipMeta {
		flags |= 0x02
	}
	if pageSize > 0 {
		flags |= 0x04
	}
	if paging != nil {
		flags |= 0x08
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
	if pageSize > 0 {
		fr = appendInt(fr, pageSize)
	}
	if paging != nil {
		fr = appendInt(fr, int32(len(paging)))
		fr = append(fr, paging...)
	}
	if serial != 0 {
		fr = appendShort(fr, uint16(serial))
	}
	var body []byte // nil: the body is in fr already
	if c.comp != nil {
		// Compress what was appended: the body moves to a scratch slice.
		call.body = append(call.body[:0], fr[start:]...)
		body, fr = call.body, fr[:start]
	}
	fr, err := c.finish(fr, body, body != nil)
	if err != nil {
		return err
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
	var paging []byte
	var more bool
	if cols == nil {
		cols = make([]string, 0, n)
		paging, more = skipColumns(&r, flags, n, func(b []byte) { cols = append(cols, string(b)) })
	} else {
		paging, more = skipColumns(&r, flags, n, nil)
	}
	if more && r.err == nil {
		call.paging = append(call.paging[:0], paging...)
		call.more = true
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

// PagingState is the state to ask for the next page with (ExecPage), after
// Rows of a page that has more; nil after the last page. It is call's until
// its next request.
func (call *Call) PagingState() []byte {
	if !call.more {
		return nil
	}
	return call.paging
}
