package dbtest

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// CutProxy forwards connections to a server until cut is set; then each
// connection's next request goes to the server, the server's answer is
// read and dropped, and the client's connection is closed: the request
// was applied and the client never learns it.
type CutProxy struct {
	ln     net.Listener
	target string
	cut    atomic.Bool
	cuts   atomic.Int32
	wg     sync.WaitGroup
}

// NewCutProxy forwards a port of its own on 127.0.0.1 to target until
// the test ends.
func NewCutProxy(t testing.TB, target string) *CutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &CutProxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

func (p *CutProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.wg.Add(2)
		go func() { defer p.wg.Done(); p.up(c, s) }()
		go func() { defer p.wg.Done(); p.down(s, c) }()
	}
}

// up forwards the client's requests until either side closes.
func (p *CutProxy) up(c, s net.Conn) {
	defer c.Close()
	defer s.Close()
	io.Copy(s, c)
}

// down forwards the server's answers until the cut; after it, the first
// byte of the next answer (the statement ran) closes both connections, so
// that the client never reads the answer.
func (p *CutProxy) down(s, c net.Conn) {
	defer c.Close()
	defer s.Close()
	buf := make([]byte, 64<<10)
	for !p.cut.Load() {
		s.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		n, err := s.Read(buf)
		if n > 0 {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		var ne net.Error
		if err != nil && !(errors.As(err, &ne) && ne.Timeout()) {
			return
		}
	}
	s.SetReadDeadline(time.Now().Add(30 * time.Second))
	if n, _ := s.Read(buf[:1]); n == 1 {
		p.cuts.Add(1)
	}
}

// Addr is the proxy's host:port.
func (p *CutProxy) Addr() string { return p.ln.Addr().String() }

// Cut makes each connection's next answer the last: it is read from the
// server and dropped, and the connection closed.
func (p *CutProxy) Cut() { p.cut.Store(true) }

// Cuts is the number of answers dropped.
func (p *CutProxy) Cuts() int32 { return p.cuts.Load() }
