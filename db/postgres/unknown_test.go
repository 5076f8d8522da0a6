package postgres

import (
	"errors"
	"io"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// cutProxy forwards connections to a server until cut is set; then each
// connection's next request goes to the server, the server's answer is
// read and dropped, and the client's connection is closed: the request
// was applied and the client never learns it.
type cutProxy struct {
	ln     net.Listener
	target string
	cut    atomic.Bool
	cuts   atomic.Int32
	wg     sync.WaitGroup
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

func (p *cutProxy) accept() {
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
func (p *cutProxy) up(c, s net.Conn) {
	defer c.Close()
	defer s.Close()
	io.Copy(s, c)
}

// down forwards the server's answers until the cut; after it, the first
// byte of the next answer (the statement ran) closes both connections, so
// that the client never reads the answer.
func (p *cutProxy) down(s, c net.Conn) {
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

// TestLoadCutMidway: the connections die under a load's inserts after
// the server ran them. The load must not claim to have inserted fewer
// rows than the table holds: "at least N of M records inserted; K more
// with unknown outcome", with N exactly the rows it knows of and N+K the
// rows in the table, since each insert cut off here was applied.
func TestLoadCutMidway(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_cut")
	r, rows, cuts := cutMidLoad(t, c, table, "-p", "recordcount=100000", "-p", "db.holdconn=true", "-threads", "4", "-target", "2000",
		"-p", "report.json=-")
	if r.code != 1 {
		t.Errorf("exit %d, want 1 (load incomplete)\n%s", r.code, r.stderr)
	}
	if !r.incompleteLine || r.unknown == 0 {
		t.Fatalf("no 'at least N ... K more with unknown outcome' line (%d rows in the table, %d requests cut):\n%s", rows, cuts, r.stderr)
	}
	if r.reportedInserted != r.known {
		t.Errorf("the report counts %d inserts, the line %d", r.reportedInserted, r.known)
	}
	if r.unknown < 1 || r.unknown > 4 {
		t.Errorf("%d inserts of unknown outcome; want one per thread cut at most, at least one", r.unknown)
	}
	if r.known+r.unknown != rows {
		t.Errorf("%d known + %d unknown inserts; the table holds %d rows", r.known, r.unknown, rows)
	}
	if !regexp.MustCompile(`"unknown_outcome":` + strconv.FormatInt(r.unknown, 10) + `\b`).MatchString(r.stdout) {
		t.Errorf("the JSON report does not carry unknown_outcome %d:\n%s", r.unknown, r.stdout)
	}
	t.Logf("%d rows: %d known, %d of unknown outcome; %d requests cut", rows, r.known, r.unknown, cuts)
}

// cutMidLoad runs a load into table through a cutProxy, cuts once the
// table holds 500 rows, and returns what the load said, the rows then in
// the table and the requests cut.
func cutMidLoad(t *testing.T, c *pgx.Conn, table string, extra ...string) (r loadResult, rows int64, cuts int32) {
	t.Helper()
	u, err := url.Parse(testURL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCutProxy(t, u.Host)
	l := startLoad(t, "jdbc:postgresql://"+proxy.ln.Addr().String()+u.Path+"?sslmode=disable", table, extra...)
	l.untilRows(t, c, table, 500)
	proxy.cut.Store(true)
	r = l.end(t, time.Minute, nil)
	return r, countRows(t, c, table), proxy.cuts.Load()
}
