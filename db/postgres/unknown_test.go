package postgres

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
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
	u, err := url.Parse(testURL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCutProxy(t, u.Host)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	jdbc := "jdbc:postgresql://" + proxy.ln.Addr().String() + u.Path + "?sslmode=disable"
	var stdout, stderr bytes.Buffer
	load := exec.Command(ycsbtest.Binary(t), "load", "jdbc", "-P", filepath.Join(root, "workloads", "workloada"),
		"-p", "db.url="+jdbc, "-p", "db.user=ycsb", "-p", "db.passwd=ycsb", "-p", "table="+table,
		"-p", "recordcount=100000", "-p", "db.holdconn=true", "-threads", "4", "-target", "2000", "-p", "report.json=-")
	load.Stdout, load.Stderr = &stdout, &stderr
	if err := load.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- load.Wait() }()
	// Cut once the load is well under way.
	for rows := 0; rows < 500; {
		time.Sleep(50 * time.Millisecond)
		if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			t.Fatalf("the load ended before the cut: %v\n%s", err, stderr.String())
		default:
		}
	}
	proxy.cut.Store(true)
	var runErr error
	select {
	case runErr = <-done:
	case <-time.After(60 * time.Second):
		load.Process.Kill()
		t.Fatalf("the load did not end after the cut\n%s", stderr.String())
	}
	var rows int64
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if ee, ok := runErr.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit %v, want 1 (load incomplete)\n%s", runErr, stderr.String())
	}
	m := regexp.MustCompile(`load incomplete: at least (\d+) of 100000 records inserted; (\d+) more with unknown outcome \(the server may have applied them\)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no 'at least N ... K more with unknown outcome' line (%d rows in the table, %d requests cut):\n%s", rows, proxy.cuts.Load(), stderr.String())
	}
	known, _ := strconv.ParseInt(m[1], 10, 64)
	unknown, _ := strconv.ParseInt(m[2], 10, 64)
	if got := int64(reportedInserts(t, stdout.String())); got != known {
		t.Errorf("the report counts %d inserts, the line %d", got, known)
	}
	if unknown < 1 || unknown > 4 {
		t.Errorf("%d inserts of unknown outcome; want one per thread cut at most, at least one", unknown)
	}
	if known+unknown != rows {
		t.Errorf("%d known + %d unknown inserts; the table holds %d rows", known, unknown, rows)
	}
	if !regexp.MustCompile(`"unknown_outcome":` + m[2] + `\b`).MatchString(stdout.String()) {
		t.Errorf("the JSON report does not carry unknown_outcome %s:\n%s", m[2], stdout.String())
	}
	t.Logf("%d rows: %d known, %d of unknown outcome; %d requests cut", rows, known, unknown, proxy.cuts.Load())
}
