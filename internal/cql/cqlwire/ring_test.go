package cqlwire

import (
	"encoding/hex"
	"errors"
	"net"
	"slices"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// fakeCluster is a session's view of a cluster.
type fakeCluster struct {
	hosts []*gocql.HostInfo
	ks    *gocql.KeyspaceMetadata
}

func (c *fakeCluster) GetHosts() []*gocql.HostInfo { return c.hosts }
func (c *fakeCluster) KeyspaceMetadata(string) (*gocql.KeyspaceMetadata, error) {
	if c.ks == nil {
		return nil, errors.New("keyspace not found")
	}
	return c.ks, nil
}

func testHost(t *testing.T, ip, dc, rack string, tokens ...string) *gocql.HostInfo {
	t.Helper()
	h, err := gocql.NewTestHostInfoFromRow(map[string]any{
		"rpc_address": net.ParseIP(ip), "data_center": dc, "rack": rack, "tokens": tokens,
		"partitioner": "org.apache.cassandra.dht.Murmur3Partitioner",
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Keys whose tokens a Cassandra node gave (internal/cql/murmur3's test).
var (
	keyLow  = mustHex("61")                               // -8839064797231613815
	keyMid  = mustHex("68656c6c6f")                       // -3758069500696749310
	keyHigh = mustHex("000102030405060708090a0b0c0d0e0f") // 4920504430128807728
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func names(hs []*gocql.HostInfo) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.ConnectAddress().String())
	}
	return out
}

func TestRingReplicas(t *testing.T) {
	// a: (4e18, -6e18] round the end, b: (-6e18, -1e18], c: (-1e18, 4e18]
	a := testHost(t, "10.0.0.1", "dc1", "r1", "-6000000000000000000")
	b := testHost(t, "10.0.0.2", "dc1", "r1", "-1000000000000000000")
	c := testHost(t, "10.0.0.3", "dc1", "r2", "4000000000000000000")
	// dc2's nodes sit between dc1's
	d := testHost(t, "10.0.1.1", "dc2", "r1", "-5000000000000000000")
	e := testHost(t, "10.0.1.2", "dc2", "r2", "5000000000000000000")
	vnodes := testHost(t, "10.0.2.1", "dc1", "r1", "-6000000000000000000", "0")
	other := testHost(t, "10.0.2.2", "dc1", "r1", "-3000000000000000000", "3000000000000000000")
	all := func(*gocql.HostInfo) bool { return true }
	dc1 := func(h *gocql.HostInfo) bool { return h.DataCenter() == "dc1" }
	simple := func(rf string) *gocql.KeyspaceMetadata {
		return &gocql.KeyspaceMetadata{Name: "ks", StrategyClass: "org.apache.cassandra.locator.SimpleStrategy", StrategyOptions: map[string]any{"replication_factor": rf}}
	}
	nts := func(opts map[string]any) *gocql.KeyspaceMetadata {
		return &gocql.KeyspaceMetadata{Name: "ks", StrategyClass: "org.apache.cassandra.locator.NetworkTopologyStrategy", StrategyOptions: opts}
	}
	for _, tc := range []struct {
		name  string
		hosts []*gocql.HostInfo
		ks    *gocql.KeyspaceMetadata
		local func(*gocql.HostInfo) bool
		key   []byte
		want  []string
	}{
		{"simple rf 1, first range", []*gocql.HostInfo{a, b, c}, simple("1"), all, keyLow, []string{"10.0.0.1"}},
		{"simple rf 2", []*gocql.HostInfo{a, b, c}, simple("2"), all, keyMid, []string{"10.0.0.2", "10.0.0.3"}},
		{"simple rf 2, round the end", []*gocql.HostInfo{a, b, c}, simple("2"), all, keyHigh, []string{"10.0.0.1", "10.0.0.2"}},
		{"simple rf above the nodes", []*gocql.HostInfo{a, b, c}, simple("5"), all, keyMid, []string{"10.0.0.2", "10.0.0.3", "10.0.0.1"}},
		{"simple, a node's tokens once", []*gocql.HostInfo{vnodes, other}, simple("2"), all, keyLow, []string{"10.0.2.1", "10.0.2.2"}},
		// dc1 has racks r1 (a, b) and r2 (c): rf 2 takes a rack each
		// first, so from b's range on c before a
		{"nts racks first", []*gocql.HostInfo{a, b, c, d, e}, nts(map[string]any{"class": "NetworkTopologyStrategy", "dc1": "2"}), all, keyMid, []string{"10.0.0.2", "10.0.0.3"}},
		{"nts racks first, round the end", []*gocql.HostInfo{a, b, c, d, e}, nts(map[string]any{"dc1": "2"}), all, keyLow, []string{"10.0.0.1", "10.0.0.3"}},
		// rf 3 over 2 racks allows one repeat, taken as met
		{"nts one repeat", []*gocql.HostInfo{a, b, c, d, e}, nts(map[string]any{"dc1": "3"}), all, keyLow, []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"}},
		{"nts two dcs", []*gocql.HostInfo{a, b, c, d, e}, nts(map[string]any{"dc1": "1", "dc2": "1"}), all, keyLow, []string{"10.0.0.1", "10.0.1.1"}},
		{"nts two dcs, dc1 local", []*gocql.HostInfo{a, b, c, d, e}, nts(map[string]any{"dc1": "1", "dc2": "1"}), dc1, keyLow, []string{"10.0.0.1"}},
		{"nts no local replica", []*gocql.HostInfo{a, b, c, d, e}, nts(map[string]any{"dc2": "2"}), dc1, keyLow, nil},
		{"nts dc of no node", []*gocql.HostInfo{a, b, c}, nts(map[string]any{"dc1": "1", "dc9": "3"}), all, keyHigh, []string{"10.0.0.1"}},
		{"nts transient", []*gocql.HostInfo{a, b, c}, nts(map[string]any{"dc1": "2/1"}), all, keyMid, []string{"10.0.0.2", "10.0.0.3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Ring{src: &fakeCluster{hosts: tc.hosts, ks: tc.ks}, keyspace: "ks", local: tc.local}
			if err := r.refresh(); err != nil {
				t.Fatal(err)
			}
			got := names(r.Replicas(tc.key))
			if tc.name == "nts one repeat" || tc.name == "nts two dcs" || tc.name == "simple rf above the nodes" {
				slices.Sort(got)
				slices.Sort(tc.want)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("replicas %v, want %v", got, tc.want)
			}
		})
	}
}

// A ring that cannot be built is not known: the policy routes.
func TestRingUnknown(t *testing.T) {
	a := testHost(t, "10.0.0.1", "dc1", "r1", "0")
	random, err := gocql.NewTestHostInfoFromRow(map[string]any{"rpc_address": net.ParseIP("10.0.0.2"), "tokens": []string{"12345678901234567890123"}, "partitioner": "org.apache.cassandra.dht.RandomPartitioner"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    *fakeCluster
	}{
		{"keyspace unknown", &fakeCluster{hosts: []*gocql.HostInfo{a}}},
		{"local strategy", &fakeCluster{hosts: []*gocql.HostInfo{a}, ks: &gocql.KeyspaceMetadata{Name: "system", StrategyClass: "org.apache.cassandra.locator.LocalStrategy"}}},
		{"bad factor", &fakeCluster{hosts: []*gocql.HostInfo{a}, ks: &gocql.KeyspaceMetadata{Name: "ks", StrategyClass: "SimpleStrategy", StrategyOptions: map[string]any{"replication_factor": "x"}}}},
		{"no tokens", &fakeCluster{hosts: []*gocql.HostInfo{testHost(t, "10.0.0.3", "dc1", "r1")}, ks: &gocql.KeyspaceMetadata{Name: "ks", StrategyClass: "SimpleStrategy", StrategyOptions: map[string]any{"replication_factor": "1"}}}},
		{"random partitioner", &fakeCluster{hosts: []*gocql.HostInfo{random}, ks: &gocql.KeyspaceMetadata{Name: "ks", StrategyClass: "SimpleStrategy", StrategyOptions: map[string]any{"replication_factor": "1"}}}},
	} {
		r := &Ring{src: tc.c, keyspace: "ks", local: func(*gocql.HostInfo) bool { return true }}
		r.cur.Store(&ringTable{tokens: []int64{0}, replicas: [][]*gocql.HostInfo{{a}}}) // known before
		if err := r.refresh(); err == nil {
			t.Errorf("%s: built", tc.name)
		}
		if got := r.Replicas(keyLow); got != nil {
			t.Errorf("%s: replicas %v", tc.name, names(got))
		}
	}
}

// The lookup allocates nothing.
func TestRingAllocates(t *testing.T) {
	hosts := []*gocql.HostInfo{testHost(t, "10.0.0.1", "dc1", "r1", "-6000000000000000000", "100"), testHost(t, "10.0.0.2", "dc1", "r1", "-1000000000000000000")}
	r := &Ring{src: &fakeCluster{hosts: hosts, ks: &gocql.KeyspaceMetadata{Name: "ks", StrategyClass: "SimpleStrategy", StrategyOptions: map[string]any{"replication_factor": "2"}}}, keyspace: "ks", local: func(*gocql.HostInfo) bool { return true }}
	if err := r.refresh(); err != nil {
		t.Fatal(err)
	}
	var h []*gocql.HostInfo
	if n := testing.AllocsPerRun(100, func() { h = r.Replicas(keyMid) }); n != 0 {
		t.Errorf("%v allocations a lookup", n)
	}
	if len(h) == 0 {
		t.Error("no replica")
	}
}
