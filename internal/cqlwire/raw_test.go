package cqlwire

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// A write larger than the socket's buffers waits for room and sends every
// byte in order; a read returns what came, and EOF once the peer closed.
func TestRawConn(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		time.Sleep(50 * time.Millisecond) // let the client's socket fill
		b, _ := io.ReadAll(c)
		c.Write([]byte("bye"))
		c.Close()
		got <- b
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	raw := newRawConn(nc)
	if raw == nil {
		t.Fatal("no raw socket for a TCP connection")
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<19) // 8 MiB
	if n, err := raw.Write(want); n != len(want) || err != nil {
		t.Fatalf("wrote %d of %d: %v", n, len(want), err)
	}
	nc.(*net.TCPConn).CloseWrite()
	if b := <-got; !bytes.Equal(b, want) {
		t.Fatalf("the peer got %d bytes, want the %d written, in order", len(b), len(want))
	}
	buf := make([]byte, 16)
	n, err := raw.Read(buf)
	if err != nil || string(buf[:n]) != "bye" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	if _, err := raw.Read(buf); !errors.Is(err, io.EOF) {
		t.Fatalf("read after the peer closed: %v, want EOF", err)
	}
}

// Closing the connection ends a read waiting for data.
func TestRawConnCloseEndsRead(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			time.Sleep(2 * time.Second)
		}
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	raw := newRawConn(nc)
	done := make(chan error, 1)
	go func() {
		_, err := raw.Read(make([]byte, 16))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	nc.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a read on a closed connection returned no error")
		}
	case <-time.After(time.Second):
		t.Fatal("closing the connection did not end the read")
	}
	if newRawConn(tlsLike{nc}) != nil {
		t.Fatal("a connection that is not plain TCP got a raw socket")
	}
}

// tlsLike stands for a connection that wraps TCP (as TLS does).
type tlsLike struct{ net.Conn }
