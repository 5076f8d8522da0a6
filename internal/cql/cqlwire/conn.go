package cqlwire

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/cql/coalesce"
)

// Call is one goroutine's request in flight: reused from one request to
// the next, so that a request allocates nothing. A Call is not to be used
// by two goroutines at once.
type Call struct {
	done  chan error // capacity 1: the outcome, sent once per request
	frame []byte     // the request frame
	body  []byte     // the response message, after the request
	// set under the connection's lock while the request is in flight
	deadline int64 // coarse clock, ns
	ctx      context.Context
	turn     uint32 // which connection of a host is next
	// the last page's paging state, when more is set
	paging []byte
	more   bool
}

// NewCall returns a Call.
func NewCall() *Call { return &Call{done: make(chan error, 1)} }

// abandoned stands in the calls table for a request given up (timed out,
// cancelled) whose response has not come: its stream is not reused until
// the response comes.
var abandoned = &Call{}

// sweepEvery is how often a pool looks for requests past their deadline
// or whose context ended: it bounds how late a timeout fires. One
// goroutine sweeps all the pool's connections.
const sweepEvery = 10 * time.Millisecond

// crowdedBelow is the free streams under which a connection is crowded.
const crowdedBelow = maxStreams / 8

// conn is one connection: requests from any goroutine, a reader goroutine
// that hands responses over, a coalescing writer.
type conn struct {
	addr    string
	nc      net.Conn
	w       io.Writer // nc, or its raw socket (raw.go)
	br      *bufio.Reader
	comp    gocql.Compressor
	timeout int64 // ns

	mu    sync.Mutex
	calls []*Call // by stream
	free  []int16 // streams not in use
	high  int     // streams ever used: calls[high:] are all nil
	err   error   // set once the connection is broken
	dead  atomic.Bool
	// crowded says few streams are free: requests do not join the
	// connection's write (Host.conn) then, so that one connection is not
	// left without streams while the host's others have them
	crowded atomic.Bool

	// frames queued behind a write go out together when it ends
	wr *coalesce.Writer

	now *atomic.Int64 // the pool's coarse clock, ns
}

// dial connects to addr and makes the connection ready for requests:
// TLS, STARTUP with the compressor's name, authentication, USE keyspace.
func dial(ctx context.Context, addr, name string, o *Options, now *atomic.Int64) (*conn, error) {
	d := net.Dialer{Timeout: o.ConnectTimeout}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if o.TLS != nil {
		tc := tlsFor(o.TLS, o.VerifyHost, name)
		tlsConn := tls.Client(nc, tc)
		hctx, cancel := context.WithTimeout(ctx, o.ConnectTimeout)
		err := tlsConn.HandshakeContext(hctx)
		cancel()
		if err != nil {
			nc.Close()
			return nil, err
		}
		nc = tlsConn
	}
	c := &conn{
		addr:    addr,
		nc:      nc,
		w:       nc,
		br:      bufio.NewReaderSize(nc, 64<<10),
		comp:    o.Compressor,
		timeout: int64(o.Timeout),
		calls:   make([]*Call, maxStreams),
		free:    make([]int16, 0, maxStreams),
	}
	for s := maxStreams - 1; s >= 0; s-- {
		c.free = append(c.free, int16(s))
	}
	c.now = now
	// The handshake is bounded by the connect timeout and by ctx (Ctrl-C
	// while a node accepts connections but does not answer).
	nc.SetDeadline(time.Now().Add(o.ConnectTimeout))
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	err = c.startup(o)
	if !stop() || err != nil {
		nc.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	nc.SetDeadline(time.Time{})
	if raw := newRawConn(nc); raw != nil && c.br.Buffered() == 0 {
		c.w = raw
		c.br = bufio.NewReaderSize(raw, 64<<10)
	}
	c.wr = coalesce.New(c.w, c.fail)
	go c.readLoop()
	return c, nil
}

// tlsFor is the driver's reading of a TLS configuration and its host
// verification flag (gocql's setupTLSConfig): verification is on when
// asked for, and then the server's name is the host's unless set.
func tlsFor(base *tls.Config, verify bool, host string) *tls.Config {
	tc := base.Clone()
	if verify {
		tc.InsecureSkipVerify = false
	}
	if !tc.InsecureSkipVerify && tc.ServerName == "" {
		tc.ServerName = host
	}
	return tc
}

// roundTrip sends one set-up frame and reads its answer, before the
// reader runs.
func (c *conn) roundTrip(op byte, body []byte, compress bool) (byte, []byte, error) {
	fr := appendHeader(nil, 0, op)
	fr, err := c.finish(fr, body, compress)
	if err != nil {
		return 0, nil, err
	}
	if _, err := c.nc.Write(fr); err != nil {
		return 0, nil, err
	}
	var h [headerSize]byte
	if _, err := io.ReadFull(c.br, h[:]); err != nil {
		return 0, nil, err
	}
	n := int(binary.BigEndian.Uint32(h[5:]))
	if h[0] != 0x80|version {
		return 0, nil, fmt.Errorf("cqlwire: %s answers protocol version %d, not %d", c.addr, h[0]&0x7f, version)
	}
	if n > maxFrame {
		return 0, nil, fmt.Errorf("cqlwire: %s: response of %d bytes", c.addr, n)
	}
	rb := make([]byte, n)
	if _, err := io.ReadFull(c.br, rb); err != nil {
		return 0, nil, err
	}
	rb, err = c.message(h[1], rb, nil)
	if err != nil {
		return 0, nil, err
	}
	if h[4] == opError {
		return 0, nil, parseError(rb)
	}
	return h[4], rb, nil
}

func (c *conn) startup(o *Options) error {
	opts := [][2]string{{"CQL_VERSION", "3.0.0"}}
	if c.comp != nil {
		opts = append(opts, [2]string{"COMPRESSION", c.comp.Name()})
	}
	body := appendShort(nil, uint16(len(opts)))
	for _, kv := range opts {
		body = appendString(body, kv[0])
		body = appendString(body, kv[1])
	}
	op, rb, err := c.roundTrip(opStartup, body, false)
	if err != nil {
		return fmt.Errorf("startup: %w", err)
	}
	compress := c.comp != nil
	if op == opAuthenticate {
		r := reader{b: rb}
		class := r.string()
		if o.Auth == nil {
			return fmt.Errorf("%s asks for authentication (%s) and none is configured", c.addr, class)
		}
		resp, next, err := o.Auth.Challenge(class)
		if err != nil {
			return err
		}
		for {
			// AUTH_RESPONSE's body is [bytes]: its length, then the token.
			op, rb, err = c.roundTrip(opAuthResponse, append(appendInt(nil, int32(len(resp))), resp...), compress)
			if err != nil {
				return fmt.Errorf("authentication: %w", err)
			}
			r := reader{b: rb}
			token := r.bytes()
			if op == opAuthSuccess {
				if next != nil {
					return next.Success(token)
				}
				return nil
			}
			if op != opAuthChallenge || next == nil {
				return fmt.Errorf("authentication: unexpected response 0x%02x", op)
			}
			if resp, next, err = next.Challenge(token); err != nil {
				return err
			}
		}
	}
	if op != opReady {
		return fmt.Errorf("startup: unexpected response 0x%02x", op)
	}
	if o.Keyspace != "" {
		q := appendLongString(nil, `USE "`+o.Keyspace+`"`)
		q = appendShort(q, uint16(gocql.One))
		q = append(q, 0)
		op, _, err := c.roundTrip(opQuery, q, compress)
		if err != nil {
			return fmt.Errorf("USE %s: %w", o.Keyspace, err)
		}
		if op != opResult {
			return fmt.Errorf("USE %s: unexpected response 0x%02x", o.Keyspace, op)
		}
	}
	return nil
}

// finish appends body to the header in fr, compressed when asked, and
// sets the length.
func (c *conn) finish(fr, body []byte, compress bool) ([]byte, error) {
	if compress && c.comp != nil {
		fr[1] |= flagCompress
		var err error
		if fr, err = c.comp.AppendCompressedWithLength(fr, body); err != nil {
			return nil, err
		}
	} else {
		fr = append(fr, body...)
	}
	n := len(fr) - headerSize
	if n > maxFrame {
		return nil, fmt.Errorf("cqlwire: request of %d bytes, above the protocol's %d", n, maxFrame)
	}
	binary.BigEndian.PutUint32(fr[5:], uint32(n))
	return fr, nil
}

// message is a response body without compression and the flags'
// prefixes; dst is reused for a decompressed body.
func (c *conn) message(flags byte, body, dst []byte) ([]byte, error) {
	if flags&flagCompress != 0 {
		if c.comp == nil {
			return nil, errors.New("cqlwire: compressed response without a compressor")
		}
		var err error
		if body, err = c.comp.AppendDecompressedWithLength(dst[:0], body); err != nil {
			return nil, err
		}
	}
	return skipPrefix(flags, body)
}

// do sends call's frame (its stream byte set here) and waits for the
// response, which it leaves in call.body. The frame's header is already
// in call.frame, with its body and length.
func (c *conn) do(ctx context.Context, call *Call) error {
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	if len(c.free) == 0 {
		c.mu.Unlock()
		return gocql.ErrNoStreams
	}
	s := c.free[len(c.free)-1]
	c.free = c.free[:len(c.free)-1]
	if len(c.free) == crowdedBelow {
		c.crowded.Store(true)
	}
	if int(s) >= c.high {
		c.high = int(s) + 1
	}
	call.deadline = c.now.Load() + c.timeout + int64(sweepEvery)
	call.ctx = ctx
	c.calls[s] = call
	c.mu.Unlock()
	call.frame[2], call.frame[3] = byte(uint16(s)>>8), byte(s)
	c.send(call.frame)
	err := <-call.done
	if err == nil {
		return nil
	}
	if _, answered := err.(*ServerError); answered {
		return err
	}
	return &InFlightError{Err: err}
}

// send writes fr, or queues it behind the write in progress
// (internal/cql/coalesce); a failed write fails the connection.
func (c *conn) send(fr []byte) {
	c.wr.Write(fr)
}

// readLoop reads responses and hands each to its call.
func (c *conn) readLoop() {
	if raw, ok := c.w.(*rawConn); ok {
		var fr frames
		c.fail(raw.readLoop(func(b []byte) (int, int, error) { return fr.take(c, b) }))
		return
	}
	var h [headerSize]byte
	var raw, plain []byte
	for {
		if _, err := io.ReadFull(c.br, h[:]); err != nil {
			c.fail(err)
			return
		}
		n := int(binary.BigEndian.Uint32(h[5:]))
		if n > maxFrame {
			c.fail(fmt.Errorf("cqlwire: %s: response of %d bytes", c.addr, n))
			return
		}
		if cap(raw) < n {
			raw = make([]byte, n)
		}
		raw = raw[:n]
		if _, err := io.ReadFull(c.br, raw); err != nil {
			c.fail(err)
			return
		}
		c.hand(h[:], raw, &plain)
	}
}

// frames cuts a raw socket's reads into responses.
type frames struct{ plain []byte }

// take hands over the whole frames at the start of b and says how many
// bytes they took and, when a frame is cut short, how long that frame is
// in all (its header alone while the header is cut short).
func (fr *frames) take(c *conn, b []byte) (used, need int, err error) {
	for {
		rest := b[used:]
		if len(rest) < headerSize {
			if len(rest) > 0 {
				need = headerSize
			}
			return used, need, nil
		}
		n := int(binary.BigEndian.Uint32(rest[5:]))
		if n > maxFrame {
			return used, 0, fmt.Errorf("cqlwire: %s: response of %d bytes", c.addr, n)
		}
		if len(rest) < headerSize+n {
			return used, headerSize + n, nil
		}
		c.hand(rest[:headerSize], rest[headerSize:headerSize+n], &fr.plain)
		used += headerSize + n
	}
}

// hand gives the response of header h and body raw to the call waiting
// for it; *plain is reused for decompressed bodies.
func (c *conn) hand(h, raw []byte, plain *[]byte) {
	s := int16(binary.BigEndian.Uint16(h[2:]))
	if s < 0 {
		return // an event: not registered for
	}
	c.mu.Lock()
	call := c.calls[s]
	if call == nil {
		c.mu.Unlock()
		return
	}
	c.calls[s] = nil
	c.free = append(c.free, s)
	if len(c.free) == crowdedBelow+1 {
		c.crowded.Store(false)
	}
	c.mu.Unlock()
	if call == abandoned {
		return
	}
	msg, err := c.message(h[1], raw, *plain)
	if h[1]&flagCompress != 0 && err == nil {
		*plain = msg[:0]
	}
	if err == nil && h[4] == opError {
		err = parseError(msg)
	}
	if err == nil {
		call.body = append(call.body[:0], msg...)
	}
	call.done <- err
}

// sweep gives up requests past their deadline or whose context ended,
// at ns on the pool's clock.
func (c *conn) sweep(ns int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for s := 0; s < c.high; s++ {
		call := c.calls[s]
		if call == nil || call == abandoned {
			continue
		}
		var err error
		if ns > call.deadline {
			err = gocql.ErrTimeoutNoResponse
		} else if cerr := call.ctx.Err(); cerr != nil {
			err = cerr
		} else {
			continue
		}
		c.calls[s] = abandoned
		call.done <- err
	}
}

// fail breaks the connection: every request in flight gets err (or
// ErrConnectionClosed), and so does every later one.
func (c *conn) fail(err error) {
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
		err = gocql.ErrConnectionClosed
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = fmt.Errorf("%s: %w", c.addr, err)
	c.dead.Store(true)
	for s := 0; s < c.high; s++ {
		if call := c.calls[s]; call != nil && call != abandoned {
			call.done <- c.err
		}
		c.calls[s] = nil
	}
	c.mu.Unlock()
	c.nc.Close()
	c.wr.Close()
}

func (c *conn) close() { c.fail(net.ErrClosed) }
