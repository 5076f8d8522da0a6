package ycsbtest

import (
	"slices"
	"strings"
	"testing"
)

func TestCassandraCluster(t *testing.T) {
	hosts := CassandraCluster(t)
	for _, h := range hosts {
		out, err := CassandraCQL(h, "SELECT listen_address FROM system.local", "SELECT peer FROM system.peers_v2")
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Fields(out)
		slices.Sort(got)
		if !slices.Equal(got, hosts) {
			t.Errorf("node %s knows %v, want itself and its peers %v", h, got, hosts)
		}
	}
}

// TestOwnCassandraCluster starts a cluster of the test's own and stops,
// freezes and starts its nodes.
func TestOwnCassandraCluster(t *testing.T) {
	c := OwnCassandraCluster(t, ClusterOptions{})
	hosts := c.Hosts()
	if len(hosts) != 3 {
		t.Fatalf("hosts %v", hosts)
	}
	for _, h := range hosts {
		if slices.Contains([]string{"127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"}, h) {
			t.Fatalf("own cluster on %s, an address of the shared servers", h)
		}
	}
	answers := func(i int) bool {
		_, err := c.CQL(i, "SELECT release_version FROM system.local")
		return err == nil
	}
	for _, bad := range []int{-1, 3} {
		if err := c.Kill(bad); err == nil {
			t.Errorf("Kill(%d) took a node number out of range", bad)
		}
	}
	if err := c.Freeze(1); err != nil {
		t.Fatal(err)
	}
	if answers(1) {
		t.Error("a frozen node answers CQL")
	}
	if err := c.Thaw(1); err != nil {
		t.Fatal(err)
	}
	if !answers(1) {
		t.Error("a thawed node does not answer CQL")
	}
	if err := c.Kill(2); err != nil {
		t.Fatal(err)
	}
	if answers(2) {
		t.Error("a killed node answers CQL")
	}
	if !answers(0) {
		t.Error("node 0 stopped answering when node 2 was killed")
	}
	if err := c.Start(2); err != nil {
		t.Fatal(err)
	}
	if !answers(2) {
		t.Error("a started node does not answer CQL")
	}
}
