package redis

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

// testAddr is the standalone server (scripts/redis.sh start).
func testAddr() string {
	if a := os.Getenv("YCSB_REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

// testClusterAddr is one node of the shared cluster (scripts/redis-cluster.sh start).
func testClusterAddr() string {
	if a := os.Getenv("YCSB_REDIS_CLUSTER_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:7001"
}

// needRedis skips (or fails in CI) when nothing answers PING at addr.
func needRedis(t testing.TB, addr, what string) {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	ycsbtest.NeedServer(t, what+" at "+addr, ping(addr))
}

// ping sends an inline PING and expects +PONG.
func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	buf := make([]byte, 7)
	if _, err := c.Read(buf); err != nil {
		return err
	}
	if !bytes.HasPrefix(buf, []byte("+PONG")) {
		return &net.AddrError{Err: "no PONG: " + string(buf), Addr: addr}
	}
	return nil
}

func openWith(t testing.TB, m map[string]string) (db.DB, error) {
	t.Helper()
	drv, _, err := db.Lookup("redis")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	return drv.Open(context.Background(), props.FromMap(m), &out)
}

func mustOpen(t testing.TB, m map[string]string) db.DB {
	t.Helper()
	d, err := openWith(t, m)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return d
}

func TestConformance(t *testing.T) {
	addr := testAddr()
	needRedis(t, addr, "Redis (scripts/redis.sh start)")
	host, port, _ := net.SplitHostPort(addr)
	cases := []struct {
		name string
		m    map[string]string
		opts dbtest.Options
	}{
		{"reference", map[string]string{"redis.host": host, "redis.port": port}, dbtest.Options{TokenOrderScan: true}},
		{"acl-user", map[string]string{"redis.addr": addr, "redis.username": "ycsb", "redis.password": "ycsb"}, dbtest.Options{TokenOrderScan: true}},
		{"go-ycsb-hash", map[string]string{"redis.addr": addr, "redis.layout": "go-ycsb"}, dbtest.Options{NoScan: true}},
		{"go-ycsb-string", map[string]string{"redis.addr": addr, "redis.layout": "go-ycsb", "redis.datatype": "string"}, dbtest.Options{NoScan: true}},
		{"pool-4", map[string]string{"redis.addr": addr, "redis.pool_size": "4", "redis.db": "1"}, dbtest.Options{TokenOrderScan: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Driver, _, _ = db.Lookup("redis")
			c.opts.Props = props.FromMap(c.m)
			dbtest.Run(t, func(t *testing.T) db.DB { return mustOpen(t, c.m) }, c.opts)
		})
	}
}

func TestConformanceCluster(t *testing.T) {
	addr := testClusterAddr()
	needRedis(t, addr, "Redis Cluster (scripts/redis-cluster.sh start)")
	host, port, _ := net.SplitHostPort(addr)
	t.Run("reference", func(t *testing.T) {
		dbtest.Run(t, func(t *testing.T) db.DB {
			return mustOpen(t, map[string]string{"redis.host": host, "redis.port": port, "redis.cluster": "true"})
		}, dbtest.Options{TokenOrderScan: true})
	})
	t.Run("go-ycsb", func(t *testing.T) {
		dbtest.Run(t, func(t *testing.T) db.DB {
			return mustOpen(t, map[string]string{"redis.addr": addr, "redis.mode": "cluster", "redis.layout": "go-ycsb"})
		}, dbtest.Options{NoScan: true})
	})
}

// TestTLS connects to the TLS port of scripts/redis.sh, with the CA it
// made, with a client certificate, and without the CA (refused).
func TestTLS(t *testing.T) {
	dir := os.Getenv("YCSB_REDIS_TLS_DIR")
	if dir == "" {
		root, err := ycsbtest.RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		dir = root + "/.cache/redis/tls"
	}
	addr := "127.0.0.1:6380"
	ycsbtest.SkipServerTests(t)
	if _, err := os.Stat(dir + "/ca.crt"); err != nil {
		ycsbtest.NeedServer(t, "Redis's TLS certificates (scripts/redis.sh start)", err)
	}
	ok := []map[string]string{
		{"redis.addr": addr, "redis.tls_ca": dir + "/ca.crt"},
		{"redis.addr": addr, "redis.tls_ca": dir + "/ca.crt", "redis.tls_cert": dir + "/client.crt", "redis.tls_key": dir + "/client.key"},
		{"redis.addr": addr, "redis.tls_insecure_skip_verify": "true"},
	}
	for _, m := range ok {
		d := mustOpen(t, m)
		ss, _ := d.Session(context.Background(), 0, 1)
		if err := ss.Insert(context.Background(), "usertable", "tls-key", []db.Field{{Name: "field0", Value: []byte("v")}}); err != nil {
			t.Errorf("%v: insert: %v", m, err)
		}
		var r db.Record
		if err := ss.Read(context.Background(), "usertable", "tls-key", nil, &r); err != nil || r.Len() != 1 {
			t.Errorf("%v: read: %v (%d fields)", m, err, r.Len())
		}
		d.Close()
	}
	if _, err := openWith(t, map[string]string{"redis.addr": addr, "redis.tls_cert": dir + "/client.crt", "redis.tls_key": dir + "/client.key", "redis.timeout": "1000"}); err == nil {
		t.Error("TLS without the CA of the server's certificate connected")
	}
}

// TestWrongServerKind: a cluster node opened as a single server, and a
// single server as a cluster, are refused at Open with one line.
func TestWrongServerKind(t *testing.T) {
	needRedis(t, testAddr(), "Redis (scripts/redis.sh start)")
	_, err := openWith(t, map[string]string{"redis.addr": testAddr(), "redis.cluster": "true"})
	if err == nil || !strings.Contains(err.Error(), "not a Redis Cluster node") {
		t.Errorf("cluster mode on a single server: %v", err)
	}
	needRedis(t, testClusterAddr(), "Redis Cluster (scripts/redis-cluster.sh start)")
	_, err = openWith(t, map[string]string{"redis.addr": testClusterAddr()})
	if err == nil || !strings.Contains(err.Error(), "is a Redis Cluster node") {
		t.Errorf("single mode on a cluster node: %v", err)
	}
}

// A wrong password is refused at Open, and the password is in no output.
func TestWrongPasswordNotPrinted(t *testing.T) {
	needRedis(t, testAddr(), "Redis (scripts/redis.sh start)")
	_, err := openWith(t, map[string]string{"redis.addr": testAddr(), "redis.username": "ycsb", "redis.password": "s3cretXYZ"})
	if err == nil {
		t.Fatal("a wrong password was accepted")
	}
	if strings.Contains(err.Error(), "s3cretXYZ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error shows the password or spans lines: %q", err)
	}
}

// A server's refusal (WRONGTYPE: a hash read of a string) is an error at
// once, not retried as a failure that may pass.
func TestRefusalNotRetried(t *testing.T) {
	needRedis(t, testAddr(), "Redis (scripts/redis.sh start)")
	str := mustOpen(t, map[string]string{"redis.addr": testAddr(), "redis.layout": "go-ycsb", "redis.datatype": "string"})
	defer str.Close()
	hash := mustOpen(t, map[string]string{"redis.addr": testAddr(), "redis.layout": "go-ycsb"})
	defer hash.Close()
	ctx := context.Background()
	key := fmt.Sprintf("wrongtype-%d", time.Now().UnixNano())
	s1, _ := str.Session(ctx, 0, 1)
	if err := s1.Insert(ctx, "usertable", key, []db.Field{{Name: "field0", Value: []byte("v")}}); err != nil {
		t.Fatal(err)
	}
	s2, _ := hash.Session(ctx, 0, 1)
	start := time.Now()
	var r db.Record
	err := s2.Read(ctx, "usertable", key, nil, &r)
	if db.StatusOf(err) != db.Error || !strings.Contains(err.Error(), "WRONGTYPE") {
		t.Errorf("read of a string as a hash: %v (status %v), want ERROR with WRONGTYPE", err, db.StatusOf(err))
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("the refusal took %v: retried", took)
	}
	if db.IsOutcomeUnknown(s2.Update(ctx, "usertable", key, []db.Field{{Name: "field0", Value: []byte("w")}})) {
		t.Error("a refused write counted as of unknown outcome")
	}
}
