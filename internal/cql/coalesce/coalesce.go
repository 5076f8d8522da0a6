// Package coalesce sends the frames that many goroutines write to one
// connection in as few system calls as it can without a timer: frames sent
// while a write is in progress are queued, and the queue goes out in one
// write when that write ends. No frame waits for anything but the write
// before it. Both CQL request paths write through it: the lean path
// (internal/cql/cqlwire) and the driver's connections (Conn, dialed by
// internal/cql/cqlcluster).
package coalesce

import (
	"io"
	"math"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// noDeadline is a frame's or a queue's deadline when it has none.
const noDeadline = math.MaxInt64

// Writer queues frames for w. A queued frame counts as written: if its
// write fails, onFail is called once with the error (the owner closes its
// connection, which fails every request waiting on it), and every later
// frame gets that error.
type Writer struct {
	w      io.Writer
	wd     interface{ SetWriteDeadline(time.Time) error } // w's, or nil
	onFail func(error)
	kick   chan struct{} // capacity 1: wakes the flusher
	quit   chan struct{}
	done   chan struct{} // closed when the flusher has ended
	once   sync.Once

	mu   sync.Mutex
	busy bool // a write is in progress or due: frames go to queue
	// writing mirrors busy for Busy, read without the lock
	writing atomic.Bool
	queue   []byte // frames waiting for the write in progress
	spare   []byte // the previous queue's buffer, reused
	due     int64  // the latest deadline of the queued frames, unix ns; 0 when none is queued
	err     error  // the first write error, or net.ErrClosed after Close

	set int64 // the deadline w has, written by the writing goroutine only
}

// New returns a Writer for w and starts its flusher, a goroutine that
// sleeps while nothing is queued; Close ends it.
func New(w io.Writer, onFail func(error)) *Writer {
	q := &Writer{
		w:      w,
		onFail: onFail,
		kick:   make(chan struct{}, 1),
		quit:   make(chan struct{}),
		done:   make(chan struct{}),
		set:    noDeadline,
	}
	q.wd, _ = w.(interface{ SetWriteDeadline(time.Time) error })
	go q.run()
	return q
}

// Write sends p. On an idle connection the caller writes it, after
// letting the goroutines already runnable queue theirs (as an event loop
// flushes after its ready tasks), and then what was queued during its
// write; behind a write in progress it is queued and Write returns at once. For callers that nothing else serializes.
func (q *Writer) Write(p []byte) (int, error) {
	first, err := q.put(p, noDeadline)
	if err != nil || !first {
		if err != nil {
			return 0, err
		}
		return len(p), nil
	}
	// The caller then writes what was queued behind its write, until
	// nothing is: it would only wait for its response, and waking the
	// flusher instead would cost a hand-over to another goroutine.
	if err := q.drain(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is queued and what the goroutines already runnable
// queue, in as few writes as it can; it returns at once when a write is in
// progress or due, whose writer writes them. A connection's reader calls
// it before it waits for the next response (Conn.Read): the requests that
// the responses it handed over send are queued behind it, and go out in
// its write rather than in the flusher's, which would have to be woken.
func (q *Writer) Flush() error {
	q.mu.Lock()
	if q.err != nil || q.busy {
		err := q.err
		q.mu.Unlock()
		return err
	}
	q.busy = true
	q.writing.Store(true)
	q.mu.Unlock()
	return q.drain()
}

// drain writes the queue until it is empty, letting the runnable
// goroutines queue their frames before each write (as an event loop
// flushes after its ready tasks), for the goroutine that set busy.
func (q *Writer) drain() error {
	for {
		runtime.Gosched()
		if err := q.flushOnce(); err != nil {
			q.onFail(err)
			return err
		}
		if q.idle() {
			return nil
		}
	}
}

// Enqueue queues p and returns at once; the flusher writes it, by
// deadline (zero for none) or, with the frames queued beside it, by the
// latest of theirs. For callers serialized above the Writer (the driver
// writes one frame at a time under a lock of its own), where a write in
// the caller would keep every other frame out of the queue until it ended.
func (q *Writer) Enqueue(p []byte, deadline time.Time) error {
	due := int64(noDeadline)
	if !deadline.IsZero() {
		due = deadline.UnixNano()
	}
	first, err := q.put(p, due)
	if err == nil && first {
		q.wake()
	}
	return err
}

// put appends p to the queue; first says the connection was idle, so
// that the caller owns the write.
func (q *Writer) put(p []byte, due int64) (first bool, err error) {
	q.mu.Lock()
	if q.err != nil {
		err = q.err
		q.mu.Unlock()
		return false, err
	}
	q.queue = append(q.queue, p...)
	q.due = max(q.due, due)
	first = !q.busy
	q.busy = true
	q.writing.Store(true)
	q.mu.Unlock()
	return first, nil
}

// Busy says a write is in progress or due: a frame written now goes out
// with it, in the same system call.
func (q *Writer) Busy() bool { return q.writing.Load() }

func (q *Writer) wake() {
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// flushOnce writes the queue as it is. On an error the queue is dropped
// and the Writer fails from then on.
func (q *Writer) flushOnce() error {
	q.mu.Lock()
	buf := q.queue
	if q.err != nil || len(buf) == 0 {
		q.mu.Unlock()
		return nil
	}
	q.queue = q.spare[:0]
	due := q.due
	q.due = 0
	q.mu.Unlock()
	var err error
	if due != q.set && q.wd != nil {
		t := time.Time{}
		if due != noDeadline {
			t = time.Unix(0, due)
		}
		err = q.wd.SetWriteDeadline(t)
		q.set = due
	}
	if err == nil {
		_, err = q.w.Write(buf)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if err != nil {
		if q.err == nil {
			q.err = err
		}
		q.queue, q.spare = nil, nil
		return err
	}
	q.spare = buf[:0]
	return nil
}

// idle ends the write in progress when nothing was queued behind it.
func (q *Writer) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.queue) > 0 {
		return false
	}
	q.busy = false
	q.writing.Store(false)
	return true
}

func (q *Writer) run() {
	err := q.flusher()
	// done first: onFail may close the owner, which calls Close.
	close(q.done)
	if err != nil {
		q.onFail(err)
	}
}

// flusher writes the queue until it is empty, each time it is woken; it
// returns when Close is called or a write fails.
func (q *Writer) flusher() error {
	for {
		select {
		case <-q.quit:
			return nil
		case <-q.kick:
		}
		for {
			runtime.Gosched()
			if err := q.flushOnce(); err != nil {
				return err
			}
			if q.idle() {
				break
			}
		}
	}
}

// Close drops what is queued, fails later frames with net.ErrClosed and
// waits for the flusher to end. A write in progress ends first: close the
// connection under the Writer before Close.
func (q *Writer) Close() {
	q.once.Do(func() {
		q.mu.Lock()
		if q.err == nil {
			q.err = net.ErrClosed
		}
		q.queue, q.spare = nil, nil
		q.mu.Unlock()
		close(q.quit)
	})
	<-q.done
}

// Conn is a connection whose writes go through a Writer's Enqueue: a nil
// error from Write means the frame is queued, and a queued frame that
// fails to go out closes the connection, so that its reader fails every
// request waiting on it. A write deadline applies to the frames written
// after it is set (crypto/tls sets one in the past after its close alert);
// the flusher sets the connection's. A read first writes what is queued
// (Read).
type Conn struct {
	net.Conn
	w        *Writer
	deadline atomic.Int64 // the write deadline, unix ns; 0 for none
}

// NewConn returns nc writing through a Writer.
func NewConn(nc net.Conn) *Conn {
	return &Conn{Conn: nc, w: New(nc, func(error) { nc.Close() })}
}

// Write queues p (see Conn).
func (c *Conn) Write(p []byte) (int, error) {
	var deadline time.Time
	if ns := c.deadline.Load(); ns != 0 {
		deadline = time.Unix(0, ns)
	}
	if err := c.w.Enqueue(p, deadline); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Read first writes what is queued and what the goroutines its last
// responses woke queue (Writer.Flush), then reads: the driver's reader
// calls Read when it has handed over every response its buffer held, so
// that the requests they lead to go out in one write of the reader's,
// without a hand-over to the flusher (as the lean path's callers write,
// Writer.Write).
func (c *Conn) Read(p []byte) (int, error) {
	// A failed write has closed the connection: the read says so.
	_ = c.w.Flush()
	return c.Conn.Read(p)
}

// SetWriteDeadline sets the deadline of the frames written from now on.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	var ns int64
	if !t.IsZero() {
		ns = t.UnixNano()
	}
	c.deadline.Store(ns)
	return nil
}

// SetDeadline sets the read deadline and the next frames' write deadline.
func (c *Conn) SetDeadline(t time.Time) error {
	c.SetWriteDeadline(t)
	return c.Conn.SetReadDeadline(t)
}

// Close closes the connection, then ends its Writer.
func (c *Conn) Close() error {
	err := c.Conn.Close()
	c.w.Close()
	return err
}
