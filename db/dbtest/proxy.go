package dbtest

import (
	"bytes"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// Proxy is a TCP proxy a test puts in front of a shared server to imitate
// a node that hangs (Freeze: connections stay open, nothing is forwarded),
// dies (Kill: every connection closed, new ones refused) or loses one
// connection under a request (Cut), without touching the server itself.
type Proxy struct {
	target string
	ln     net.Listener

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	frozen chan struct{} // closed on Thaw; nil while forwarding
	killed bool
	cut    *cut // armed by Cut; nil once done
	cuts   atomic.Int32
}

// cut is a Cut armed: the skip+1-th request containing match is cut.
type cut struct {
	match   []byte
	skip    int
	deliver bool
}

// Cut arms one cut: the skip+1-th request from now (counted over every
// connection) that contains match is either delivered to the server, which
// runs it, and its answer dropped (deliver), or never delivered; either
// way its connection is then closed on both sides, so the client learns
// nothing of it. A request is what the client wrote in one go (one read of
// the proxy's): match must not span two writes. Cuts says when it
// happened.
func (p *Proxy) Cut(match []byte, skip int, deliver bool) {
	p.mu.Lock()
	p.cut = &cut{match: match, skip: skip, deliver: deliver}
	p.mu.Unlock()
}

// Cuts is how many connections a Cut closed (once the server answered
// the request, when delivered).
func (p *Proxy) Cuts() int { return int(p.cuts.Load()) }

// cutHere says whether the request req is the one an armed Cut is for,
// and whether it is to be delivered; the cut is disarmed then.
func (p *Proxy) cutHere(req []byte) (here, deliver bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.cut
	if c == nil || !bytes.Contains(req, c.match) {
		return false, false
	}
	if c.skip > 0 {
		c.skip--
		return false, false
	}
	p.cut = nil
	return true, c.deliver
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
	var cutting atomic.Bool // a request was delivered to be cut: its answer closes both
	go p.pipe(client, server, func([]byte) bool {
		if cutting.Load() {
			p.cuts.Add(1)
			return false
		}
		return true
	})
	p.pipe(server, client, func(req []byte) bool {
		here, deliver := p.cutHere(req)
		switch {
		case !here:
			return true
		case deliver:
			cutting.Store(true)
			return true
		}
		p.cuts.Add(1)
		return false
	})
}

// pipe copies from src to dst, holding each chunk while frozen; a chunk
// that pass refuses closes both instead.
func (p *Proxy) pipe(dst, src net.Conn, pass func([]byte) bool) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.hold() || !pass(buf[:n]) {
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
