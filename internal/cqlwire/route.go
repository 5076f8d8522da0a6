package cqlwire

import (
	"math/rand/v2"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// Router picks the node of each request as the driver's token-aware host
// selection policy would: a local replica that is up, the first from a
// random one of the partition's replicas in ring order (the policy shuffles
// replicas by default), looked up in the pool's own ring, which allocates
// nothing; else the policy's choice (no ring, no replica up, or routing not
// token-aware). It is one goroutine's.
type Router struct {
	pool   *Pool
	policy gocql.HostSelectionPolicy
	ring   *Ring // nil when not token-aware
	route  routeStmt
	hosts  map[*gocql.HostInfo]*Host
	// the last node picked, which on a one-node cluster is every one
	lastInfo *gocql.HostInfo
	last     *Host
}

// Router returns a router for statements of keyspace over policy, the one
// the driver's session src was created with (so initialised with the nodes'
// states). With tokenAware, requests go to replicas of their partition by
// the pool's ring of keyspace, built from src.
func (p *Pool) Router(src Cluster, policy gocql.HostSelectionPolicy, keyspace string, tokenAware bool) *Router {
	r := &Router{pool: p, policy: policy, hosts: map[*gocql.HostInfo]*Host{}}
	r.route.keyspace = keyspace
	if tokenAware {
		r.ring = p.ring(src, keyspace, policy.IsLocal)
	}
	return r
}

// Host is the node for a statement on table with routingKey (the
// partition key, as the driver encodes it).
func (r *Router) Host(table string, routingKey []byte) (*Host, error) {
	var hi *gocql.HostInfo
	if r.ring != nil && routingKey != nil {
		hi = upReplica(r.ring.Replicas(routingKey))
	}
	if hi == nil {
		r.route.table = table
		if r.ring != nil {
			r.route.key = routingKey
		}
		sh := r.policy.Pick(&r.route)()
		r.route.key = nil
		if sh == nil {
			return nil, gocql.ErrNoConnections
		}
		hi = sh.Info()
	}
	if hi == r.lastInfo {
		return r.last, nil
	}
	h := r.hosts[hi]
	if h == nil {
		h = r.pool.Host(hi.ConnectAddressAndPort(), hi.HostnameAndPort())
		r.hosts[hi] = h
	}
	r.lastInfo, r.last = hi, h
	return h, nil
}

// upReplica is the first of replicas that is up, from a random one on, or
// nil.
func upReplica(replicas []*gocql.HostInfo) *gocql.HostInfo {
	n := len(replicas)
	if n == 0 {
		return nil
	}
	start := 0
	if n > 1 {
		start = rand.IntN(n)
	}
	for i := range n {
		if h := replicas[(start+i)%n]; h.IsUp() {
			return h
		}
	}
	return nil
}

// routeStmt is what a host selection policy reads of a statement.
type routeStmt struct {
	keyspace, table string
	key             []byte
}

func (r *routeStmt) GetRoutingKey() ([]byte, error) { return r.key, nil }
func (r *routeStmt) Keyspace() string               { return r.keyspace }
func (r *routeStmt) Table() string                  { return r.table }
func (r *routeStmt) IsIdempotent() bool             { return true }
func (r *routeStmt) GetHostID() string              { return "" }
func (r *routeStmt) Statement() gocql.Statement     { return nil }
