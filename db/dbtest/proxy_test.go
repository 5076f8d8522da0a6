package dbtest

import (
	"bufio"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineServer answers each line it reads with "ok <line>" and records the
// lines it got.
type lineServer struct {
	ln  net.Listener
	mu  sync.Mutex
	got []string
}

func newLineServer(t *testing.T) *lineServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &lineServer{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					s.mu.Lock()
					s.got = append(s.got, strings.TrimSpace(line))
					s.mu.Unlock()
					if _, err := io.WriteString(c, "ok "+line); err != nil {
						return
					}
				}
			}()
		}
	}()
	return s
}

func (s *lineServer) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// ask sends line through c and returns the answer, or "" when the
// connection is closed instead.
func ask(t *testing.T, c net.Conn, r *bufio.Reader, line string) string {
	t.Helper()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return ""
	}
	a, err := r.ReadString('\n')
	if err != nil {
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("no answer to %q and the connection still open", line)
		}
		return ""
	}
	return strings.TrimSpace(a)
}

// TestProxyCut: the armed cut takes the skip+1-th matching request; a
// delivered one reaches the server and its answer is dropped, one not
// delivered never reaches it; either way the connection closes, the cut is
// counted, and a new connection is forwarded as before.
func TestProxyCut(t *testing.T) {
	for _, deliver := range []bool{true, false} {
		srv := newLineServer(t)
		p := NewProxy(t, srv.ln.Addr().String())
		c, err := net.Dial("tcp", "127.0.0.1:"+p.PortString())
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(c)
		p.Cut([]byte("COMMIT"), 1, deliver)
		for _, line := range []string{"INSERT 1", "COMMIT 1", "INSERT 2"} {
			if a := ask(t, c, r, line); a != "ok "+line {
				t.Fatalf("deliver %v: %q answered %q", deliver, line, a)
			}
		}
		if a := ask(t, c, r, "COMMIT 2"); a != "" {
			t.Fatalf("deliver %v: the cut request was answered %q", deliver, a)
		}
		if p.Cuts() != 1 {
			t.Errorf("deliver %v: %d cuts, want 1", deliver, p.Cuts())
		}
		c.Close()
		want := "INSERT 1,COMMIT 1,INSERT 2"
		if deliver {
			want += ",COMMIT 2"
		}
		// The server may read the delivered request just after the proxy
		// saw its answer begin.
		time.Sleep(50 * time.Millisecond)
		if got := strings.Join(srv.lines(), ","); got != want {
			t.Errorf("deliver %v: the server got %s, want %s", deliver, got, want)
		}
		c2, err := net.Dial("tcp", "127.0.0.1:"+p.PortString())
		if err != nil {
			t.Fatal(err)
		}
		if a := ask(t, c2, bufio.NewReader(c2), "COMMIT 3"); a != "ok COMMIT 3" {
			t.Errorf("deliver %v: after the cut, a new connection got %q", deliver, a)
		}
		c2.Close()
	}
}
