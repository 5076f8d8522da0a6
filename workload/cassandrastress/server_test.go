package cassandrastress

import (
	"context"
	"github.com/goycsb/ycsb/db/cassandra"
	"github.com/goycsb/ycsb/internal/cql/cqlcluster"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// The server tests use the node of scripts/cassandra.sh start on
// 127.0.0.1:9042.
const testNode = "127.0.0.1"

// testOptions are the connection options of the test node.
func testOptions() cqlcluster.Options {
	return cqlcluster.Options{Hosts: []string{testNode}, Port: 9042, Protocol: 4, Conns: 1,
		Consistency: gocql.One, ConnectTimeout: 5 * time.Second, Timeout: 30 * time.Second, TokenAware: true}
}

// connect is a connection to the test node, through the binding, closed
// at the test's end.
func connect(t *testing.T) *cassandra.Conn {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	conn, err := cassandra.Dial(context.Background(), testOptions())
	ycsbtest.NeedServer(t, "Cassandra on "+testNode+":9042 (scripts/cassandra.sh start)", err)
	t.Cleanup(conn.Close)
	return conn
}

func dropKeyspace(t *testing.T, s *gocql.Session, ks string) {
	if err := s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec(); err != nil {
		t.Fatal(err)
	}
}

// TestUserPrepared: the markers' columns come from preparing the query.
func TestUserPrepared(t *testing.T) {
	t.Parallel()
	conn := connect(t)
	s := conn.Admin()
	ks := "ks_userprof_prepared_wl"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	if err := execDDL(context.Background(), s, "CREATE KEYSPACE "+ks+" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"); err != nil {
		t.Fatal(err)
	}
	ksess, err := conn.Open(context.Background(), ks)
	if err != nil {
		t.Fatal(err)
	}
	if err := execDDL(context.Background(), ksess, "CREATE TABLE t (k text, c int, v text, PRIMARY KEY (k, c))"); err != nil {
		t.Fatal(err)
	}
	for cql, want := range map[string]string{
		"select * from t where k = ? and c >= ? LIMIT 1":      "k c",
		"SELECT v FROM t WHERE \"k\"=? AND c IN ?":            "k in(c)",
		"select * from t where k = ? limit ?":                 "k [limit]",
		"select * from t where token(k) > ? and token(k) < ?": "partition key token partition key token",
	} {
		got, err := preparedArgs(context.Background(), ksess, cql)
		if err != nil {
			t.Fatalf("%s: %v", cql, err)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %q, want %q", cql, got, want)
		}
	}
	if _, err := preparedArgs(context.Background(), ksess, "select * from nosuch where k = ?"); err == nil {
		t.Error("a query of no table prepared")
	}
}
