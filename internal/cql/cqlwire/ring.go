package cqlwire

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/cql/murmur3"
)

// Cluster is what a ring is built from: the driver's session's view of
// the nodes (their tokens, data centres and racks, kept current by its
// control connection) and of the keyspaces' replication.
type Cluster interface {
	GetHosts() []*gocql.HostInfo
	KeyspaceMetadata(keyspace string) (*gocql.KeyspaceMetadata, error)
}

// ringEvery is how often a pool rebuilds its rings from the session: a
// node added, moved or removed is routed to within about that.
const ringEvery = time.Second

// Ring is one keyspace's token ring: for each token, the local replicas
// of the range that ends at it. Lookups read it without a lock; a
// background rebuild replaces it whole.
type Ring struct {
	src      Cluster
	keyspace string
	local    func(*gocql.HostInfo) bool
	cur      atomic.Pointer[ringTable] // nil while the ring is not known
}

type ringTable struct {
	tokens   []int64 // sorted
	replicas [][]*gocql.HostInfo
}

// Replicas returns the local replicas of the partition whose routing key
// is key, in ring order, or nil when the ring is not known. It allocates
// nothing.
func (r *Ring) Replicas(key []byte) []*gocql.HostInfo {
	t := r.cur.Load()
	if t == nil || len(t.tokens) == 0 {
		return nil
	}
	i, _ := slices.BinarySearch(t.tokens, murmur3.Token(key))
	if i == len(t.tokens) {
		i = 0 // past the last token: the range that wraps round
	}
	return t.replicas[i]
}

// refresh rebuilds the ring from its source; a ring that cannot be
// built (a partitioner other than Murmur3, a replication strategy
// without replica placement, the keyspace unknown) is not known, and
// callers fall back to the driver's policy.
func (r *Ring) refresh() error {
	ks, err := r.src.KeyspaceMetadata(r.keyspace)
	if err != nil {
		r.cur.Store(nil)
		return err
	}
	t, err := buildRing(r.src.GetHosts(), ks, r.local)
	if err != nil {
		r.cur.Store(nil)
		return err
	}
	r.cur.Store(t)
	return nil
}

type tokenHost struct {
	token int64
	host  *gocql.HostInfo
}

// buildRing places the replicas of each token of hosts by ks's
// replication strategy, keeping those local says are local.
func buildRing(hosts []*gocql.HostInfo, ks *gocql.KeyspaceMetadata, local func(*gocql.HostInfo) bool) (*ringTable, error) {
	var ring []tokenHost
	for _, h := range hosts {
		if p := h.Partitioner(); p != "" && !strings.HasSuffix(p, "Murmur3Partitioner") {
			return nil, fmt.Errorf("partitioner %s: only Murmur3Partitioner tokens are routed", p)
		}
		for _, s := range h.Tokens() {
			tok, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("node %s: token %q: %w", h.ConnectAddressAndPort(), s, err)
			}
			ring = append(ring, tokenHost{tok, h})
		}
	}
	if len(ring) == 0 {
		return nil, errors.New("the nodes list no tokens")
	}
	slices.SortFunc(ring, func(a, b tokenHost) int { return cmp.Compare(a.token, b.token) })
	place, err := placement(ks, hosts)
	if err != nil {
		return nil, err
	}
	t := &ringTable{tokens: make([]int64, len(ring)), replicas: make([][]*gocql.HostInfo, len(ring))}
	for i := range ring {
		t.tokens[i] = ring[i].token
		for _, h := range place(ring, i) {
			if local(h) {
				t.replicas[i] = append(t.replicas[i], h)
			}
		}
	}
	return t, nil
}

// placement returns the replica placement of ks's strategy: the
// replicas of ring[i]'s range.
func placement(ks *gocql.KeyspaceMetadata, hosts []*gocql.HostInfo) (func(ring []tokenHost, i int) []*gocql.HostInfo, error) {
	class := ks.StrategyClass[strings.LastIndexByte(ks.StrategyClass, '.')+1:]
	switch class {
	case "SimpleStrategy":
		rf, err := replicationFactor(ks.StrategyOptions["replication_factor"])
		if err != nil {
			return nil, fmt.Errorf("keyspace %s: %w", ks.Name, err)
		}
		return func(ring []tokenHost, i int) []*gocql.HostInfo { return simpleReplicas(ring, i, rf) }, nil
	case "NetworkTopologyStrategy":
		dcs := map[string]*dcPlacement{}
		for dc, v := range ks.StrategyOptions {
			if dc == "class" {
				continue
			}
			rf, err := replicationFactor(v)
			if err != nil {
				return nil, fmt.Errorf("keyspace %s, data centre %s: %w", ks.Name, dc, err)
			}
			if rf > 0 {
				dcs[dc] = &dcPlacement{rf: rf, racks: map[string]bool{}}
			}
		}
		nodes := map[string]map[*gocql.HostInfo]bool{}
		racks := map[string]map[string]bool{}
		for _, h := range hosts {
			if nodes[h.DataCenter()] == nil {
				nodes[h.DataCenter()], racks[h.DataCenter()] = map[*gocql.HostInfo]bool{}, map[string]bool{}
			}
			nodes[h.DataCenter()][h] = true
			racks[h.DataCenter()][h.Rack()] = true
		}
		for dc, p := range dcs {
			// As NetworkTopologyStrategy.DatacenterEndpoints: at most as
			// many replicas as nodes, on distinct racks first.
			p.rf = min(p.rf, len(nodes[dc]))
			p.rackCount = len(racks[dc])
		}
		return func(ring []tokenHost, i int) []*gocql.HostInfo { return ntsReplicas(ring, i, dcs) }, nil
	}
	return nil, fmt.Errorf("keyspace %s: replication strategy %s has no replica placement here", ks.Name, ks.StrategyClass)
}

func replicationFactor(v any) (int, error) {
	var n int
	switch v := v.(type) {
	case int:
		n = v
	case string:
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			// "3/1": replicas/transient replicas (Cassandra 4.0 and later)
			if i := strings.IndexByte(v, '/'); i > 0 {
				n, err = strconv.Atoi(v[:i])
			}
			if err != nil {
				return 0, fmt.Errorf("replication factor %q", v)
			}
		}
	default:
		return 0, fmt.Errorf("replication factor of type %T", v)
	}
	if n < 0 {
		return 0, fmt.Errorf("replication factor %d", n)
	}
	return n, nil
}

// simpleReplicas is SimpleStrategy's: the first rf distinct nodes from
// ring[i] on.
func simpleReplicas(ring []tokenHost, i, rf int) []*gocql.HostInfo {
	var out []*gocql.HostInfo
	for j := 0; j < len(ring) && len(out) < rf; j++ {
		if h := ring[(i+j)%len(ring)].host; !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

type dcPlacement struct {
	rf, rackCount int
	// per token
	left, repeats int
	racks         map[string]bool
}

// ntsReplicas is NetworkTopologyStrategy's (calculateNaturalReplicas and
// DatacenterEndpoints in org.apache.cassandra.locator of Cassandra 5.0):
// walking the ring from ring[i], each data centre takes a node of a rack
// it has none of yet, or of one it has while rf minus the number of its
// racks allows repeats, until it has rf.
func ntsReplicas(ring []tokenHost, i int, dcs map[string]*dcPlacement) []*gocql.HostInfo {
	open := 0
	for _, p := range dcs {
		p.left, p.repeats = p.rf, p.rf-p.rackCount
		clear(p.racks)
		if p.left > 0 {
			open++
		}
	}
	var out []*gocql.HostInfo
	for j := 0; j < len(ring) && open > 0; j++ {
		h := ring[(i+j)%len(ring)].host
		p := dcs[h.DataCenter()]
		if p == nil || p.left == 0 || slices.Contains(out, h) {
			continue
		}
		if !p.racks[h.Rack()] {
			p.racks[h.Rack()] = true
		} else if p.repeats > 0 {
			p.repeats--
		} else {
			continue
		}
		out = append(out, h)
		if p.left--; p.left == 0 {
			open--
		}
	}
	return out
}

// rings are a pool's rings, one per keyspace, rebuilt every ringEvery by
// one goroutine while the pool is open.
type rings struct {
	mu      sync.Mutex
	byKS    map[string]*Ring
	running bool
}

// ring returns the pool's ring of keyspace, built now from src the first
// time. local says which nodes a request may be routed to (the driver's
// policy's IsLocal).
func (p *Pool) ring(src Cluster, keyspace string, local func(*gocql.HostInfo) bool) *Ring {
	p.rings.mu.Lock()
	defer p.rings.mu.Unlock()
	if r := p.rings.byKS[keyspace]; r != nil {
		return r
	}
	r := &Ring{src: src, keyspace: keyspace, local: local}
	_ = r.refresh() // not known yet: the policy routes until it is
	if p.rings.byKS == nil {
		p.rings.byKS = map[string]*Ring{}
	}
	p.rings.byKS[keyspace] = r
	if !p.rings.running {
		p.rings.running = true
		go p.refreshRings()
	}
	return r
}

func (p *Pool) refreshRings() {
	t := time.NewTicker(ringEvery)
	defer t.Stop()
	var rs []*Ring
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			rs = rs[:0]
			p.rings.mu.Lock()
			for _, r := range p.rings.byKS {
				rs = append(rs, r)
			}
			p.rings.mu.Unlock()
			for _, r := range rs {
				_ = r.refresh()
			}
		}
	}
}
