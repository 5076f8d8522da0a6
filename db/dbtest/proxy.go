package dbtest

import (
	"net"
	"strconv"
	"sync"
	"testing"
)

// Proxy is a TCP proxy a test puts in front of a shared server to imitate
// a node that hangs (Freeze: connections stay open, nothing is forwarded)
// or dies (Kill: every connection closed, new ones refused), without
// touching the server itself.
type Proxy struct {
	target string
	ln     net.Listener

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	frozen chan struct{} // closed on Thaw; nil while forwarding
	killed bool
}

// NewProxy forwards a port of its own on 127.0.0.1 to target (host:port)
// until the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{target: target, ln: ln, conns: map[net.Conn]struct{}{}}
	go p.accept()
	t.Cleanup(p.Kill)
	return p
}

// Port is the proxy's port.
func (p *Proxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// PortString is Port as text.
func (p *Proxy) PortString() string { return strconv.Itoa(p.Port()) }

// Freeze stops forwarding in both directions; connections stay open and
// new ones are accepted but get nothing, as from a node under SIGSTOP.
func (p *Proxy) Freeze() {
	p.mu.Lock()
	if p.frozen == nil {
		p.frozen = make(chan struct{})
	}
	p.mu.Unlock()
}

// Thaw forwards again what was held.
func (p *Proxy) Thaw() {
	p.mu.Lock()
	if p.frozen != nil {
		close(p.frozen)
		p.frozen = nil
	}
	p.mu.Unlock()
}

// Kill closes every connection and the listener: connecting is refused
// from now on, as to a node that is down.
func (p *Proxy) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.killed {
		return
	}
	p.killed = true
	p.ln.Close()
	for c := range p.conns {
		c.Close()
	}
	if p.frozen != nil {
		close(p.frozen)
		p.frozen = nil
	}
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.serve(c)
	}
}

// track registers c, or closes it and reports false once killed.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.killed {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) serve(client net.Conn) {
	if !p.track(client) {
		return
	}
	p.hold()
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(server) {
		client.Close()
		return
	}
	go p.pipe(server, client)
	p.pipe(client, server)
}

// pipe copies from src to dst, holding each chunk while frozen.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.hold() {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return // EOF or closed: the other side is closed too
		}
	}
}

// hold waits while the proxy is frozen; false once it is killed.
func (p *Proxy) hold() bool {
	p.mu.Lock()
	ch, killed := p.frozen, p.killed
	p.mu.Unlock()
	if ch != nil {
		<-ch
		p.mu.Lock()
		killed = p.killed
		p.mu.Unlock()
	}
	return !killed
}
