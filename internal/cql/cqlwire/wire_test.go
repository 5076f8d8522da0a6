package cqlwire

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/cql/cqlcompress"
)

const selectCQL = "SELECT k, v FROM ks.t WHERE k = ?"

func testOptions() Options {
	return Options{ConnectTimeout: 2 * time.Second, Timeout: 5 * time.Second, Retry: 300 * time.Millisecond}
}

// client is one goroutine's view of a host.
type client struct {
	h    *Host
	call *Call
	st   *Stmt
}

func newClient(p *Pool, addr string) *client {
	return &client{h: p.Host(addr, addr), call: NewCall(), st: &Stmt{CQL: selectCQL}}
}

// read executes the statement with key and copies out the rows.
func (c *client) read(ctx context.Context, key []byte) (cols []string, rows [][][]byte, err error) {
	var values [][]byte
	if key != nil {
		values = [][]byte{key}
	}
	if err := c.h.Exec(ctx, c.call, c.st, gocql.One, values); err != nil {
		return nil, nil, err
	}
	_, err = c.call.Rows(c.st, func(cs []string, vals [][]byte) bool {
		cols = cs
		row := make([][]byte, len(vals))
		for i, v := range vals {
			if v != nil {
				row[i] = append([]byte{}, v...)
			}
		}
		rows = append(rows, row)
		return true
	}, nil)
	return cols, rows, err
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(s *fakeServer, o *Options)
		rows  [][][]byte // nil: the default echo row
		void  bool
	}{
		{name: "plain"},
		{name: "names from preparation", setup: func(s *fakeServer, o *Options) { s.NoMetadata = true }},
		{name: "warnings", setup: func(s *fakeServer, o *Options) { s.Warn = true }},
		{name: "lz4", setup: func(s *fakeServer, o *Options) { o.Compressor = cqlcompress.LZ4{} }},
		{name: "lz4 warnings no metadata", setup: func(s *fakeServer, o *Options) {
			o.Compressor = cqlcompress.LZ4{}
			s.Warn, s.NoMetadata = true, true
		}},
		{name: "keyspace", setup: func(s *fakeServer, o *Options) { o.Keyspace = "ks" }},
		{name: "nulls and rows", rows: [][][]byte{{[]byte("a"), nil}, {nil, []byte("")}, {[]byte("c"), []byte("3")}}},
		{name: "no rows", rows: [][][]byte{}},
		{name: "void", void: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer(t, "127.0.0.1:0")
			o := testOptions()
			if tc.setup != nil {
				tc.setup(s, &o)
			}
			if tc.rows != nil || tc.void {
				s.Rows = func([]byte) [][][]byte { return tc.rows }
			}
			s.start()
			p := NewPool(o)
			defer p.Close()
			c := newClient(p, s.Addr)
			// Twice: the second runs on the prepared statement.
			for range 2 {
				cols, rows, err := c.read(context.Background(), []byte("key1"))
				if err != nil {
					t.Fatal(err)
				}
				want := tc.rows
				switch {
				case tc.void:
					want = nil
				case want == nil:
					want = [][][]byte{{[]byte("key1"), []byte("v:key1")}}
				}
				if !equalRows(rows, want) {
					t.Fatalf("rows %q, want %q", rows, want)
				}
				if len(rows) > 0 && !slices.Equal(cols, []string{"k", "v"}) {
					t.Fatalf("columns %q", cols)
				}
			}
			if n := s.Prepares.Load(); n != 1 {
				t.Errorf("%d PREPAREs, want 1", n)
			}
			// Rows are asked for without their metadata, as the drivers
			// do: the preparation named the columns.
			if n := s.SkipMeta.Load(); n != s.Executes.Load() || n != 2 {
				t.Errorf("%d EXECUTEs of 2 asked for rows without metadata", n)
			}
			if o.Compressor != nil && (s.Compressed.Load() == 0 || s.CompOut.Load() == 0) {
				t.Errorf("lz4: %d requests and %d responses compressed", s.Compressed.Load(), s.CompOut.Load())
			}
			if o.Compressor == nil && (s.Compressed.Load() != 0 || s.CompOut.Load() != 0) {
				t.Errorf("no compressor: %d requests and %d responses compressed", s.Compressed.Load(), s.CompOut.Load())
			}
			if q := s.Queries(); o.Keyspace != "" && !slices.Equal(q, []string{`USE "ks"`}) {
				t.Errorf("queries %q", q)
			}
		})
	}
}

// An unprepared statement goes as a QUERY with its text and values at
// each request: nothing is prepared or executed, the rows are named from
// each response's metadata.
func TestQueryUnprepared(t *testing.T) {
	for _, comp := range []bool{false, true} {
		t.Run(fmt.Sprint("lz4=", comp), func(t *testing.T) {
			s := newFakeServer(t, "127.0.0.1:0").start()
			o := testOptions()
			if comp {
				o.Compressor = cqlcompress.LZ4{}
			}
			p := NewPool(o)
			defer p.Close()
			c := newClient(p, s.Addr)
			c.st.Unprepared = true
			for _, key := range []string{"key1", "key2"} {
				cols, rows, err := c.read(context.Background(), []byte(key))
				if err != nil {
					t.Fatal(err)
				}
				if want := [][][]byte{{[]byte(key), []byte("v:" + key)}}; !equalRows(rows, want) {
					t.Fatalf("rows %q, want %q", rows, want)
				}
				if !slices.Equal(cols, []string{"k", "v"}) {
					t.Fatalf("columns %q", cols)
				}
			}
			if n, m := s.Prepares.Load(), s.Executes.Load(); n != 0 || m != 0 {
				t.Errorf("%d PREPAREs and %d EXECUTEs, want none", n, m)
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if !slices.Equal(s.Statements, []string{selectCQL, selectCQL}) {
				t.Errorf("QUERYs %q, want the statement twice", s.Statements)
			}
			if comp && s.Compressed.Load() == 0 {
				t.Error("lz4: no request compressed")
			}
		})
	}
}

// Many goroutines share one connection, the server answers out of
// order: each request gets its own answer.
func TestConcurrentOutOfOrder(t *testing.T) {
	s := newFakeServer(t, "127.0.0.1:0")
	s.Shuffle = true
	s.start()
	o := testOptions()
	o.Compressor = cqlcompress.LZ4{}
	p := NewPool(o)
	defer p.Close()
	const goroutines, requests = 32, 60
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newClient(p, s.Addr)
			for i := range requests {
				key := fmt.Appendf(nil, "g%d-r%d", g, i)
				_, rows, err := c.read(context.Background(), key)
				if err == nil && !equalRows(rows, [][][]byte{{key, append([]byte("v:"), key...)}}) {
					err = fmt.Errorf("request %s: rows %q", key, rows)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := s.Accepted.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
	if s.OutOfOrder.Load() == 0 {
		t.Error("the server never answered out of order: the test proves nothing")
	}
}

func TestUnprepared(t *testing.T) {
	for _, tc := range []struct {
		times    int // UNPREPARED answers per id
		prepares int32
		ok       bool
	}{
		{times: 1, prepares: 2, ok: true},
		{times: 2, prepares: 2, ok: false}, // re-prepared once only
	} {
		t.Run(fmt.Sprint(tc.times), func(t *testing.T) {
			s := newFakeServer(t, "127.0.0.1:0")
			s.Unprepared = tc.times
			s.start()
			p := NewPool(testOptions())
			defer p.Close()
			c := newClient(p, s.Addr)
			_, rows, err := c.read(context.Background(), []byte("x"))
			if tc.ok {
				if err != nil || len(rows) != 1 {
					t.Fatalf("rows %q, error %v", rows, err)
				}
			} else {
				var se *ServerError
				if !errors.As(err, &se) || se.Code() != errUnprepared {
					t.Fatalf("error %v, want UNPREPARED", err)
				}
			}
			if n := s.Prepares.Load(); n != tc.prepares {
				t.Errorf("%d PREPAREs, want %d", n, tc.prepares)
			}
			if !tc.ok {
				return
			}
			// Prepared now: no more PREPAREs.
			if _, _, err := c.read(context.Background(), []byte("y")); err != nil {
				t.Fatal(err)
			}
			if n := s.Prepares.Load(); n != tc.prepares {
				t.Errorf("%d PREPAREs after another request, want %d", n, tc.prepares)
			}
		})
	}
}

// hangOn returns an OnExecute that never answers key, telling got.
func hangOn(key string, got chan<- int16) func(*srvConn, int16, []byte) bool {
	return func(_ *srvConn, stream int16, k []byte) bool {
		if string(k) != key {
			return false
		}
		got <- stream
		return true
	}
}

func TestTimeout(t *testing.T) {
	got := make(chan int16, 1)
	s := newFakeServer(t, "127.0.0.1:0")
	s.OnExecute = hangOn("hang", got)
	s.start()
	o := testOptions()
	o.Timeout = 100 * time.Millisecond
	p := NewPool(o)
	defer p.Close()
	c := newClient(p, s.Addr)
	if _, _, err := c.read(context.Background(), []byte("warm")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, _, err := c.read(context.Background(), []byte("hang"))
	elapsed := time.Since(start)
	if !errors.Is(err, gocql.ErrTimeoutNoResponse) {
		t.Fatalf("error %v, want ErrTimeoutNoResponse", err)
	}
	// The deadline is taken on the sweeper's clock, which a sweep behind
	// is allowed for; only a sweeper held up longer could fire sooner.
	if elapsed < o.Timeout-sweepEvery || elapsed > time.Second {
		t.Errorf("timed out after %v, timeout %v", elapsed, o.Timeout)
	}
	// The connection still serves.
	if _, _, err := c.read(context.Background(), []byte("after")); err != nil {
		t.Fatal(err)
	}
}

// A request given up keeps its stream until its late response comes: the
// late response is not taken for a later request's.
func TestAbandonedStreamNotReused(t *testing.T) {
	var first int16 = -1 // the server's connection goroutine's
	var mu sync.Mutex
	var streams []int16
	s := newFakeServer(t, "127.0.0.1:0")
	s.OnExecute = func(c *srvConn, stream int16, key []byte) bool {
		mu.Lock()
		streams = append(streams, stream)
		mu.Unlock()
		switch string(key) {
		case "first":
			first = stream
			return true // answered late, below
		case "second":
			// The first request's answer comes now, after the second was sent.
			c.Value(first, []byte("first"), []byte("LATE"))
		}
		return false
	}
	s.start()
	o := testOptions()
	o.Timeout = 100 * time.Millisecond
	p := NewPool(o)
	defer p.Close()
	c := newClient(p, s.Addr)
	if _, _, err := c.read(context.Background(), []byte("first")); !errors.Is(err, gocql.ErrTimeoutNoResponse) {
		t.Fatalf("first: error %v, want ErrTimeoutNoResponse", err)
	}
	for _, key := range []string{"second", "third", "fourth"} {
		_, rows, err := c.read(context.Background(), []byte(key))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if want := [][][]byte{{[]byte(key), []byte("v:" + key)}}; !equalRows(rows, want) {
			t.Fatalf("%s: rows %q, want %q", key, rows, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(streams) != 4 || streams[1] == streams[0] {
		t.Errorf("streams %v: the abandoned stream was reused before its response", streams)
	}
}

func TestContextEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"cancel", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, context.Canceled},
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 300*time.Millisecond)
		}, context.DeadlineExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := make(chan int16, 1)
			s := newFakeServer(t, "127.0.0.1:0")
			s.OnExecute = hangOn("hang", got)
			s.start()
			p := NewPool(testOptions()) // a request timeout of seconds
			defer p.Close()
			c := newClient(p, s.Addr)
			if _, _, err := c.read(context.Background(), []byte("warm")); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := tc.ctx()
			defer cancel()
			endedc := make(chan time.Time, 1)
			go func() {
				<-got // the request is at the server
				if tc.want == context.Canceled {
					cancel()
				}
				<-ctx.Done()
				endedc <- time.Now()
			}()
			_, _, err := c.read(ctx, []byte("hang"))
			returned := time.Now()
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			// The sweeper looks every 10 ms; the bound is loose for loaded machines.
			if late := returned.Sub(<-endedc); late > 250*time.Millisecond {
				t.Errorf("returned %v after the context ended", late)
			}
		})
	}
}

// The server goes away: in-flight calls fail, later ones fail fast with
// ErrNoConnections while the host is left alone, and the host is dialled
// again after Retry.
func TestServerGoesAway(t *testing.T) {
	got := make(chan int16, 1)
	s := newFakeServer(t, "127.0.0.1:0")
	s.OnExecute = hangOn("hang", got)
	s.start()
	o := testOptions()
	o.Retry = 500 * time.Millisecond
	p := NewPool(o)
	defer p.Close()
	c := newClient(p, s.Addr)
	if _, _, err := c.read(context.Background(), []byte("warm")); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, _, err := newClient(p, s.Addr).read(context.Background(), []byte("hang"))
		errc <- err
	}()
	<-got
	s.Stop() // listener and connections
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("in-flight request succeeded on a closed connection")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("in-flight request still waiting after the connection closed")
	}
	// The redial is refused; within Retry no dial is tried.
	_, _, err := c.read(context.Background(), []byte("x"))
	failed := time.Now()
	if !errors.Is(err, gocql.ErrNoConnections) {
		t.Fatalf("error %v, want ErrNoConnections", err)
	}
	s2 := newFakeServer(t, s.Addr).start()
	start := time.Now()
	_, _, err = c.read(context.Background(), []byte("x"))
	if time.Since(failed) < o.Retry {
		if !errors.Is(err, gocql.ErrNoConnections) {
			t.Fatalf("within Retry: error %v, want ErrNoConnections", err)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("within Retry: failed after %v, not at once", d)
		}
		if n := s2.Accepted.Load(); n != 0 {
			t.Errorf("within Retry: %d dials", n)
		}
	}
	time.Sleep(time.Until(failed.Add(o.Retry + 10*time.Millisecond)))
	// The restarted server does not know the statement: UNPREPARED, then
	// prepared again.
	if _, rows, err := c.read(context.Background(), []byte("back")); err != nil || len(rows) != 1 {
		t.Fatalf("after Retry: rows %q, error %v", rows, err)
	}
	if n := s2.Prepares.Load(); n != 1 {
		t.Errorf("restarted server: %d PREPAREs, want 1", n)
	}
}

func TestAuth(t *testing.T) {
	const wrong = "s3cret-wrong"
	for _, tc := range []struct {
		name string
		auth gocql.Authenticator
		comp bool
		want string // in the error; "" for success
	}{
		{name: "ok", auth: gocql.PasswordAuthenticator{Username: "user", Password: "pass"}},
		{name: "ok lz4", auth: gocql.PasswordAuthenticator{Username: "user", Password: "pass"}, comp: true},
		{name: "bad password", auth: gocql.PasswordAuthenticator{Username: "user", Password: wrong},
			want: "Provided username user and/or password are incorrect"},
		{name: "bad password lz4", auth: gocql.PasswordAuthenticator{Username: "user", Password: wrong}, comp: true,
			want: "Provided username user and/or password are incorrect"},
		{name: "not allowed", auth: gocql.PasswordAuthenticator{Username: "user", Password: wrong, AllowedAuthenticators: []string{"com.example.Other"}},
			want: "unexpected authenticator"},
		{name: "none configured", want: "asks for authentication"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer(t, "127.0.0.1:0")
			s.Auth = true
			s.start()
			o := testOptions()
			o.Auth = tc.auth
			if tc.comp {
				o.Compressor = cqlcompress.LZ4{}
			}
			p := NewPool(o)
			defer p.Close()
			_, rows, err := newClient(p, s.Addr).read(context.Background(), []byte("k"))
			if tc.want == "" {
				if err != nil || len(rows) != 1 {
					t.Fatalf("rows %q, error %v", rows, err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, gocql.ErrNoConnections) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want ErrNoConnections naming %q", err, tc.want)
			}
			if strings.Contains(err.Error(), wrong) {
				t.Errorf("error %q shows the password", err)
			}
			if n := s.Prepares.Load(); n != 0 {
				t.Errorf("%d PREPAREs on an unauthenticated connection", n)
			}
		})
	}
}

func TestPoolClose(t *testing.T) {
	got := make(chan int16, 1)
	s := newFakeServer(t, "127.0.0.1:0")
	s.OnExecute = hangOn("hang", got)
	s.start()
	p := NewPool(testOptions())
	c := newClient(p, s.Addr)
	if _, _, err := c.read(context.Background(), []byte("warm")); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, _, err := newClient(p, s.Addr).read(context.Background(), []byte("hang"))
		errc <- err
	}()
	<-got
	p.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, gocql.ErrConnectionClosed) {
			t.Errorf("in-flight: error %v, want ErrConnectionClosed", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("in-flight request still waiting after Close")
	}
	// A closed pool dials no more.
	if _, _, err := c.read(context.Background(), []byte("x")); !errors.Is(err, gocql.ErrConnectionClosed) {
		t.Errorf("after Close: error %v, want ErrConnectionClosed", err)
	}
	if n := s.Accepted.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}
