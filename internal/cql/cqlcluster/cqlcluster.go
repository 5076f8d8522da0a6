// Package cqlcluster is the one place that configures, opens and closes a
// CQL driver session: the cassandra-cql binding and the stress mode both
// connect through it, so the two agree on what the driver is told (no
// driver retries, no timed write coalescing, token-aware routing, ...).
package cqlcluster

import (
	"context"
	"crypto/tls"
	"net"
	"sync"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/cql/coalesce"
	"github.com/goycsb/ycsb/internal/cql/cqlwire"
	"github.com/goycsb/ycsb/internal/within"
)

// Options is what a caller decides; a zero ConnectTimeout, Timeout,
// Conns or Reconnect keeps the driver's default.
type Options struct {
	Hosts       []string
	Port        int
	Keyspace    string // "" for none
	Consistency gocql.Consistency

	ConnectTimeout time.Duration
	// Timeout bounds each request: with no driver retries it is the
	// operation's deadline.
	Timeout time.Duration
	Conns   int // connections per host
	// Protocol is the protocol version; 0 negotiates the highest both
	// sides speak.
	Protocol int
	// Reconnect is how often a node that went down is tried again.
	Reconnect time.Duration
	// Coalesce is the driver's timed write coalescing window: 0 sends a
	// request at once, or with those queued behind the write in progress
	// (internal/cql/coalesce); the driver's own default, 200 µs, would add up
	// to that to every latency.
	Coalesce time.Duration

	Username, Password string // no authentication without Username

	LocalDC string // "" for plain round robin over all nodes
	// LocalRack, with LocalDC, prefers the nodes of that rack, then the
	// others of LocalDC (rack-aware round robin).
	LocalRack  string
	TokenAware bool
	// OnlyHosts keeps the session to the nodes of Hosts: the others the
	// cluster announces are never connected to nor routed to (the stress
	// mode's -node whitelist).
	OnlyHosts bool

	TLS        *tls.Config // nil for plain connections
	VerifyHost bool
	Compressor gocql.Compressor // nil for none
}

// Config is the driver's configuration for o.
func (o Options) Config() *gocql.ClusterConfig {
	cc := gocql.NewCluster(o.Hosts...)
	cc.Port = o.Port
	cc.Keyspace = o.Keyspace
	cc.Consistency = o.Consistency
	if o.ConnectTimeout > 0 {
		cc.ConnectTimeout = o.ConnectTimeout
	}
	if o.Timeout > 0 {
		cc.Timeout = o.Timeout
	}
	// Retries are the caller's (the stress mode's -errors retries=), or
	// none, as in the reference, whose statements are not idempotent and
	// so never retried after a client-side timeout.
	cc.RetryPolicy = nil
	if o.Conns > 0 {
		cc.NumConns = o.Conns
	}
	cc.ProtoVersion = o.Protocol
	if o.Reconnect > 0 {
		// A restarted node is picked up within about Reconnect; one quick
		// retry per attempt keeps the retry sequence shorter than the
		// interval, as the driver's documentation advises.
		cc.ReconnectInterval = o.Reconnect
		cc.ReconnectionPolicy = &gocql.ConstantReconnectionPolicy{MaxRetries: 1, Interval: o.Reconnect / 2}
	}
	// With a window the driver's timer coalesces; without one, frames
	// queued behind a write go out together when it ends, as on the lean
	// path (internal/cql/coalesce, docs/cassandra.md).
	cc.WriteCoalesceWaitTime = o.Coalesce
	if o.Coalesce == 0 {
		cc.Dialer = queuedDialer{&net.Dialer{Timeout: cc.ConnectTimeout}}
	}
	if o.Username != "" {
		cc.Authenticator = gocql.PasswordAuthenticator{Username: o.Username, Password: o.Password}
	}
	cc.PoolConfig.HostSelectionPolicy = o.hostSelection()
	// A session reads the schema (the keyspaces' replication, which the
	// routing follows) when it starts, and again when its control
	// connection reconnects, but not on the cluster's schema events:
	// gocql v2.1.2 refreshes on one that arrives while the session starts
	// in a goroutine that reads what Session.init is still writing
	// (useSystemSchema: session.go:396 against metadata.go:1120). A
	// benchmark's keyspace exists before its sessions start; whoever
	// makes one opens its sessions after (db/cassandra's createschema,
	// the stress mode's Conn). Topology and status events are kept: the
	// routing follows the nodes.
	cc.Events.DisableSchemaEvents = true
	if o.OnlyHosts {
		cc.HostFilter = onlyHosts(o.Hosts)
	}
	if o.TLS != nil {
		cc.SslOpts = &gocql.SslOptions{Config: o.TLS, EnableHostVerification: o.VerifyHost}
	}
	if o.Compressor != nil {
		cc.Compressor = o.Compressor
	}
	return cc
}

// queuedDialer dials as the driver's default dialer does (no HostDialer,
// no SocketKeepalive: gocql's connConfig) and writes through a
// coalesce.Conn. The driver writes one frame per Write under a lock of its
// own, so the Conn queues every frame and its flusher writes; with TLS the
// driver wraps the Conn (gocql's WrapTLS) and the records are coalesced.
type queuedDialer struct{ d gocql.Dialer }

func (q queuedDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	nc, err := q.d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return coalesce.NewConn(nc), nil
}

// Lean says whether the hot path may take the lean request path
// (internal/cql/cqlwire), which speaks protocol v4 and has no timed window:
// unless another protocol or a window was asked for.
func (o Options) Lean() bool {
	return (o.Protocol == 0 || o.Protocol == 4) && o.Coalesce == 0
}

// Wire is the lean path's connection settings, the same as the driver's.
func (o Options) Wire() cqlwire.Options {
	w := cqlwire.Options{
		Keyspace:       o.Keyspace,
		ConnectTimeout: o.ConnectTimeout,
		Timeout:        o.Timeout,
		Conns:          max(o.Conns, 1),
		Retry:          o.Reconnect,
		TLS:            o.TLS,
		VerifyHost:     o.VerifyHost,
		Compressor:     o.Compressor,
	}
	// The driver's defaults where the caller keeps them (gocql.NewCluster).
	def := gocql.NewCluster()
	if w.ConnectTimeout <= 0 {
		w.ConnectTimeout = def.ConnectTimeout
	}
	if w.Timeout <= 0 {
		w.Timeout = def.Timeout
	}
	if w.Retry <= 0 {
		w.Retry = time.Second
	}
	if o.Username != "" {
		w.Auth = gocql.PasswordAuthenticator{Username: o.Username, Password: o.Password}
	}
	return w
}

func (o Options) hostSelection() gocql.HostSelectionPolicy {
	var p gocql.HostSelectionPolicy
	switch {
	case o.LocalDC != "" && o.LocalRack != "":
		p = gocql.RackAwareRoundRobinPolicy(o.LocalDC, o.LocalRack)
	case o.LocalDC != "":
		p = gocql.DCAwareRoundRobinPolicy(o.LocalDC)
	default:
		p = gocql.RoundRobinHostPolicy()
	}
	if o.TokenAware {
		p = gocql.TokenAwareHostPolicy(p)
	}
	return p
}

// onlyHosts accepts the nodes whose address is one of hosts' (names are
// resolved once, here; a name that does not resolve matches nothing, and
// connecting to it fails as a contact point). The driver's own
// WhiteListHostFilter panics on a name it cannot resolve.
func onlyHosts(hosts []string) gocql.HostFilter {
	ips := map[string]bool{}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			ips[ip.String()] = true
			continue
		}
		addrs, _ := net.LookupIP(h)
		for _, ip := range addrs {
			ips[ip.String()] = true
		}
	}
	return gocql.HostFilterFunc(func(h *gocql.HostInfo) bool { return ips[h.ConnectAddress().String()] })
}

// Connect is cc.CreateSession given up when ctx ends first (Ctrl-C): the
// driver waits its connect timeout for a node that does not answer. A
// session made after that is closed in the background.
func Connect(ctx context.Context, cc *gocql.ClusterConfig) (*gocql.Session, error) {
	type made struct {
		s   *gocql.Session
		err error
	}
	ch := make(chan made, 1)
	go func() {
		s, err := cc.CreateSession()
		ch <- made{s, err}
	}()
	select {
	case m := <-ch:
		return m.s, m.err
	case <-ctx.Done():
		go func() {
			if m := <-ch; m.s != nil {
				m.s.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// CloseWait bounds Close: the driver's Session.Close waits for the control
// connection's heartbeat and for metadata refreshes in progress, which
// against a node that stopped answering run until their request or connect
// timeouts (7 to 11 s measured).
const CloseWait = 2 * time.Second

// Close closes ss at once, waiting CloseWait at most for all; the rest of
// their shutdown goes on in the background.
func Close(ss ...*gocql.Session) {
	within.Run(CloseWait, func() {
		var wg sync.WaitGroup
		for _, s := range ss {
			wg.Go(s.Close)
		}
		wg.Wait()
	})
}
