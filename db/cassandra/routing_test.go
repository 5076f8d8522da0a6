package cassandra

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// The routing tests run against the shared three-node cluster
// (make cassandra-cluster-start) and read what each node counted
// (system_views: requests coordinated, requests served from its own
// replica, messages sent to the other nodes) before and after a run, in a
// keyspace of their own.

// routeOps is the operations of each run: enough that requests forwarded
// between nodes (two messages each) stand far above the background
// (gossip: a few messages a second per node).
const routeOps = 3000

// clusterLoad is what every node of hosts counted for keyspace.table, the
// nodes asked at once.
func clusterLoad(t *testing.T, hosts []string, keyspace, table string) []ycsbtest.NodeLoad {
	t.Helper()
	loads := make([]ycsbtest.NodeLoad, len(hosts))
	errs := make([]error, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() { loads[i], errs[i] = ycsbtest.CassandraLoad(h, keyspace, table) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return loads
}

// routingMu keeps the routing tests, which run beside the package's other
// long tests, from running at the same time as each other: what they
// check is each table's counters, but their runs would slow each other.
var routingMu sync.Mutex

// routingTest is a routing test's start: it runs in parallel with the
// package's other long tests but alone among the routing tests. It
// returns the shared cluster's hosts.
func routingTest(t *testing.T) []string {
	t.Helper()
	noServers(t)
	t.Parallel()
	hosts := ycsbtest.CassandraCluster(t)
	routingMu.Lock()
	t.Cleanup(routingMu.Unlock)
	return hosts
}

func loadDelta(after, before []ycsbtest.NodeLoad) []ycsbtest.NodeLoad {
	d := make([]ycsbtest.NodeLoad, len(after))
	for i := range after {
		d[i] = after[i].Sub(before[i])
	}
	return d
}

// dropKeyspace drops keyspace now (or fails t) and when top ends.
func dropKeyspace(t, top *testing.T, host, keyspace string) {
	t.Helper()
	drop := func() error {
		_, err := ycsbtest.CassandraCQL(host, "DROP KEYSPACE IF EXISTS "+keyspace)
		return err
	}
	if err := drop(); err != nil {
		t.Fatal(err)
	}
	top.Cleanup(func() {
		if err := drop(); err != nil {
			top.Errorf("dropping %s: %v", keyspace, err)
		}
	})
}

// routing is what a run's requests did across the nodes.
type routing struct {
	coord     []int64 // requests coordinated by each node
	local     []int64 // requests served from each node's own replica
	internode int64   // messages the nodes sent each other
}

func routingOf(d []ycsbtest.NodeLoad) routing {
	var r routing
	for _, l := range d {
		r.coord = append(r.coord, l.CoordRead+l.CoordWrite+l.CoordScan)
		r.local = append(r.local, l.LocalRead+l.LocalWrite+l.LocalScan)
		r.internode += l.InternodeSent
	}
	return r
}

func (r routing) total() int64 {
	var n int64
	for _, c := range r.coord {
		n += c
	}
	return n
}

func (r routing) String() string {
	return fmt.Sprintf("coordinated %v, served locally %v, internode messages %d", r.coord, r.local, r.internode)
}

// checkOwnerRouted: with one replica, every request was coordinated by the
// node that holds its partition: each node served locally exactly what it
// coordinated (a request sent elsewhere counts on one node as coordinated
// and on another as served). The internode messages, logged, are not
// checked: they count every table's, and other tests may be using the
// cluster at the same time; alone on it a run here counted 70-120, against
// 4,000 with tokenaware=false.
func checkOwnerRouted(t *testing.T, d []ycsbtest.NodeLoad, ops int64) {
	t.Helper()
	r := routingOf(d)
	t.Logf("%v", r)
	for i, l := range d {
		if l.CoordRead != l.LocalRead || l.CoordWrite != l.LocalWrite {
			t.Errorf("node %d coordinated %d reads and %d writes but served %d and %d itself: requests reached a node that is not their replica",
				i, l.CoordRead, l.CoordWrite, l.LocalRead, l.LocalWrite)
		}
	}
	if r.total() < ops {
		t.Errorf("the nodes coordinated %d requests, want at least the %d operations", r.total(), ops)
	}
}

// checkSpread: every node coordinated between lo and hi of the requests.
func checkSpread(t *testing.T, d []ycsbtest.NodeLoad, lo, hi float64) {
	t.Helper()
	r := routingOf(d)
	total := r.total()
	if total == 0 {
		t.Fatalf("no requests counted: %v", r)
	}
	for i, c := range r.coord {
		if f := float64(c) / float64(total); f < lo || f > hi {
			t.Errorf("node %d coordinated %.0f%% of the requests (%v), want %.0f%%-%.0f%%", i, 100*f, r.coord, 100*lo, 100*hi)
		}
	}
}

// checkForwarded: not routed by token, most requests reached a node that is
// not their replica (with one replica and three nodes, two in three) and
// were forwarded: at least half an internode message per operation (other
// tests' messages only add to it).
func checkForwarded(t *testing.T, d []ycsbtest.NodeLoad, ops int64) {
	t.Helper()
	r := routingOf(d)
	t.Logf("%v", r)
	if r.internode < ops/2 {
		t.Errorf("%d internode messages for %d operations sent to any node: want at least %d", r.internode, ops, ops/2)
	}
}

// TestClusterRoutingCQL runs `ycsb load` and `ycsb run cassandra-cql`
// against the cluster on both request paths (the lean path; the driver's,
// which protocol v5 takes; scans, always the driver's) and checks, from the
// nodes' counters, where the requests went.
func TestClusterRoutingCQL(t *testing.T) {
	hosts := routingTest(t)
	mix := []string{"-p", "readproportion=0.5", "-p", "updateproportion=0.5", "-p", "scanproportion=0", "-p", "insertproportion=0"}
	scans := []string{"-p", "readproportion=0", "-p", "updateproportion=0", "-p", "scanproportion=1", "-p", "insertproportion=0",
		"-p", "maxscanlength=5", "-p", "scanlengthdistribution=uniform"}
	cases := []struct {
		name  string
		rf    int
		props []string
		check func(t *testing.T, d []ycsbtest.NodeLoad)
	}{
		{"lean_rf1", 1, mix, func(t *testing.T, d []ycsbtest.NodeLoad) { checkOwnerRouted(t, d, routeOps) }},
		{"driver_rf1", 1, append([]string{"-p", "cassandra.protocolversion=5"}, mix...), func(t *testing.T, d []ycsbtest.NodeLoad) {
			checkOwnerRouted(t, d, routeOps)
		}},
		{"lean_not_tokenaware", 1, append([]string{"-p", "cassandra.tokenaware=false"}, mix...), func(t *testing.T, d []ycsbtest.NodeLoad) {
			checkForwarded(t, d, routeOps)
			checkSpread(t, d, 0.2, 0.47)
		}},
		{"driver_not_tokenaware", 1, append([]string{"-p", "cassandra.tokenaware=false", "-p", "cassandra.protocolversion=5"}, mix...), func(t *testing.T, d []ycsbtest.NodeLoad) {
			checkForwarded(t, d, routeOps)
			checkSpread(t, d, 0.2, 0.47)
		}},
		// A scan of up to 5 rows from a key of 1000 seldom crosses into the
		// next node's range: routed to the start key's replica, each node
		// served about what it coordinated (within 3% of the scans). A weaker
		// check than the reads' and writes' (sent round robin the counts would
		// be close too); alone on the cluster it counted about 90 internode
		// messages, against some 4,000 when forwarded.
		{"scan_rf1", 1, scans, func(t *testing.T, d []ycsbtest.NodeLoad) {
			t.Logf("%v", routingOf(d))
			var total int64
			for i, l := range d {
				total += l.CoordScan
				if diff := l.CoordScan - l.LocalScan; diff > routeOps*3/100 || -diff > routeOps*3/100 {
					t.Errorf("node %d coordinated %d scans and served %d", i, l.CoordScan, l.LocalScan)
				}
			}
			if total != routeOps {
				t.Errorf("%d scans coordinated, want %d", total, routeOps)
			}
		}},
		// Three replicas of each key: the requests spread evenly over the
		// nodes, each a third within ten points.
		{"lean_rf3", 3, mix, func(t *testing.T, d []ycsbtest.NodeLoad) {
			t.Logf("%v", routingOf(d))
			checkSpread(t, d, 0.23, 0.43)
		}},
		{"driver_rf3", 3, append([]string{"-p", "cassandra.protocolversion=5"}, mix...), func(t *testing.T, d []ycsbtest.NodeLoad) {
			t.Logf("%v", routingOf(d))
			checkSpread(t, d, 0.23, 0.43)
		}},
	}
	// One keyspace per replication factor, loaded once: the counters are
	// read before and after each run.
	loaded := map[int]bool{}
	top := t
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ks := fmt.Sprintf("routing_cql_rf%d", c.rf)
			common := []string{"-P", "workloads/workloada", "-p", "hosts=" + strings.Join(hosts, ","), "-p", "cassandra.keyspace=" + ks,
				"-p", "recordcount=1000", "-p", "requestdistribution=uniform", "-threads", "4"}
			if !loaded[c.rf] {
				dropKeyspace(t, top, hosts[0], ks)
				load := append([]string{"load", "cassandra-cql"}, common...)
				load = append(load, "-p", "cassandra.createschema=true", "-p", fmt.Sprintf("cassandra.replicationfactor=%d", c.rf))
				if stdout, stderr, code := ycsb(t, 2*time.Minute, load...); code != 0 {
					t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
				}
				loaded[c.rf] = true
			}
			before := clusterLoad(t, hosts, ks, "usertable")
			run := append([]string{"run", "cassandra-cql"}, common...)
			run = append(run, c.props...)
			run = append(run, "-p", fmt.Sprintf("operationcount=%d", routeOps))
			stdout, stderr, code := ycsb(t, 2*time.Minute, run...)
			if code != 0 || strings.Contains(stdout, "Return=SERVICE_UNAVAILABLE") || strings.Contains(stdout, "Return=ERROR") {
				t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			c.check(t, loadDelta(clusterLoad(t, hosts, ks, "usertable"), before))
		})
	}
}

// checkOnlyFirst: node 0 coordinated every request, the others none.
func checkOnlyFirst(t *testing.T, d []ycsbtest.NodeLoad) {
	t.Helper()
	r := routingOf(d)
	t.Logf("%v", r)
	if r.coord[0] == 0 || r.coord[0] != r.total() {
		t.Errorf("coordinated %v: want every request on node 0, the only one whitelisted", r.coord)
	}
}

// TestClusterRoutingStress does the same with `ycsb stress write` and
// `read` (each operation's partition is its key) on the lean path and the
// driver's (protocol v3), and checks -node whitelist: only the nodes given
// coordinate (without it the others, discovered, are routed to as well).
func TestClusterRoutingStress(t *testing.T) {
	hosts := routingTest(t)
	all := []string{strings.Join(hosts, ",")}
	driver := []string{"-mode", "native", "cql3", "protocolVersion=3"}
	cases := []struct {
		name  string
		rf    int
		node  []string // -node's words
		mode  []string
		check func(t *testing.T, d []ycsbtest.NodeLoad)
	}{
		{"lean_rf1", 1, all, nil, func(t *testing.T, d []ycsbtest.NodeLoad) { checkOwnerRouted(t, d, routeOps) }},
		{"driver_rf1", 1, all, driver, func(t *testing.T, d []ycsbtest.NodeLoad) { checkOwnerRouted(t, d, routeOps) }},
		{"lean_rf3", 3, all, nil, func(t *testing.T, d []ycsbtest.NodeLoad) {
			t.Logf("%v", routingOf(d))
			checkSpread(t, d, 0.23, 0.43)
		}},
		{"one_contact_point", 1, []string{hosts[0]}, nil, func(t *testing.T, d []ycsbtest.NodeLoad) { checkOwnerRouted(t, d, routeOps) }},
		{"lean_whitelist", 1, []string{hosts[0], "whitelist"}, nil, checkOnlyFirst},
		{"driver_whitelist", 1, []string{hosts[0], "whitelist"}, driver, checkOnlyFirst},
	}
	top := t
	made := map[int]bool{} // a keyspace per replication factor
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ks := fmt.Sprintf("routing_stress_rf%d", c.rf)
			stress := func(cmd string, n int) {
				args := []string{"stress", cmd, fmt.Sprintf("n=%d", n), "no-warmup", "cl=ONE",
					"-pop", fmt.Sprintf("seq=1..%d", n),
					"-schema", "keyspace=" + ks, fmt.Sprintf("replication(factor=%d)", c.rf),
					"-rate", "threads=4", "-log", "no-settings", "-node"}
				args = append(args, c.node...)
				args = append(args, c.mode...)
				if stdout, stderr, code := ycsb(t, 2*time.Minute, args...); code != 0 {
					t.Fatalf("stress %s: exit %d\n%s\n%s", cmd, code, stdout, stderr)
				}
			}
			// The schema first: the nodes' views of a table's counters take
			// no keyspace that does not exist (a server error).
			if !made[c.rf] {
				dropKeyspace(t, top, hosts[0], ks)
				stress("write", 1)
				made[c.rf] = true
			}
			before := clusterLoad(t, hosts, ks, "standard1")
			stress("write", routeOps/2)
			stress("read", routeOps/2)
			c.check(t, loadDelta(clusterLoad(t, hosts, ks, "standard1"), before))
		})
	}
}
