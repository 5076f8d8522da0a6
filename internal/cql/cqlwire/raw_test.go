package cqlwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"slices"
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

// The read loop cuts a stream written in pieces of every size (frames cut
// anywhere, one larger than the buffer) into the frames written, in order,
// and ends with EOF when the peer closes; the socket is then read without
// a read for EAGAIN after each short one (not asserted: counted with perf
// in docs/cassandra.md).
func TestRawReadLoopFrames(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	sizes := []int{0, 1, 8, 100, 70000, 3, 200 << 10, 5, 64<<10 - headerSize, 64 << 10, 17}
	var stream []byte
	for i, n := range sizes {
		h := appendHeader(nil, int16(i), opResult)
		binary.BigEndian.PutUint32(h[5:], uint32(n))
		stream = append(stream, h...)
		stream = append(stream, bytes.Repeat([]byte{byte(i)}, n)...)
	}
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		rnd := rand.New(rand.NewPCG(1, 2))
		for b := stream; len(b) > 0; {
			n := min(len(b), 1+rnd.IntN(90000))
			c.Write(b[:n])
			b = b[n:]
			time.Sleep(time.Millisecond)
		}
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var got []int
	take := func(b []byte) (used, need int, err error) {
		for len(b)-used >= headerSize {
			n := int(binary.BigEndian.Uint32(b[used+5:]))
			if len(b)-used < headerSize+n {
				return used, headerSize + n, nil
			}
			body := b[used+headerSize : used+headerSize+n]
			if s := int(binary.BigEndian.Uint16(b[used+2:])); n > 0 && body[n-1] != byte(s) {
				return used, 0, fmt.Errorf("frame %d: body of another frame", s)
			}
			got = append(got, n)
			used += headerSize + n
		}
		if len(b) > used {
			need = headerSize
		}
		return used, need, nil
	}
	if err := newRawConn(nc).readLoop(take); !errors.Is(err, io.EOF) {
		t.Fatalf("the loop ended with %v, want EOF", err)
	}
	if !slices.Equal(got, sizes) {
		t.Fatalf("frames of %v, want %v", got, sizes)
	}
}
