package cqlwire

import (
	"math"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// threeReplicas is a router over three nodes that each replicate every
// partition (RF=3), with the driver's round-robin policy behind it.
func threeReplicas(t *testing.T) (*Router, []*gocql.HostInfo) {
	t.Helper()
	hosts := []*gocql.HostInfo{
		testHost(t, "10.0.0.1", "dc1", "r1", "-6000000000000000000"),
		testHost(t, "10.0.0.2", "dc1", "r1", "0"),
		testHost(t, "10.0.0.3", "dc1", "r1", "6000000000000000000"),
	}
	p := NewPool(testOptions())
	t.Cleanup(p.Close)
	policy := gocql.RoundRobinHostPolicy()
	for _, h := range hosts {
		policy.AddHost(h)
	}
	src := &fakeCluster{hosts: hosts, ks: &gocql.KeyspaceMetadata{Name: "ks", StrategyClass: "SimpleStrategy",
		StrategyOptions: map[string]any{"replication_factor": "3"}}}
	return p.Router(src, policy, "ks", true), hosts
}

func markDown(h *Host) { h.downUntil.Store(math.MaxInt64) }

// A replica whose last dial failed is not picked while another is up,
// and every replica is picked when none is down.
func TestRouterPassesOverDownHost(t *testing.T) {
	r, _ := threeReplicas(t)
	seen := map[*Host]int{}
	for range 300 {
		h, err := r.Host("t", keyMid)
		if err != nil {
			t.Fatal(err)
		}
		seen[h]++
	}
	if len(seen) != 3 {
		t.Fatalf("picked %d nodes of 3: %v", len(seen), seen)
	}
	var dead *Host
	for h := range seen {
		dead = h
		break
	}
	markDown(dead)
	for range 300 {
		if h, _ := r.Host("t", keyMid); h == dead {
			t.Fatalf("picked %s, down, with two replicas up", h.Addr())
		}
	}
	// All down: one of them still (the request fails at once, counted).
	for h := range seen {
		markDown(h)
	}
	if h, err := r.Host("t", keyMid); h == nil || err != nil {
		t.Fatalf("all down: %v, %v; want a node", h, err)
	}
}

// Other gives another replica than the one that failed, a down one only
// when nothing else is left, and the failed one when it is alone.
func TestRouterOther(t *testing.T) {
	r, _ := threeReplicas(t)
	first, _ := r.Host("t", keyMid)
	for range 300 {
		h, err := r.Other("t", keyMid, first)
		if err != nil || h == first {
			t.Fatalf("Other(%s) = %v, %v", first.Addr(), h, err)
		}
	}
	second, _ := r.Other("t", keyMid, first)
	markDown(second)
	for range 300 {
		if h, _ := r.Other("t", keyMid, first); h == first || h == second {
			t.Fatalf("Other(%s) with %s down = %s", first.Addr(), second.Addr(), h.Addr())
		}
	}
	// Without a routing key, the policy's plan: still another node.
	for range 30 {
		if h, _ := r.Other("t", nil, first); h == first {
			t.Fatalf("Other without a key gave the failed node")
		}
	}

	one := NewPool(testOptions())
	t.Cleanup(one.Close)
	hi := testHost(t, "10.0.0.9", "dc1", "r1", "0")
	policy := gocql.RoundRobinHostPolicy()
	policy.AddHost(hi)
	solo := one.Router(&fakeCluster{hosts: []*gocql.HostInfo{hi}, ks: &gocql.KeyspaceMetadata{Name: "ks",
		StrategyClass: "SimpleStrategy", StrategyOptions: map[string]any{"replication_factor": "1"}}}, policy, "ks", true)
	only, _ := solo.Host("t", keyMid)
	if h, err := solo.Other("t", keyMid, only); h != only || err != nil {
		t.Fatalf("one node: Other = %v, %v; want the node itself", h, err)
	}
}

// Picking a node, first or other, allocates nothing.
func TestRouterAllocates(t *testing.T) {
	r, _ := threeReplicas(t)
	first, _ := r.Host("t", keyMid)
	r.Other("t", keyMid, first)
	if n := testing.AllocsPerRun(200, func() {
		h, _ := r.Host("t", keyMid)
		r.Other("t", keyMid, h)
	}); n != 0 {
		t.Errorf("%v allocations a pick", n)
	}
}
