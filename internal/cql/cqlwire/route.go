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
// partition key, as the driver encodes it): a replica, from a random one
// on, that the driver's session has up and whose last dial did not fail
// within the pool's Retry (Host.Down); else the driver's policy's choice
// (no ring, no replica up, or routing not token-aware), passing over a
// down node while another is left.
func (r *Router) Host(table string, routingKey []byte) (*Host, error) {
	return r.pick(table, routingKey, nil)
}

// Other is Host for a request that failed on not, or that goes a second
// time beside it (speculation): another replica when one is up, else
// another node of the policy's, else not itself.
func (r *Router) Other(table string, routingKey []byte, not *Host) (*Host, error) {
	return r.pick(table, routingKey, not)
}

// maxPolicyHosts bounds the nodes of the policy's plan looked at for one
// that is neither excluded nor down.
const maxPolicyHosts = 16

func (r *Router) pick(table string, routingKey []byte, not *Host) (*Host, error) {
	var down *Host // a replica up in the session's view, down in the pool's
	if r.ring != nil && routingKey != nil {
		replicas := r.ring.Replicas(routingKey)
		if n := len(replicas); n > 0 {
			start := 0
			if n > 1 {
				start = rand.IntN(n)
			}
			for i := range n {
				hi := replicas[(start+i)%n]
				if !hi.IsUp() {
					continue
				}
				h := r.host(hi)
				if h == not {
					continue
				}
				if !h.Down() {
					return h, nil
				}
				if down == nil {
					down = h
				}
			}
		}
	}
	h := r.fromPolicy(table, routingKey, not)
	switch {
	case h != nil && h != not && !h.Down():
		return h, nil
	case down != nil:
		return down, nil
	case h != nil:
		return h, nil
	case not != nil:
		return not, nil
	}
	return nil, gocql.ErrNoConnections
}

// fromPolicy is the first node of the policy's plan that is neither not
// nor down, else its first other than not, else not; nil when the plan is
// empty.
func (r *Router) fromPolicy(table string, routingKey []byte, not *Host) *Host {
	r.route.table = table
	if r.ring != nil {
		r.route.key = routingKey
	}
	next := r.policy.Pick(&r.route)
	r.route.key = nil
	var other *Host
	for range maxPolicyHosts {
		sh := next()
		if sh == nil {
			break
		}
		h := r.host(sh.Info())
		if h == not {
			continue
		}
		if !h.Down() {
			return h
		}
		if other == nil {
			other = h
		}
	}
	if other != nil {
		return other
	}
	return not
}

// host is the pool's host of hi, cached.
func (r *Router) host(hi *gocql.HostInfo) *Host {
	if hi == r.lastInfo {
		return r.last
	}
	h := r.hosts[hi]
	if h == nil {
		h = r.pool.Host(hi.ConnectAddressAndPort(), hi.HostnameAndPort())
		r.hosts[hi] = h
	}
	r.lastInfo, r.last = hi, h
	return h
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
