package cqlwire

import (
	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// Router picks the node of each request as the driver's host selection
// policy would (token-aware when asked, only nodes the driver holds up).
// It is one goroutine's.
type Router struct {
	pool       *Pool
	policy     gocql.HostSelectionPolicy
	replicas   replicaPicker // nil without the patched driver's lookup
	tokenAware bool
	route      routeStmt
	hosts      map[*gocql.HostInfo]*Host
	// the last node picked, which on a one-node cluster is every one
	lastInfo *gocql.HostInfo
	last     *Host
}

// replicaPicker is the patched driver's allocation-free token-aware
// lookup (third_party/gocql/PATCHES.md).
type replicaPicker interface {
	Replica(keyspace string, routingKey []byte) *gocql.HostInfo
}

// Router returns a router over policy, the one the driver's session was
// created with (so initialised with the ring and the nodes' states), for
// statements of keyspace.
func (p *Pool) Router(policy gocql.HostSelectionPolicy, keyspace string, tokenAware bool) *Router {
	r := &Router{pool: p, policy: policy, tokenAware: tokenAware, hosts: map[*gocql.HostInfo]*Host{}}
	r.route.keyspace = keyspace
	if tokenAware {
		r.replicas, _ = policy.(replicaPicker)
	}
	return r
}

// Host is the node for a statement on table with routingKey (the
// partition key, as the driver encodes it).
func (r *Router) Host(table string, routingKey []byte) (*Host, error) {
	var hi *gocql.HostInfo
	if r.replicas != nil {
		hi = r.replicas.Replica(r.route.keyspace, routingKey)
	}
	if hi == nil {
		r.route.table = table
		if r.tokenAware {
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
