package cassandrastress

import (
	"context"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// The server tests use the node of scripts/cassandra.sh start on
// 127.0.0.1:9042.
const testNode = "127.0.0.1"

// cluster is a session of the test node.
func cluster(t *testing.T) *gocql.Session {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	cc := gocql.NewCluster(testNode)
	cc.ConnectTimeout = 5 * time.Second
	cc.Timeout = 30 * time.Second
	s, err := cc.CreateSession()
	ycsbtest.NeedServer(t, "Cassandra on "+testNode+":9042 (scripts/cassandra.sh start)", err)
	t.Cleanup(s.Close)
	return s
}

func dropKeyspace(t *testing.T, s *gocql.Session, ks string) {
	if err := s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec(); err != nil {
		t.Fatal(err)
	}
}

// TestUserPrepared: the markers' columns come from preparing the query.
func TestUserPrepared(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := "ks_userprof_prepared_wl"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	if err := execDDL(context.Background(), s, "CREATE KEYSPACE "+ks+" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"); err != nil {
		t.Fatal(err)
	}
	cc := gocql.NewCluster(testNode)
	cc.Keyspace = ks
	ksess, err := cc.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer ksess.Close()
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
