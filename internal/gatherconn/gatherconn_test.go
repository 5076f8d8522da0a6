package gatherconn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingConn counts the writes that reach the connection.
type countingConn struct {
	net.Conn
	writes atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// tcpPair is a connected loopback pair: the client side wrapped for
// counting, and the server side.
func tcpPair(t *testing.T) (*countingConn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, ok := <-accepted
	if !ok {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { c.Close(); s.Close() })
	return &countingConn{Conn: c}, s
}

// frame is a test request: its length, the writer and its sequence number,
// and filler, so that an interleaving shows.
func frame(writer, seq, size int) []byte {
	b := make([]byte, 12+size)
	binary.BigEndian.PutUint32(b, uint32(len(b)))
	binary.BigEndian.PutUint32(b[4:], uint32(writer))
	binary.BigEndian.PutUint32(b[8:], uint32(seq))
	for i := 12; i < len(b); i++ {
		b[i] = byte(writer)
	}
	return b
}

// TestKeepsRequestsWhole: many writers at once, a reader
// that is slow to start; every request arrives whole and in each writer's
// order, and the requests share write calls.
func TestKeepsRequestsWhole(t *testing.T) {
	raw, server := tcpPair(t)
	c := New(raw)
	defer c.Close()
	const writers, each = 16, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, err := c.Write(frame(w, i, 50+w*7)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	next := make([]int, writers)
	var hdr [12]byte
	for n := 0; n < writers*each; n++ {
		server.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(server, hdr[:]); err != nil {
			t.Fatalf("after %d requests: %v", n, err)
		}
		size := int(binary.BigEndian.Uint32(hdr[:]))
		w, seq := int(binary.BigEndian.Uint32(hdr[4:])), int(binary.BigEndian.Uint32(hdr[8:]))
		body := make([]byte, size-12)
		if _, err := io.ReadFull(server, body); err != nil {
			t.Fatal(err)
		}
		if w >= writers || seq != next[w] {
			t.Fatalf("request %d: writer %d seq %d, want seq %d", n, w, seq, next[w])
		}
		if !bytes.Equal(body, frame(w, seq, size-12)[12:]) {
			t.Fatalf("request %d of writer %d is not whole", seq, w)
		}
		next[w]++
	}
	if got := raw.writes.Load(); got >= writers*each {
		t.Errorf("%d writes for %d requests: nothing was coalesced", got, writers*each)
	}
	t.Logf("%d requests in %d writes", writers*each, raw.writes.Load())
}

// TestWriteErrorCloses: once a write fails, the connection
// is closed (so the driver fails what is in flight) and every later Write
// fails.
func TestWriteErrorCloses(t *testing.T) {
	raw, server := tcpPair(t)
	c := New(raw)
	defer c.Close()
	server.(*net.TCPConn).SetLinger(0)
	server.Close() // the peer resets the connection
	deadline := time.Now().Add(10 * time.Second)
	var err error
	for err == nil && time.Now().Before(deadline) {
		_, err = c.Write(frame(0, 0, 1000))
		time.Sleep(time.Millisecond)
	}
	if err == nil {
		t.Fatal("writes to a reset connection kept succeeding")
	}
	// The reading side (the driver's reader) sees the connection end.
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, rerr := c.Read(make([]byte, 1))
	var ne net.Error
	if rerr == nil || errors.As(rerr, &ne) && ne.Timeout() {
		t.Fatalf("read after a failed write: %v, want the connection closed", rerr)
	}
}

// TestWriteDeadline: a peer that stops reading makes the
// flusher's write time out at the deadline the driver set; the connection
// is closed and Write reports it.
func TestWriteDeadline(t *testing.T) {
	raw, _ := tcpPair(t) // the server side never reads
	c := New(raw)
	defer c.Close()
	c.SetWriteDeadline(time.Now().Add(300 * time.Millisecond))
	big := frame(0, 0, 1<<20)
	start := time.Now()
	var err error
	for err == nil && time.Since(start) < 20*time.Second {
		_, err = c.Write(big)
		time.Sleep(5 * time.Millisecond)
	}
	if err == nil {
		t.Fatal("writes to a peer that does not read never failed")
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err = %v, want the write deadline's timeout", err)
	}
}

// TestCloseStopsWrites: after Close, Write fails at once.
func TestCloseStopsWrites(t *testing.T) {
	raw, _ := tcpPair(t)
	c := New(raw)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after Close: %v, want %v", err, ErrClosed)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}
