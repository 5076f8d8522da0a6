package cassandra

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
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

// needCassandra skips (or fails in CI) when no node answers CQL.
func needCassandra(t testing.TB) {
	t.Helper()
	cc := gocql.NewCluster(testHost)
	fmt.Sscan(testPort(), &cc.Port)
	cc.ConnectTimeout = 5 * time.Second
	cc.Timeout = 10 * time.Second
	s, err := cc.CreateSession()
	if err == nil {
		s.Close()
	}
	dbtest.NeedServer(t, "Cassandra on "+testHost+":"+testPort()+" (scripts/cassandra.sh start)", err)
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
	ctx := db.WithOutput(context.Background(), &out)
	drv, name, err := db.Lookup("cassandra-cql")
	if err != nil || name != "cassandra-cql" {
		t.Fatalf("Lookup: %v %q", err, name)
	}
	d, err := drv.Open(ctx, props.FromMap(m))
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
			if c.port != 9042 || c.keyspace != "ycsb" || c.table != "usertable" || c.readCL != gocql.Quorum || c.writeCL != gocql.Quorum ||
				c.useSSL || c.tracing || !c.tokenAware || c.createSchema || c.replication != 1 || c.protocol != 0 || c.conns != 0 || c.fieldCount != 10 {
				t.Errorf("defaults: %+v", c)
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
			cc, err := c.cluster()
			if err != nil || cc.ConnectTimeout != 250*time.Millisecond || cc.Timeout != 1500*time.Millisecond {
				t.Errorf("timeouts %v %v %v", cc.ConnectTimeout, cc.Timeout, err)
			}
		}},
		{"ssl without user", map[string]string{"hosts": "h", "cassandra.useSSL": "true"}, "", func(t *testing.T, c *config) {
			cc, err := c.cluster()
			if err != nil || cc.SslOpts == nil || cc.Authenticator != nil {
				t.Errorf("ssl %+v %v", cc.SslOpts, err)
			}
		}},
		{"credentials", map[string]string{"hosts": "h", "cassandra.username": "u", "cassandra.password": "p"}, "", func(t *testing.T, c *config) {
			cc, _ := c.cluster()
			if a, ok := cc.Authenticator.(gocql.PasswordAuthenticator); !ok || a.Username != "u" || a.Password != "p" || cc.SslOpts != nil {
				t.Errorf("auth %#v", cc.Authenticator)
			}
		}},
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
				tc.check(t, c)
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
	return c.cluster()
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
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := baseProps("ycsb_test")
			for k, v := range tc.extra {
				m[k] = v
			}
			dbtest.Run(t, func(t *testing.T) db.DB { return mustOpen(t, m) }, dbtest.Options{TokenOrderScan: true})
		})
	}
}
