package cassandra

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

// The integration tests use the node of scripts/cassandra.sh start (make
// cassandra-start) on 127.0.0.1:9042, or YCSB_CASSANDRA_PORT.
const testHost = "127.0.0.1"

func testPort() string {
	if p := os.Getenv("YCSB_CASSANDRA_PORT"); p != "" {
		return p
	}
	return "9042"
}

// noServers is make unit: no test talks to any server.
func noServers(t testing.TB) {
	t.Helper()
	if os.Getenv("YCSB_NO_SERVERS") != "" {
		t.Skip("YCSB_NO_SERVERS is set: no server tests")
	}
}

// needCassandra skips (or fails in CI) when no node answers CQL.
func needCassandra(t testing.TB) {
	t.Helper()
	noServers(t)
	cc := gocql.NewCluster(testHost)
	cc.Events.DisableSchemaEvents = true // as cqlcluster's: gocql's race at a session's start
	fmt.Sscan(testPort(), &cc.Port)
	cc.ConnectTimeout = 5 * time.Second
	cc.Timeout = 10 * time.Second
	s, err := cc.CreateSession()
	if err == nil {
		s.Close()
	}
	ycsbtest.NeedServer(t, "Cassandra on "+testHost+":"+testPort()+" (scripts/cassandra.sh start)", err)
}

func baseProps(keyspace string) map[string]string {
	return map[string]string{
		"hosts":                          testHost,
		"port":                           testPort(),
		"cassandra.keyspace":             keyspace,
		"cassandra.createschema":         "true",
		"cassandra.readconsistencylevel": "ONE",
		// QUORUM of one replica is one: the reference's default works too.
	}
}

func openWith(t testing.TB, m map[string]string) (db.DB, string, error) {
	t.Helper()
	var out bytes.Buffer
	drv, name, err := db.Lookup("cassandra-cql")
	if err != nil || name != "cassandra-cql" {
		t.Fatalf("Lookup: %v %q", err, name)
	}
	d, err := drv.Open(context.Background(), props.FromMap(m), &out)
	return d, out.String(), err
}

func mustOpen(t testing.TB, m map[string]string) db.DB {
	t.Helper()
	d, _, err := openWith(t, m)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return d
}

func TestNames(t *testing.T) {
	for _, n := range []string{"cassandra-cql", "cassandra", "cassandra2-cql", "site.ycsb.db.CassandraCQLClient", "com.yahoo.ycsb.db.CassandraCQLClient"} {
		if _, name, err := db.Lookup(n); err != nil || name != "cassandra-cql" {
			t.Errorf("Lookup(%q) = %q, %v", n, name, err)
		}
	}
}

func TestParseConfig(t *testing.T) {
	cases := []struct {
		name  string
		props map[string]string
		want  string // "" = valid; else the property the error names
		check func(t *testing.T, c *config)
	}{
		{"defaults", map[string]string{"hosts": "h1"}, "", func(t *testing.T, c *config) {
			if c.port != 9042 || c.keyspace != "ycsb" || c.table != "usertable" || c.readCL != gocql.One || c.writeCL != gocql.One || c.coalesce != 0 ||
				c.useSSL || c.tracing || !c.tokenAware || c.createSchema || c.replication != 1 || c.protocol != 0 || c.conns != 1 || c.fieldCount != 10 {
				t.Errorf("defaults: %+v", c)
			}
		}},
		{"no write coalescing by default", map[string]string{"hosts": "h1"}, "", func(t *testing.T, c *config) {
			cc, err := c.cluster(context.Background())
			if err != nil || cc.WriteCoalesceWaitTime != 0 {
				t.Errorf("write coalescing %v %v, want 0: it adds latency of its own", cc.WriteCoalesceWaitTime, err)
			}
		}},
		{"coalescing on request", map[string]string{"hosts": "h1", "cassandra.writecoalescemicros": "200"}, "", func(t *testing.T, c *config) {
			if c.coalesce != 200*time.Microsecond {
				t.Errorf("coalesce %v", c.coalesce)
			}
		}},
		{"ANY for reads of a run", map[string]string{"hosts": "h", "cassandra.readconsistencylevel": "ANY"}, "cassandra.readconsistencylevel", nil},
		{"ANY for reads of a phase that reads", map[string]string{"hosts": "h", "cassandra.readconsistencylevel": "any", db.PropPhaseReads: "true"}, "cassandra.readconsistencylevel", nil},
		{"ANY for reads of a phase without reads (a load, a write-only run)", map[string]string{"hosts": "h", "cassandra.readconsistencylevel": "ANY", db.PropPhaseReads: "false"}, "", nil},
		{"ANY for reads, the phase said badly", map[string]string{"hosts": "h", "cassandra.readconsistencylevel": "ANY", db.PropPhaseReads: "maybe"}, db.PropPhaseReads, nil},
		{"ANY for writes", map[string]string{"hosts": "h", "cassandra.writeconsistencylevel": "ANY"}, "", func(t *testing.T, c *config) {
			if c.writeCL != gocql.Any {
				t.Errorf("write level %v", c.writeCL)
			}
		}},
		{"hosts list", map[string]string{"hosts": "a, b,c"}, "", func(t *testing.T, c *config) {
			if strings.Join(c.hosts, "|") != "a|b|c" {
				t.Errorf("hosts %q", c.hosts)
			}
		}},
		{"levels", map[string]string{"hosts": "h", "cassandra.readconsistencylevel": "LOCAL_ONE", "cassandra.writeconsistencylevel": "all"}, "", func(t *testing.T, c *config) {
			if c.readCL != gocql.LocalOne || c.writeCL != gocql.All {
				t.Errorf("levels %v %v", c.readCL, c.writeCL)
			}
		}},
		{"connections", map[string]string{"hosts": "h", "cassandra.coreconnections": "3", "cassandra.maxconnections": "5"}, "", func(t *testing.T, c *config) {
			if c.conns != 5 {
				t.Errorf("conns %d", c.conns)
			}
		}},
		{"timeouts", map[string]string{"hosts": "h", "cassandra.connecttimeoutmillis": "250", "cassandra.readtimeoutmillis": "1500"}, "", func(t *testing.T, c *config) {
			cc, err := c.cluster(context.Background())
			if err != nil || cc.ConnectTimeout != 250*time.Millisecond || cc.Timeout != 1500*time.Millisecond {
				t.Errorf("timeouts %v %v %v", cc.ConnectTimeout, cc.Timeout, err)
			}
		}},
		{"ssl without user", map[string]string{"hosts": "h", "cassandra.useSSL": "true"}, "", func(t *testing.T, c *config) {
			cc, err := c.cluster(context.Background())
			if err != nil || cc.SslOpts == nil || cc.Authenticator != nil {
				t.Errorf("ssl %+v %v", cc.SslOpts, err)
			}
		}},
		{"credentials", map[string]string{"hosts": "h", "cassandra.username": "u", "cassandra.password": "p"}, "", func(t *testing.T, c *config) {
			cc, _ := c.cluster(context.Background())
			if a, ok := cc.Authenticator.(gocql.PasswordAuthenticator); !ok || a.Username != "u" || a.Password != "p" || cc.SslOpts != nil {
				t.Errorf("auth %#v", cc.Authenticator)
			}
		}},
		{"default timeouts", map[string]string{"hosts": "h"}, "", func(t *testing.T, c *config) {
			cc, err := c.cluster(context.Background())
			if err != nil || cc.Timeout != 12*time.Second || cc.ConnectTimeout != 5*time.Second || cc.RetryPolicy != nil {
				t.Errorf("timeouts %v/%v, retry policy %v, %v: want the reference driver's 12 s and 5 s, no retries", cc.Timeout, cc.ConnectTimeout, cc.RetryPolicy, err)
			}
		}},
		{"retries and speculation by default", map[string]string{"hosts": "h"}, "", func(t *testing.T, c *config) {
			if c.retries != 3 || c.specDelay != 0 {
				t.Errorf("retries %d, speculative delay %v; want 3 and none", c.retries, c.specDelay)
			}
		}},
		{"retries and speculation set", map[string]string{"hosts": "h", "cassandra.retries": "0", "cassandra.speculativedelaymillis": "40"}, "", func(t *testing.T, c *config) {
			if c.retries != 0 || c.specDelay != 40*time.Millisecond {
				t.Errorf("retries %d, speculative delay %v", c.retries, c.specDelay)
			}
		}},
		{"negative retries", map[string]string{"hosts": "h", "cassandra.retries": "-1"}, "cassandra.retries", nil},
		{"too many retries", map[string]string{"hosts": "h", "cassandra.retries": "101"}, "cassandra.retries", nil},
		{"negative speculative delay", map[string]string{"hosts": "h", "cassandra.speculativedelaymillis": "-5"}, "cassandra.speculativedelaymillis", nil},
		{"speculative delay above a minute", map[string]string{"hosts": "h", "cassandra.speculativedelaymillis": "60001"}, "cassandra.speculativedelaymillis", nil},
		{"zero read timeout", map[string]string{"hosts": "h", "cassandra.readtimeoutmillis": "0"}, "cassandra.readtimeoutmillis", nil},
		// The request would have timed out before its second was sent
		// (the stress mode refuses speculativeDelay= alike).
		{"speculative delay beyond the read timeout", map[string]string{"hosts": "h", "cassandra.speculativedelaymillis": "5000", "cassandra.readtimeoutmillis": "100"},
			"cassandra.speculativedelaymillis: 5000 ms, expected below cassandra.readtimeoutmillis (100 ms)", nil},
		{"speculative delay at the default read timeout", map[string]string{"hosts": "h", "cassandra.speculativedelaymillis": "12000"},
			"cassandra.speculativedelaymillis: 12000 ms, expected below cassandra.readtimeoutmillis (12000 ms)", nil},
		{"speculative delay below the read timeout", map[string]string{"hosts": "h", "cassandra.speculativedelaymillis": "99", "cassandra.readtimeoutmillis": "100"}, "", func(t *testing.T, c *config) {
			if c.specDelay != 99*time.Millisecond {
				t.Errorf("specDelay %v", c.specDelay)
			}
		}},
		{"zero connect timeout", map[string]string{"hosts": "h", "cassandra.connecttimeoutmillis": "0"}, "cassandra.connecttimeoutmillis", nil},
		{"missing hosts", map[string]string{}, "hosts", nil},
		{"empty host", map[string]string{"hosts": "a,,b"}, "hosts", nil},
		{"bad port", map[string]string{"hosts": "h", "port": "70000"}, "port", nil},
		{"bad level", map[string]string{"hosts": "h", "cassandra.readconsistencylevel": "MOST"}, "cassandra.readconsistencylevel", nil},
		{"bad write level", map[string]string{"hosts": "h", "cassandra.writeconsistencylevel": ""}, "cassandra.writeconsistencylevel", nil},
		{"bad keyspace", map[string]string{"hosts": "h", "cassandra.keyspace": "a-b"}, "cassandra.keyspace", nil},
		{"bad table", map[string]string{"hosts": "h", "table": "x;drop"}, "table", nil},
		{"bad bool", map[string]string{"hosts": "h", "cassandra.tracing": "yes please"}, "cassandra.tracing", nil},
		{"ssl files need ssl", map[string]string{"hosts": "h", "cassandra.ssl.ca": "/x"}, "cassandra.useSSL", nil},
		{"cert without key", map[string]string{"hosts": "h", "cassandra.useSSL": "true", "cassandra.ssl.cert": "/x"}, "cassandra.ssl.cert", nil},
		{"bad protocol", map[string]string{"hosts": "h", "cassandra.protocolversion": "2"}, "cassandra.protocolversion", nil},
		{"bad replication", map[string]string{"hosts": "h", "cassandra.replicationfactor": "0"}, "cassandra.replicationfactor", nil},
		{"bad maxconnections", map[string]string{"hosts": "h", "cassandra.maxconnections": "-1"}, "cassandra.maxconnections", nil},
		{"bad timeout", map[string]string{"hosts": "h", "cassandra.readtimeoutmillis": "soon"}, "cassandra.readtimeoutmillis", nil},
		{"bad reconnect", map[string]string{"hosts": "h", "cassandra.reconnectintervalmillis": "0"}, "cassandra.reconnectintervalmillis", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseConfig(props.FromMap(tc.props))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("parseConfig: %v", err)
				}
				if tc.check != nil {
					tc.check(t, c)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want one naming %s", tc.want)
			}
			if !props.IsBadInput(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want a props error naming %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestSSLFiles(t *testing.T) {
	_, err := parseAndCluster(map[string]string{"hosts": "h", "cassandra.useSSL": "true", "cassandra.ssl.ca": "/nonexistent/ca.pem"})
	if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), "cassandra.ssl.ca") {
		t.Errorf("missing CA file: %v", err)
	}
}

func parseAndCluster(m map[string]string) (*gocql.ClusterConfig, error) {
	c, err := parseConfig(props.FromMap(m))
	if err != nil {
		return nil, err
	}
	return c.cluster(context.Background())
}

// TestCleanMasksByStructure: a binding error is one line, with a password
// masked where it stands, never by searching for its text (a password "1"
// must leave 127.0.0.1 alone).
func TestCleanMasksByStructure(t *testing.T) {
	d := &cassDB{cfg: &config{password: "1"}}
	tests := []struct{ in, want string }{
		{"cassandra: connect to 127.0.0.1 port 19042: dial tcp 127.0.0.1:19042:\n  connection refused",
			"cassandra: connect to 127.0.0.1 port 19042: dial tcp 127.0.0.1:19042: connection refused"},
		{"cassandra: auth: password='p@ss w;rd=&?' rejected", "cassandra: auth: password=***** rejected"},
		{"cassandra: proxy socks5://u:p@ss@10.0.0.1:1080 refused", "cassandra: proxy socks5://u:*****@10.0.0.1:1080 refused"},
	}
	for _, tt := range tests {
		if got := d.clean(errors.New(tt.in)).Error(); got != tt.want {
			t.Errorf("clean(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestCreateTableCQL(t *testing.T) {
	c, err := parseConfig(props.FromMap(map[string]string{"hosts": "h", "fieldcount": "3", "fieldnameprefix": "f_"}))
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE IF NOT EXISTS ycsb.usertable (y_id varchar PRIMARY KEY, f_0 varchar, f_1 varchar, f_2 varchar)"
	if got := createTableCQL(c); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		err  error
		want db.Status
	}{
		{gocql.ErrNoConnections, db.ServiceUnavailable},
		{fmt.Errorf("x: %w", gocql.ErrTimeoutNoResponse), db.ServiceUnavailable},
		{context.DeadlineExceeded, db.ServiceUnavailable},
		{&gocql.RequestErrUnavailable{}, db.Error}, // zero code: not a server error code
		{&net.OpError{Op: "dial", Err: errors.New("refused")}, db.ServiceUnavailable},
		{context.Canceled, db.Error},
		{errors.New("other"), db.Error},
	}
	for _, tc := range cases {
		if got := classify(tc.err); got != tc.want {
			t.Errorf("classify(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
	if st := db.StatusOf(fail(opRead, gocql.ErrNoConnections)); st != db.ServiceUnavailable {
		t.Errorf("fail: status %v", st)
	}
	if msg := fail(opUpdate, gocql.ErrNoConnections).Error(); !strings.HasPrefix(msg, "cassandra: update: ") {
		t.Errorf("fail message %q", msg)
	}
}

func TestConformance(t *testing.T) {
	needCassandra(t)
	cases := []struct {
		name  string
		extra map[string]string
	}{
		{"default", nil},
		{"v4-no-token-aware", map[string]string{"cassandra.protocolversion": "4", "cassandra.tokenaware": "false",
			"cassandra.maxconnections": "1", "cassandra.writeconsistencylevel": "ONE", "cassandra.localdc": "datacenter1"}},
		// Every statement through the driver, its writes queued
		// (internal/cql/coalesce).
		{"v5-driver-path", map[string]string{"cassandra.protocolversion": "5"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := baseProps("ycsb_test")
			for k, v := range tc.extra {
				m[k] = v
			}
			drv, _, _ := db.Lookup("cassandra-cql")
			opts := dbtest.Options{TokenOrderScan: true, Driver: drv, Props: props.FromMap(m)}
			dbtest.Run(t, func(t *testing.T) db.DB { return mustOpen(t, m) }, opts)
		})
	}
}

// BenchmarkOps measures one worker's operations against the local node; the
// allocations are the driver's plus ours (ours should be none).
func BenchmarkOps(b *testing.B) {
	needCassandra(b)
	m := baseProps("ycsb_test")
	m["cassandra.writeconsistencylevel"] = "ONE"
	d := mustOpen(b, m)
	defer d.Close()
	ss, err := d.Session(context.Background(), 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close(context.Background())
	ctx := context.Background()
	vals := make([]db.Field, 10)
	for i := range vals {
		vals[i] = db.Field{Name: fmt.Sprintf("field%d", i), Value: bytes.Repeat([]byte{'v'}, 100)}
	}
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = fmt.Sprintf("bench%04d", i)
		if err := ss.Insert(ctx, "usertable", keys[i], vals); err != nil {
			b.Fatal(err)
		}
	}
	var rec db.Record
	var rows db.Rows
	b.Run("Read", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			rec.Reset()
			if err := ss.Read(ctx, "usertable", keys[i%len(keys)], nil, &rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Update", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := ss.Update(ctx, "usertable", keys[i%len(keys)], vals[3:4]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Insert", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := ss.Insert(ctx, "usertable", keys[i%len(keys)], vals); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Scan10", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			rows.Reset()
			if err := ss.Scan(ctx, "usertable", keys[i%len(keys)], 10, nil, &rows); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// repoRoot is the module root, two levels above this package.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// ycsbBinary is cmd/ycsb for the command-line tests, linked once for the
// packages that run it (ycsbtest.Binary; TestMain calls ycsbtest.Main).
func ycsbBinary(t testing.TB) string {
	t.Helper()
	return ycsbtest.Binary(t)
}

func ycsb(t testing.TB, timeout time.Duration, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, ycsbBinary(t), args...)
	cmd.Dir = repoRoot(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("ycsb %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return stdout.String(), stderr.String(), code
}

// freePort returns a loopback port with nothing listening on it.
func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port
}

// TestOpenErrorsCLI checks that a setup error is one line and exit code 2
// before the run starts, and that the password shows nowhere.
func TestOpenErrorsCLI(t *testing.T) {
	needCassandra(t)
	const secret = "s3cr3t-Pa55"
	authPort := fakeAuthServer(t)
	// The password comes from a properties file, as users keep it: the
	// command line is echoed at startup.
	pf := filepath.Join(t.TempDir(), "cassandra.properties")
	if err := os.WriteFile(pf, []byte("cassandra.password="+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"load", "cassandra-cql", "-P", "workloads/workloada", "-P", pf, "-p", "recordcount=10",
		"-p", "cassandra.connecttimeoutmillis=2000"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no hosts", nil, "hosts: required property missing"},
		// 127.0.0.2-4 hold the shared cluster and 127.0.0.5 on the tests'
		// own clusters: nothing listens on .254.
		{"wrong host", []string{"-p", "hosts=127.0.0.254", "-p", "port=" + testPort()}, "cassandra: connect to 127.0.0.254"},
		{"wrong port", []string{"-p", "hosts=" + testHost, "-p", "port=" + freePort(t)}, "cassandra: connect to " + testHost},
		{"wrong credentials", []string{"-p", "hosts=" + testHost, "-p", "port=" + authPort, "-p", "cassandra.username=ycsb"}, "cassandra: connect to"},
		{"missing keyspace", []string{"-p", "hosts=" + testHost, "-p", "port=" + testPort(), "-p", "cassandra.keyspace=no_such_ks"}, "keyspace no_such_ks does not exist"},
		{"missing table", []string{"-p", "hosts=" + testHost, "-p", "port=" + testPort(), "-p", "cassandra.keyspace=ycsb_test", "-p", "table=no_such_table"}, "table ycsb_test.no_such_table does not exist"},
		{"bad level", []string{"-p", "hosts=" + testHost, "-p", "cassandra.writeconsistencylevel=MANY"}, "cassandra.writeconsistencylevel"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := ycsb(t, time.Minute, append(append([]string{}, base...), tc.args...)...)
			if code != 2 {
				t.Errorf("exit code %d, want 2\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			// The command line echoes its banner; the error is one line of its own.
			var errLines []string
			for _, l := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(l, "ycsb: ") {
					errLines = append(errLines, l)
				}
			}
			if len(errLines) != 1 || !strings.Contains(errLines[0], tc.want) {
				t.Errorf("stderr %q: want one error line containing %q", stderr, tc.want)
			}
			if strings.Contains(stdout, "[OVERALL]") {
				t.Errorf("the run started: %s", stdout)
			}
			if strings.Contains(stdout+stderr, secret) {
				t.Errorf("the password appears in the output:\n%s\n%s", stdout, stderr)
			}
		})
	}
}

// fakeAuthServer speaks just enough of the native protocol (v4) to ask for
// a password and reject it, as a node with PasswordAuthenticator does; the
// test node runs without authentication. It returns its port.
func fakeAuthServer(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serveFakeAuth(c)
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

func serveFakeAuth(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	str := func(s string) []byte { return append([]byte{byte(len(s) >> 8), byte(len(s))}, s...) }
	reply := func(version byte, stream []byte, op byte, body []byte) error {
		h := []byte{0x80 | version, 0, stream[0], stream[1], op, 0, 0, 0, 0}
		binary.BigEndian.PutUint32(h[5:], uint32(len(body)))
		_, err := c.Write(append(h, body...))
		return err
	}
	errBody := func(code uint32, msg string) []byte {
		b := binary.BigEndian.AppendUint32(nil, code)
		return append(b, str(msg)...)
	}
	for {
		h := make([]byte, 9)
		if _, err := io.ReadFull(c, h); err != nil {
			return
		}
		body := make([]byte, binary.BigEndian.Uint32(h[5:]))
		if _, err := io.ReadFull(c, body); err != nil {
			return
		}
		version, stream, op := h[0]&0x7f, h[2:4], h[4]
		var err error
		switch {
		case version != 4:
			err = reply(version, stream, 0x00, errBody(0x000A, fmt.Sprintf("Invalid or unsupported protocol version (%d); supported versions are (3/v3, 4/v4)", version)))
		case op == 0x05: // OPTIONS
			err = reply(version, stream, 0x06, []byte{0, 0})
		case op == 0x01: // STARTUP
			err = reply(version, stream, 0x03, str("org.apache.cassandra.auth.PasswordAuthenticator"))
		case op == 0x0F: // AUTH_RESPONSE
			err = reply(version, stream, 0x00, errBody(0x0100, "Provided username ycsb and/or password are incorrect"))
		default:
			err = reply(version, stream, 0x00, errBody(0x000A, "unexpected request"))
		}
		if err != nil {
			return
		}
	}
}

// ownNode is a Cassandra node of the test's own, started with
// scripts/cassandra.sh on free ports in a directory of its own: the fault
// tests stop it, never the shared node of the other tests.
type ownNode struct {
	t      testing.TB
	script string
	env    []string
	port   string
}

// startOwnNode starts the node (about 10-60 s) and wipes it at the end. It
// skips under make unit, and outside CI when the node cannot start.
func startOwnNode(t testing.TB) *ownNode {
	t.Helper()
	noServers(t)
	dir := t.TempDir()
	n := &ownNode{t: t, script: filepath.Join(repoRoot(t), "scripts", "cassandra.sh"), port: freePort(t)}
	n.env = append(ycsbtest.ServerEnv(),
		"CASSANDRA_HOME_DIR="+filepath.Join(dir, "node"),
		"CASSANDRA_PORT="+n.port,
		"CASSANDRA_STORAGE_PORT="+freePort(t),
		"CASSANDRA_HEAP_MIN=128m", "CASSANDRA_HEAP_MAX=512m")
	t.Cleanup(func() { n.run("wipe") })
	ycsbtest.NeedServer(t, "a Cassandra node of the test's own (scripts/cassandra.sh start)", n.run("start"))
	return n
}

func (n *ownNode) run(arg string) error {
	cmd := exec.Command(n.script, arg)
	cmd.Env = n.env
	out, err := cmd.CombinedOutput()
	n.t.Logf("cassandra.sh %s: %s", arg, strings.TrimSpace(string(out)))
	if err != nil {
		return fmt.Errorf("scripts/cassandra.sh %s: %v: %s", arg, err, out)
	}
	return nil
}

func (n *ownNode) must(arg string) {
	n.t.Helper()
	if err := n.run(arg); err != nil {
		n.t.Fatal(err)
	}
}

// on is the node as seen from t, a subtest of the one that started it: its
// logs and failures are t's.
func (n *ownNode) on(t testing.TB) *ownNode {
	c := *n
	c.t = t
	return &c
}

// TestOwnNode starts one node of the test's own and does to it, in turn,
// what each fault test needs: a freeze (thawed after), a stop and a start,
// and a stop for good. One node for the three saves two starts (seconds of
// CPU each); the test runs beside the package's other long tests, which
// touch nothing of it (its own ports and directory).
func TestOwnNode(t *testing.T) {
	noServers(t)
	t.Parallel()
	n := startOwnNode(t)
	t.Run("FrozenNode", func(t *testing.T) { testFrozenNode(t, n.on(t)) })
	t.Run("FrozenSetup", func(t *testing.T) { testFrozenSetup(t, n.on(t)) })
	t.Run("NodeRestartDuringRun", func(t *testing.T) { testNodeRestartDuringRun(t, n.on(t)) })
	// Last: it leaves the node stopped.
	t.Run("DownNodeIsBackedOff", func(t *testing.T) { testDownNodeIsBackedOff(t, n.on(t)) })
}

// testNodeRestartDuringRun stops the node in the middle of a run and
// starts it again: the operations in between fail and are counted, the
// run goes on and reconnects, and once its status lines show it recovered
// a Ctrl-C ends it with its report.
func testNodeRestartDuringRun(t *testing.T, n *ownNode) {
	node := n.must

	common := []string{"-P", "workloads/workloada", "-p", "hosts=" + testHost, "-p", "port=" + n.port, "-p", "cassandra.keyspace=ycsb_fault",
		"-p", "cassandra.createschema=true", "-p", "recordcount=1000", "-p", "cassandra.readtimeoutmillis=2000",
		"-p", "cassandra.connecttimeoutmillis=1000", "-threads", "4"}
	if stdout, stderr, code := ycsb(t, time.Minute, append([]string{"load", "cassandra-cql"}, common...)...); code != 0 {
		t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// A bound only: long enough for a slow stop (the script waits up to
	// 30 s), a start and the recovery; the test ends the run with SIGINT
	// once the status lines show it recovered.
	const runCap = 150
	ctx, cancel := context.WithTimeout(context.Background(), 2*runCap*time.Second)
	defer cancel()
	args := append([]string{"run", "cassandra-cql"}, common...)
	args = append(args, "-p", "operationcount=100000000", "-p", fmt.Sprintf("maxexecutiontime=%d", runCap),
		"-target", "300", "-s", "-p", "status.interval=1")
	cmd := exec.CommandContext(ctx, ycsbBinary(t), args...)
	cmd.Dir = repoRoot(t)
	var stdout bytes.Buffer
	stderr := &stampWriter{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	time.Sleep(6 * time.Second)
	node("stop")
	time.Sleep(3 * time.Second)
	node("start")
	back := time.Since(start)
	t.Logf("node back after %.1fs of the run", back.Seconds())
	// The status lines from the one after the start on; the run ends when
	// three in a row (whole seconds) show the rate the check below wants,
	// or at runCap.
	fromLine := len(statusRates(stderr.String())) + 1
	var err error
	interruptedAt := -1 // status lines printed when SIGINT was sent
	for wait := time.NewTicker(100 * time.Millisecond); ; {
		select {
		case err = <-exited:
		case <-wait.C:
			rates := statusRates(stderr.String())
			if k := len(rates); k-3 >= fromLine && min(rates[k-3], rates[k-2], rates[k-1]) >= 100 {
				interruptedAt = k
				cmd.Process.Signal(os.Interrupt)
				err = <-exited
			} else {
				continue
			}
		}
		wait.Stop()
		break
	}
	if ee := (*exec.ExitError)(nil); err != nil && (interruptedAt < 0 || !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted) {
		t.Fatalf("run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "[OVERALL], RunTime(ms)") {
		t.Fatalf("no final report:\n%s", out)
	}
	failed := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "Return=") && !strings.Contains(line, "Return=OK") {
			var n int
			fmt.Sscan(line[strings.LastIndex(line, ",")+1:], &n)
			failed += n
			t.Log(line)
		}
	}
	if failed == 0 {
		t.Errorf("no operation failed while the node was down:\n%s", out)
	}
	// Reconnected: the status lines of the last whole seconds (before the
	// SIGINT, or before the last, partial one) show operations again.
	tail := statusRates(stderr.String())
	t.Logf("ops/sec per second of the run: %v", tail)
	if len(tail) < 5 {
		t.Fatalf("too few status lines:\n%s", stderr.String())
	}
	end := len(tail) - 1
	if interruptedAt >= 0 {
		end = interruptedAt
	}
	last := tail[end-3 : end]
	for _, v := range last {
		if v < 100 {
			t.Errorf("throughput did not recover after the restart: last status rates %v", last)
			break
		}
	}
}

// statusRates are the rates of the whole status lines in stderr ("...
// N current ops/sec; ..."), in order.
func statusRates(stderr string) []float64 {
	var rates []float64
	lines := strings.Split(stderr, "\n")
	for _, line := range lines[:len(lines)-1] { // the last is not ended yet
		if i := strings.Index(line, " current ops/sec"); i > 0 {
			f := strings.Fields(line[:i])
			var v float64
			fmt.Sscan(f[len(f)-1], &v)
			rates = append(rates, v)
		}
	}
	return rates
}

// TestTracingAndDebug checks that cassandra.tracing traces every statement
// (counted in the report) and that debug prints the cluster and statements.
func TestTracingAndDebug(t *testing.T) {
	needCassandra(t)
	m := baseProps("ycsb_test")
	m["cassandra.tracing"] = "true"
	m["debug"] = "true"
	d, out, err := openWith(t, m)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !strings.Contains(out, "Connected to cluster: ") {
		t.Errorf("debug output at open: %q", out)
	}
	ss, err := d.Session(context.Background(), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprintf("trace-%d", time.Now().UnixNano())
	if err := ss.Insert(context.Background(), "usertable", key, []db.Field{{Name: "field0", Value: []byte("v")}}); err != nil {
		t.Fatal(err)
	}
	var r db.Record
	if err := ss.Read(context.Background(), "usertable", key, []string{"field0"}, &r); err != nil {
		t.Fatal(err)
	}
	ss.Close(context.Background())
	stats := d.(db.StatsReporter).Stats()
	if len(stats) != 1 || stats[0].Value.(int64) < 2 {
		t.Errorf("stats %+v, want 2 traced operations", stats)
	}
}

// TestCreatedKeyspaceIsRouted: a run that creates its keyspace
// (cassandra.createschema=true) knows its replication, which the
// routing follows, though sessions do not listen to schema events
// (cqlcluster.Options.Config): the binding opens its session again
// after the keyspace is made.
func TestCreatedKeyspaceIsRouted(t *testing.T) {
	needCassandra(t)
	const ks = "ycsb_created_routed"
	drop := func() {
		if _, err := ycsbtest.CassandraCQL(testHost, "DROP KEYSPACE IF EXISTS "+ks); err != nil {
			t.Fatal(err)
		}
	}
	drop()
	t.Cleanup(drop)
	d, out, err := openWith(t, baseProps(ks))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()
	if !strings.Contains(out, "created keyspace "+ks) {
		t.Fatalf("the keyspace was not created by the open:\n%s", out)
	}
	md, err := d.(*cassDB).session.KeyspaceMetadata(ks)
	if err != nil || md.StrategyClass == "" {
		t.Fatalf("the session does not know the keyspace it created: %v %+v", err, md)
	}
}
