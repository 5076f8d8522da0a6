package ycsbtest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// SharedClusterHosts are the addresses of the shared three-node Cassandra
// cluster of scripts/cassandra-cluster.sh (make cassandra-cluster-start), CQL
// on port 9042 each; CASSANDRA_CLUSTER_HOSTS (comma- or space-separated)
// names others, as it does for the script.
func SharedClusterHosts() []string {
	if h := os.Getenv("CASSANDRA_CLUSTER_HOSTS"); h != "" {
		return strings.Fields(strings.ReplaceAll(h, ",", " "))
	}
	return []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"}
}

var shared struct {
	sync.Mutex
	ready bool
}

// CassandraCluster returns the hosts of the shared three-node cluster once it
// is ready (every node answers CQL and a keyspace at RF=3 takes a write at
// consistency ALL through each node). Outside CI it skips t when the cluster
// is not running; in CI that is a failure. Tests use it only with keyspaces
// of their own and never stop, kill or freeze its nodes (OwnCassandraCluster
// is for that).
func CassandraCluster(t testing.TB) []string {
	t.Helper()
	SkipServerTests(t)
	hosts := SharedClusterHosts()
	shared.Lock()
	defer shared.Unlock()
	if !shared.ready {
		script, err := clusterScript()
		if err == nil {
			err = awaitClusterStart()
		}
		if err == nil {
			cmd := exec.Command(script, "status")
			cmd.Env = append(os.Environ(), "CASSANDRA_CLUSTER_HOSTS="+strings.Join(hosts, ","))
			var out []byte
			if out, err = cmd.CombinedOutput(); err != nil {
				err = fmt.Errorf("scripts/cassandra-cluster.sh status: %v\n%s", err, out)
			}
		}
		NeedServer(t, "the Cassandra cluster on "+strings.Join(hosts, ", ")+" (make cassandra-cluster-start)", err)
		shared.ready = true
	}
	return hosts
}

// ClusterOptions are the settings of a cluster a test owns.
type ClusterOptions struct {
	// Env is added to scripts/cassandra-cluster.sh's environment, e.g.
	// CASSANDRA_COMMITLOG_SYNC=batch or CASSANDRA_HEAP_MAX=384m.
	Env []string
}

// Cluster is a three-node Cassandra cluster a test started and owns: its
// own loopback addresses (never 127.0.0.1-4, the shared servers'), its own
// directory under t.TempDir(), stopped and wiped when the test ends. Nodes
// are numbered from 0, in the order of Hosts. The methods may be called
// from any goroutine.
type Cluster struct {
	t      testing.TB
	script string
	env    []string
	hosts  []string
}

// ownClusterSlots is how many three-address blocks 127.0.0.5 onwards hold
// clusters of tests: tests in several packages may run at once, each takes
// a free block (locked) for as long as it runs.
const ownClusterSlots = 20

// OwnCassandraCluster starts a three-node cluster of the test's own (tens of
// seconds) and returns it once it is ready. It skips under make unit, and
// outside CI when the cluster cannot start; in CI that is a failure.
func OwnCassandraCluster(t testing.TB, opts ClusterOptions) *Cluster {
	t.Helper()
	SkipServerTests(t)
	script, err := clusterScript()
	if err != nil {
		NeedServer(t, "a Cassandra cluster of the test's own", err)
	}
	var hosts []string
	for slot := 0; slot < ownClusterSlots && hosts == nil; slot++ {
		try := make([]string, 3)
		for i := range try {
			try[i] = fmt.Sprintf("127.0.0.%d", 5+3*slot+i)
		}
		unlock, ok := lockAddrs(filepath.Join(os.TempDir(), "ycsb-cassandra-cluster-"+try[0]+".lock"))
		if !ok {
			continue
		}
		if busy(try) {
			unlock()
			continue
		}
		t.Cleanup(unlock) // runs after the wipe below: cleanups run last first
		hosts = try
	}
	if hosts == nil {
		NeedServer(t, "a Cassandra cluster of the test's own", errors.New("every block of loopback addresses from 127.0.0.5 is taken"))
	}
	c := &Cluster{t: t, script: script, hosts: hosts}
	c.env = append(ServerEnv(),
		"CASSANDRA_CLUSTER_HOSTS="+strings.Join(hosts, ","),
		"CASSANDRA_CLUSTER_DIR="+filepath.Join(t.TempDir(), "cluster"))
	c.env = append(c.env, opts.Env...)
	t.Cleanup(func() {
		if err := c.run("wipe"); err != nil {
			t.Errorf("wiping the test's cluster: %v", err)
		}
	})
	NeedServer(t, "a Cassandra cluster of the test's own on "+strings.Join(hosts, ", ")+" (scripts/cassandra-cluster.sh start)", c.run("start"))
	return c
}

// busy reports whether anything listens on a CQL or internode port of hosts.
func busy(hosts []string) bool {
	for _, h := range hosts {
		for _, p := range []string{"9042", "7000"} {
			if c, err := net.DialTimeout("tcp", net.JoinHostPort(h, p), time.Second); err == nil {
				c.Close()
				return true
			}
		}
	}
	return false
}

// Hosts are the nodes' addresses (CQL port 9042 each).
func (c *Cluster) Hosts() []string { return append([]string(nil), c.hosts...) }

// Kill sends SIGKILL to node i.
func (c *Cluster) Kill(i int) error { return c.node("kill", i) }

// Freeze sends SIGSTOP to node i: it holds its connections and answers
// nothing until Thaw.
func (c *Cluster) Freeze(i int) error { return c.node("freeze", i) }

// Thaw sends SIGCONT to node i.
func (c *Cluster) Thaw(i int) error { return c.node("thaw", i) }

// Start starts node i if it is down and waits until it answers CQL and, when
// every node runs, until the cluster is ready again.
func (c *Cluster) Start(i int) error { return c.node("start-node", i) }

// CQL runs statements on node i (scripts/cassandra/cql.py: consistency ONE,
// rows as tab-separated lines).
func (c *Cluster) CQL(i int, stmts ...string) (string, error) {
	if i < 0 || i >= len(c.hosts) {
		return "", fmt.Errorf("node %d of a %d-node cluster", i, len(c.hosts))
	}
	return CassandraCQL(c.hosts[i], stmts...)
}

func (c *Cluster) node(cmd string, i int) error {
	if i < 0 || i >= len(c.hosts) {
		return fmt.Errorf("%s node %d of a %d-node cluster", cmd, i, len(c.hosts))
	}
	return c.run(cmd, fmt.Sprint(i+1))
}

func (c *Cluster) run(args ...string) error {
	cmd := exec.Command(c.script, args...)
	cmd.Env = c.env
	out, err := cmd.CombinedOutput()
	c.t.Logf("cassandra-cluster.sh %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
	if err != nil {
		return fmt.Errorf("scripts/cassandra-cluster.sh %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// CassandraCQL runs statements on the node at host:9042 with
// scripts/cassandra/cql.py (consistency ONE) and returns its output: rows as
// tab-separated lines. Each statement may take 30 s: a schema change on a
// loaded machine's node can take more than cql.py's default 10 s.
func CassandraCQL(host string, stmts ...string) (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	args := append([]string{filepath.Join(root, "scripts", "cassandra", "cql.py"), "--host", host, "--port", "9042", "--timeout", "30"}, stmts...)
	var stdout, stderr strings.Builder
	cmd := exec.Command("python3", args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("cql.py on %s: %v: %s", host, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

func clusterScript() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "scripts", "cassandra-cluster.sh"), nil
}

// RepoRoot is the repository's top directory: the nearest directory above
// the working directory (a test's package) that holds go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = up
	}
}

// NodeLoad is what one node counted (Cassandra 5.0's system_views): the
// reads, writes and range scans of a table it coordinated and those it
// served from its own replica, and the messages it sent to other nodes for
// any table (internode_outbound).
type NodeLoad struct {
	CoordRead, CoordWrite, CoordScan int64
	LocalRead, LocalWrite, LocalScan int64
	InternodeSent                    int64
}

// Sub is the load counted since before.
func (l NodeLoad) Sub(before NodeLoad) NodeLoad {
	return NodeLoad{
		l.CoordRead - before.CoordRead, l.CoordWrite - before.CoordWrite, l.CoordScan - before.CoordScan,
		l.LocalRead - before.LocalRead, l.LocalWrite - before.LocalWrite, l.LocalScan - before.LocalScan,
		l.InternodeSent - before.InternodeSent,
	}
}

// CassandraLoad reads the counters of the node at host:9042 for
// keyspace.table.
func CassandraLoad(host, keyspace, table string) (NodeLoad, error) {
	var l NodeLoad
	where := fmt.Sprintf(" WHERE keyspace_name = '%s' AND table_name = '%s'", keyspace, table)
	fields := []struct {
		view string
		n    *int64
	}{
		{"coordinator_read_latency", &l.CoordRead}, {"coordinator_write_latency", &l.CoordWrite}, {"coordinator_scan_latency", &l.CoordScan},
		{"local_read_latency", &l.LocalRead}, {"local_write_latency", &l.LocalWrite}, {"local_scan_latency", &l.LocalScan},
	}
	stmts := make([]string, 0, len(fields)+1)
	for _, f := range fields {
		stmts = append(stmts, "SELECT count FROM system_views."+f.view+where)
	}
	stmts = append(stmts, "SELECT sent_count FROM system_views.internode_outbound")
	out, err := CassandraCQL(host, append([]string{"--header"}, stmts...)...)
	if err != nil {
		return l, err
	}
	// Each statement's rows follow a line of its column names: a table view
	// has one row, or none before the table's first request on this node
	// (zero); internode_outbound one per peer.
	view := -1
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		switch line {
		case "count":
			view++
			continue
		case "sent_count":
			view = len(fields)
			continue
		}
		if view < 0 {
			return l, fmt.Errorf("%s: unexpected counters:\n%s", host, out)
		}
		var n int64
		if _, err := fmt.Sscan(line, &n); err != nil {
			return l, fmt.Errorf("%s: a count %q: %v", host, line, err)
		}
		if view < len(fields) {
			*fields[view].n = n
		} else {
			l.InternodeSent += n
		}
	}
	return l, nil
}

// clusterStartWait bounds the wait for a start of the shared cluster that
// scripts/test.sh began in the background (the script's own wait for a
// node is 240 s; three start at once).
const clusterStartWait = 6 * time.Minute

// awaitClusterStart waits, when YCSB_CLUSTER_STARTED names a file (set by
// scripts/test.sh, which starts the cluster beside the tests' build), until
// the file says how the start ended: "ready", or "failed".
func awaitClusterStart() error {
	path := os.Getenv("YCSB_CLUSTER_STARTED")
	if path == "" {
		return nil
	}
	for deadline := time.Now().Add(clusterStartWait); ; {
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("YCSB_CLUSTER_STARTED=%s: %w", path, err)
		}
		switch state := strings.TrimSpace(string(b)); state {
		case "ready":
			return nil
		case "":
			if time.Now().After(deadline) {
				return fmt.Errorf("the cluster's start (YCSB_CLUSTER_STARTED=%s) had not ended after %v", path, clusterStartWait)
			}
			time.Sleep(500 * time.Millisecond)
		default:
			return fmt.Errorf("the cluster's start ended: %s (scripts/test.sh prints its log)", state)
		}
	}
}
