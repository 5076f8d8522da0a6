// Package gatherconn is a net.Conn whose writes are gathered: the requests
// that many goroutines write to one connection while the previous write is
// still in the kernel go out together in the next one, with no timer. It
// sits under the Cassandra driver's connections (its Dialer hook), where
// every worker of a run shares a few connections.
package gatherconn

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is what a write to a closed Conn returns.
var ErrClosed = errors.New("gatherconn: connection closed")

// Dialer dials connections whose writes are gathered (Conn).
type Dialer struct{ net.Dialer }

// DialContext dials as net.Dialer does and wraps the connection.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := d.Dialer.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return New(c), nil
}

// Conn gathers the requests of many workers into one write
// system call, with no timer. The driver writes each request on its own
// and holds a per-connection lock across the write, so at 64 workers it
// makes one write call per operation, and its own coalescer
// (WriteCoalesceWaitTime) holds every request for a fixed window, which the
// latency figures would include. Here Write copies the request and returns;
// one flusher goroutine per connection writes whatever has gathered while
// its previous write was in the kernel. A lone worker's request goes out at
// once (one goroutine hand-off later); under load a write carries many
// requests.
//
// Nothing is acknowledged early: a request counts as done only when its
// response arrives. When a write fails the connection is closed, so the
// driver fails every request in flight on it, those whose bytes were lost
// among them.
type Conn struct {
	net.Conn

	mu      sync.Mutex
	pending []byte // requests not yet handed to the flusher; guarded by mu
	err     error  // the first write error, returned to every later Write; guarded by mu
	closed  bool   // guarded by mu

	wake     chan struct{} // capacity 1: there is something pending
	quit     chan struct{} // closed by Close
	deadline atomic.Int64  // write deadline (unix ns) the driver last set; 0: none
	once     sync.Once
}

// New wraps c and starts its flusher; Close stops it.
func New(c net.Conn) *Conn {
	cc := &Conn{Conn: c, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	go cc.flusher()
	return cc
}

// Write queues p for the flusher. It fails only when the connection is
// closed or an earlier write failed.
func (c *Conn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if c.err != nil || c.closed {
		err := c.err
		c.mu.Unlock()
		if err == nil {
			err = ErrClosed
		}
		return 0, err
	}
	c.pending = append(c.pending, p...)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default: // the flusher is already due to run
	}
	return len(p), nil
}

// SetWriteDeadline keeps the deadline for the flusher's next write rather
// than for a Write call, which never blocks.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	if t.IsZero() {
		c.deadline.Store(0)
	} else {
		c.deadline.Store(t.UnixNano())
	}
	return nil
}

// SetDeadline sets the read deadline on the connection and keeps the write
// deadline for the flusher.
func (c *Conn) SetDeadline(t time.Time) error {
	_ = c.SetWriteDeadline(t)
	return c.Conn.SetReadDeadline(t)
}

func (c *Conn) Close() error {
	var err error
	c.once.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		close(c.quit)
		err = c.Conn.Close()
	})
	return err
}

// flusher writes what has gathered, swapping buffers so that workers keep
// appending while the kernel takes the previous batch.
func (c *Conn) flusher() {
	var out []byte
	for {
		select {
		case <-c.wake:
		case <-c.quit:
			return
		}
		c.mu.Lock()
		out, c.pending = c.pending, out[:0]
		c.mu.Unlock()
		if len(out) == 0 {
			continue
		}
		if err := c.write(out); err != nil {
			c.mu.Lock()
			if c.err == nil {
				c.err = err
			}
			c.mu.Unlock()
			// The driver's reader sees the connection end and fails the
			// requests in flight.
			c.Close()
			return
		}
		if cap(out) > maxRetainedBatch {
			out = nil // do not keep one burst's buffer for the connection's life
		}
	}
}

// maxRetainedBatch bounds the buffer a connection keeps between batches.
const maxRetainedBatch = 1 << 20

func (c *Conn) write(b []byte) error {
	var dl time.Time
	if ns := c.deadline.Load(); ns != 0 {
		dl = time.Unix(0, ns)
	}
	if err := c.Conn.SetWriteDeadline(dl); err != nil {
		return err
	}
	for len(b) > 0 {
		n, err := c.Conn.Write(b)
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}
