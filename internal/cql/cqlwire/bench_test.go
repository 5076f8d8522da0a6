package cqlwire

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"
)

// cannedServer answers STARTUP with READY, PREPARE with one prepared
// statement and every EXECUTE with the same one-row result, reusing its
// buffers: it allocates nothing per request, so the benchmark's
// allocations are the client's.
func cannedServer(b testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	fs := &fakeServer{Cols: []string{"k", "v"}, prepared: map[string]bool{}}
	prep := fs.preparedResult(selectCQL)
	rows := appendRows(nil, 0x0001, []string{"k", "v"}, [][][]byte{{[]byte("user1"), []byte("value-of-eight")}})
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				br := bufio.NewReaderSize(nc, 64<<10)
				bw := bufio.NewWriterSize(nc, 64<<10)
				var h [headerSize]byte
				body := make([]byte, 0, 4096)
				out := make([]byte, 0, 256)
				for {
					if _, err := io.ReadFull(br, h[:]); err != nil {
						return
					}
					n := int(binary.BigEndian.Uint32(h[5:]))
					if cap(body) < n {
						body = make([]byte, n)
					}
					body = body[:n]
					if _, err := io.ReadFull(br, body); err != nil {
						return
					}
					var op byte
					var msg []byte
					switch h[4] {
					case opStartup:
						op = opReady
					case opPrepare:
						op, msg = opResult, prep
					default:
						op, msg = opResult, rows
					}
					out = append(out[:0], 0x84, 0, h[2], h[3], op, 0, 0, 0, 0)
					binary.BigEndian.PutUint32(out[5:], uint32(len(msg)))
					out = append(out, msg...)
					bw.Write(out)
					if br.Buffered() == 0 {
						if bw.Flush() != nil {
							return
						}
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// BenchmarkExecRead is a point read and its row through the lean path, by
// 16 goroutines on one connection: 0 allocs/op is the goal.
func BenchmarkExecRead(b *testing.B) {
	addr := cannedServer(b)
	p := NewPool(testOptions())
	defer p.Close()
	h := p.Host(addr, addr)
	var mu sync.Mutex
	b.ReportAllocs()
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		call := NewCall()
		st := &Stmt{CQL: selectCQL}
		vals := [][]byte{[]byte("user1")}
		var scratch [][]byte
		var got int
		for pb.Next() {
			if err := h.Exec(context.Background(), call, st, 1, vals); err != nil {
				mu.Lock()
				b.Error(err)
				mu.Unlock()
				return
			}
			var err error
			scratch, err = call.Rows(st, func(cols []string, row [][]byte) bool { got += len(row[1]); return false }, scratch)
			if err != nil {
				b.Error(err)
				return
			}
		}
		_ = got
	})
}
