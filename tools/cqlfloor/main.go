// Command cqlfloor measures the floor of a Go CQL client's request path on
// this machine: N goroutines each keep one prepared point read (or write)
// in flight on one connection, with nothing but the protocol in between
// (protocol v4 frames, no driver, no routing, no timers, no allocation per
// operation). The same architecture as the cassandra-cql binding's (a
// reader goroutine hands each response to its worker; frames queued behind
// a write go out together), so the difference between the two is the
// driver's, and the difference between this and latte is the Go runtime's.
// With -raw it reads and writes with raw system calls, as internal/cql/cqlwire
// does on plain TCP. Usage: go run ./tools/cqlfloor -threads 16 -d 10s
// [-write] [-raw]; measure the process with GNU time: (user+sys) / ops.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/goycsb/ycsb/internal/procs"
)

const (
	opStartup  = 0x01
	opReady    = 0x02
	opError    = 0x00
	opPrepare  = 0x09
	opExecute  = 0x0A
	headerSize = 9
)

type conn struct {
	nc   net.Conn
	rc   syscall.RawConn // set with -raw
	r    *bufio.Reader
	mu   sync.Mutex
	busy bool
	q    []byte
	sp   []byte
	wait []chan []byte // by stream
}

func frame(buf []byte, stream int16, op byte, body []byte) []byte {
	buf = append(buf[:0], 0x04, 0, byte(stream>>8), byte(stream), op, 0, 0, 0, 0)
	binary.BigEndian.PutUint32(buf[5:], uint32(len(body)))
	return append(buf, body...)
}

func (c *conn) readFrame() (stream int16, op byte, body []byte, err error) {
	var h [headerSize]byte
	if _, err = io.ReadFull(c.r, h[:]); err != nil {
		return
	}
	n := binary.BigEndian.Uint32(h[5:])
	body = make([]byte, n)
	_, err = io.ReadFull(c.r, body)
	return int16(binary.BigEndian.Uint16(h[2:])), h[4], body, err
}

// roundTrip is for set-up only (before the reader runs).
func (c *conn) roundTrip(op byte, body []byte) (byte, []byte, error) {
	if _, err := c.nc.Write(frame(nil, 0, op, body)); err != nil {
		return 0, nil, err
	}
	_, rop, rb, err := c.readFrame()
	if err == nil && rop == opError {
		err = errors.New("server error: " + string(rb[6:]))
	}
	return rop, rb, err
}

func (c *conn) send(p []byte) {
	c.mu.Lock()
	c.q = append(c.q, p...)
	if c.busy {
		c.mu.Unlock()
		return
	}
	c.busy = true
	c.mu.Unlock()
	runtime.Gosched()
	for {
		c.mu.Lock()
		buf := c.q
		if len(buf) == 0 {
			c.busy = false
			c.mu.Unlock()
			return
		}
		c.q = c.sp[:0]
		c.mu.Unlock()
		if err := c.write(buf); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			os.Exit(1)
		}
		c.mu.Lock()
		c.sp = buf[:0]
		c.mu.Unlock()
	}
}

// write writes p with raw system calls when -raw is set: a non-blocking
// socket's write does not block, and a raw call does not tell the
// scheduler (no processor hand-off, no wake-up of its monitor thread).
func (c *conn) write(p []byte) error {
	if c.rc == nil {
		_, err := c.nc.Write(p)
		return err
	}
	var werr error
	for len(p) > 0 && werr == nil {
		err := c.rc.Write(func(fd uintptr) bool {
			n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			if e == syscall.EAGAIN {
				return false
			}
			if e != 0 {
				werr = e
				return true
			}
			p = p[n:]
			return true
		})
		if err != nil {
			return err
		}
	}
	return werr
}

// rawReader reads with raw system calls, waiting for readability only
// after a read found nothing.
type rawReader struct{ rc syscall.RawConn }

func (r rawReader) Read(p []byte) (int, error) {
	var n int
	var rerr error
	err := r.rc.Read(func(fd uintptr) bool {
		m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e == syscall.EAGAIN {
			return false
		}
		if e != 0 {
			rerr = e
			return true
		}
		n = int(m)
		if n == 0 {
			rerr = io.EOF
		}
		return true
	})
	if err != nil {
		return 0, err
	}
	return n, rerr
}

func (c *conn) reader() {
	var h [headerSize]byte
	bufs := make([][]byte, len(c.wait))
	for {
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return
		}
		s := int(binary.BigEndian.Uint16(h[2:]))
		n := int(binary.BigEndian.Uint32(h[5:]))
		b := bufs[s]
		if cap(b) < n {
			b = make([]byte, n)
		}
		b = b[:n]
		bufs[s] = b
		if _, err := io.ReadFull(c.r, b); err != nil {
			return
		}
		if h[4] == opError {
			fmt.Fprintln(os.Stderr, "error:", string(b[6:]))
			os.Exit(1)
		}
		c.wait[s] <- b
	}
}

func shortBytes(b, v []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(v)))
	return append(b, v...)
}

func main() {
	threads := flag.Int("threads", 16, "operations in flight")
	dur := flag.Duration("d", 10*time.Second, "duration")
	write := flag.Bool("write", false, "writes instead of reads")
	addr := flag.String("addr", "127.0.0.1:9042", "node")
	records := flag.Int("records", 50000, "keys user0..")
	table := flag.String("table", "ycsb_small.usertable", "table (y_id varchar, field0 varchar)")
	raw := flag.Bool("raw", false, "raw system calls for reads and writes")
	flag.Parse()
	nc, err := net.Dial("tcp", *addr)
	if err != nil {
		panic(err)
	}
	nc.(*net.TCPConn).SetNoDelay(true)
	c := &conn{nc: nc, r: bufio.NewReaderSize(nc, 64<<10)}
	startup := binary.BigEndian.AppendUint16(nil, 1)
	startup = shortBytes(startup, []byte("CQL_VERSION"))
	startup = shortBytes(startup, []byte("3.0.0"))
	if op, _, err := c.roundTrip(opStartup, startup); err != nil || op != opReady {
		panic(fmt.Sprint("startup: ", op, err))
	}
	q := "SELECT * FROM " + *table + " WHERE y_id = ?"
	if *write {
		q = "UPDATE " + *table + " SET field0 = ? WHERE y_id = ?"
	}
	pb := binary.BigEndian.AppendUint32(nil, uint32(len(q)))
	pb = append(pb, q...)
	_, rb, err := c.roundTrip(opPrepare, pb)
	if err != nil {
		panic(err)
	}
	idLen := int(binary.BigEndian.Uint16(rb[4:]))
	id := rb[6 : 6+idLen]
	c.wait = make([]chan []byte, *threads)
	for i := range c.wait {
		c.wait[i] = make(chan []byte, 1)
	}
	if *raw {
		c.rc, _ = nc.(*net.TCPConn).SyscallConn()
		c.r = bufio.NewReaderSize(rawReader{c.rc}, 64<<10)
	}
	go c.reader()
	a := procs.Adapt()
	defer a.Stop()
	var ops atomic.Int64
	stop := time.Now().Add(*dur)
	var wg sync.WaitGroup
	for w := 0; w < *threads; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := uint64(w)*0x9e3779b97f4a7c15 + 1
			var body, fr, key []byte
			val := []byte("abcdefgh")
			n := int64(0)
			for {
				rng ^= rng << 13
				rng ^= rng >> 7
				rng ^= rng << 17
				key = strconv.AppendInt(append(key[:0], "user"...), int64(rng%uint64(*records)), 10)
				body = shortBytes(body[:0], id)
				body = append(body, 0, 1, 0x01) // ONE, values
				if *write {
					body = append(body, 0, 2)
					body = binary.BigEndian.AppendUint32(body, uint32(len(val)))
					body = append(body, val...)
				} else {
					body = append(body, 0, 1)
				}
				body = binary.BigEndian.AppendUint32(body, uint32(len(key)))
				body = append(body, key...)
				t0 := time.Now() // as a measured client reads the clock
				fr = frame(fr, int16(w), opExecute, body)
				c.send(fr)
				r := <-c.wait[w]
				_ = time.Since(t0)
				if kind := binary.BigEndian.Uint32(r); kind != 1 && kind != 2 {
					fmt.Fprintln(os.Stderr, "unexpected result kind", kind)
					os.Exit(1)
				}
				n++
				if n&63 == 0 && time.Now().After(stop) {
					ops.Add(n)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	fmt.Printf("ops %d\n", ops.Load())
}
