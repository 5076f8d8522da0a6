package stress

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

// ownNode is a Cassandra node of the test's own (scripts/cassandra.sh),
// wiped at the end.
type ownNode struct {
	t    *testing.T
	env  []string
	port string
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port
}

// startOwnNode starts a node with the extra environment (CASSANDRA_...=) in
// the background; the function it returns waits for it. Called before
// t.Parallel, the node starts while the test waits for its turn.
func startOwnNode(t *testing.T, extra ...string) func() *ownNode {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	n := &ownNode{t: t, port: freePort(t)}
	n.env = append(append(ycsbtest.ServerEnv(),
		"CASSANDRA_HOME_DIR="+filepath.Join(t.TempDir(), "node"),
		"CASSANDRA_PORT="+n.port,
		"CASSANDRA_STORAGE_PORT="+freePort(t),
		"CASSANDRA_HEAP_MIN=128m", "CASSANDRA_HEAP_MAX=512m"), extra...)
	started := make(chan error, 1)
	go func() { started <- n.run("start") }()
	var once sync.Once
	var err error
	wait := func() error {
		once.Do(func() { err = <-started })
		return err
	}
	t.Cleanup(func() {
		wait()
		n.run("wipe")
	})
	return func() *ownNode {
		t.Helper()
		ycsbtest.NeedServer(t, "a Cassandra node of the test's own (scripts/cassandra.sh start)", wait())
		return n
	}
}

func (n *ownNode) run(arg string) error {
	cmd := exec.Command(filepath.Join("..", "..", "scripts", "cassandra.sh"), arg)
	cmd.Env = n.env
	out, err := cmd.CombinedOutput()
	n.t.Logf("cassandra.sh %s: %s", arg, strings.TrimSpace(string(out)))
	if err != nil {
		return fmt.Errorf("scripts/cassandra.sh %s: %v: %s", arg, err, out)
	}
	return nil
}

// TestTransportTLS runs against a node of its own that takes TLS with
// client certificates (and plain connections, which let the test look at
// system_views.clients): the run's connections are TLS as the node sees
// them; a truststore without the node's CA, or no client certificate, is
// one line, exit 2, and nothing created.
func TestTransportTLS(t *testing.T) {
	const pw = "tls-s3cr3t"
	p := newPKI(t, "stress-test-ca")
	f := p.stores(t, pw)
	srv, key := p.leaf(t, "127.0.0.1", true, net.ParseIP("127.0.0.1"))
	p.write(t, "server.pem", pemOf(t, key, srv, p.ca))
	p.write(t, "client-ca.pem", pemOf(t, nil, p.ca))
	started := startOwnNode(t, "CASSANDRA_CLIENT_TLS_DIR="+p.dir)
	t.Parallel()
	n := started()

	cc := gocql.NewCluster(testNode)
	cc.Events.DisableSchemaEvents = true // as cqlcluster's: gocql's race at a session's start
	cc.Port = atoiT(t, n.port)
	cc.Timeout = 30 * time.Second
	plain, err := cc.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	const ks = "ks_stressopts"
	tlsOf := func() (n int, protocols []string) {
		iter := plain.Query("SELECT keyspace_name, ssl_enabled, ssl_protocol FROM system_views.clients").Iter()
		var name, proto string
		var on bool
		for iter.Scan(&name, &on, &proto) {
			if name == ks {
				n++
				if on {
					protocols = append(protocols, proto)
				}
			}
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		return n, protocols
	}
	common := []string{"n=200", "no-warmup", "-rate", "threads=2", "-schema", "replication(factor=1)", "keyspace=" + ks,
		"-node", testNode, "-port", "native=" + n.port}
	for _, c := range []struct {
		opts  []string
		proto string
	}{
		{[]string{"truststore=" + f["ca.pem"], "keystore=" + f["client.pem"]}, "TLSv1.3"},
		{[]string{"truststore=" + f["ca.jks"], "truststore-password=" + pw, "keystore=" + f["client.jks"], "keystore-password=" + pw, "hostname-verification=true"}, "TLSv1.3"},
		{[]string{"truststore=" + f["ca.p12"], "truststore-password=" + pw, "keystore=" + f["client.p12"], "keystore-password=" + pw, "store-type=PKCS12",
			"ssl-protocol=TLSv1.2", "ssl-ciphers=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"}, "TLSv1.2"},
	} {
		var conns int
		var protos []string
		var out, errOut bytes.Buffer
		line := append(append([]string{"write"}, common...), append([]string{"-transport"}, c.opts...)...)
		err := Main(context.Background(), line, Env{Stdout: &out, Stderr: &errOut, onStart: func() { conns, protos = tlsOf() }})
		if err != nil {
			t.Fatalf("%s: %v\n%s\n%s", strings.Join(c.opts, " "), err, out.String(), errOut.String())
		}
		if pk, errs, _ := results(t, out.String()); pk != 200 || errs != 0 {
			t.Errorf("%v: %d partitions, %d errors", c.opts, pk, errs)
		}
		if conns == 0 || len(protos) != conns {
			t.Errorf("%v: %d connections, %d of them TLS", c.opts, conns, len(protos))
		}
		for _, pr := range protos {
			if pr != c.proto {
				t.Errorf("%v: a connection on %s, want %s", c.opts, pr, c.proto)
			}
		}
		if strings.Contains(out.String()+errOut.String(), pw) {
			t.Errorf("%v: the password is printed", c.opts)
		}
		t.Logf("%v: %d TLS connections, %v", c.opts, conns, protos[:min(1, len(protos))])
	}

	other := newPKI(t, "another-ca").stores(t, pw)
	for _, c := range []struct {
		name string
		opts []string
		want string
	}{
		{"a truststore without the node's CA", []string{"truststore=" + other["ca.pem"], "keystore=" + f["client.pem"]}, "x509: certificate signed by unknown authority"},
		{"no client certificate", []string{"truststore=" + f["ca.jks"], "truststore-password=" + pw}, "connect to 127.0.0.1 port " + n.port + ": "},
	} {
		var out, errOut bytes.Buffer
		line := append([]string{"write", "n=10", "no-warmup", "-schema", "keyspace=ks_stressopts_never", "-node", testNode,
			"-port", "native=" + n.port, "-transport"}, c.opts...)
		err := Main(context.Background(), line, Env{Stdout: &out, Stderr: &errOut})
		if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") ||
			strings.Contains(err.Error(), pw) {
			t.Errorf("%s: got %v, want one line (exit 2) with %q", c.name, err, c.want)
		}
		t.Logf("%s: %v", c.name, err)
	}
	var v int
	if err := plain.Query("SELECT count(*) FROM system_schema.keyspaces WHERE keyspace_name = 'ks_stressopts_never'").Scan(&v); err != nil || v != 0 {
		t.Errorf("a refused run created its keyspace: %d, %v", v, err)
	}
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
