package cqlcluster

import (
	"context"
	"crypto/tls"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"github.com/goycsb/ycsb/internal/ycsbtest"
)

func TestConfig(t *testing.T) {
	def := gocql.NewCluster()
	tc := &tls.Config{}
	tests := []struct {
		name  string
		o     Options
		check func(t *testing.T, cc *gocql.ClusterConfig)
	}{
		{"zero keeps the driver's defaults, but never coalesces or retries", Options{Hosts: []string{"h"}, Port: 9042}, func(t *testing.T, cc *gocql.ClusterConfig) {
			if cc.ConnectTimeout != def.ConnectTimeout || cc.Timeout != def.Timeout || cc.NumConns != def.NumConns || cc.ReconnectInterval != def.ReconnectInterval {
				t.Errorf("defaults changed: %v %v %d %v", cc.ConnectTimeout, cc.Timeout, cc.NumConns, cc.ReconnectInterval)
			}
			if !cc.Events.DisableSchemaEvents || cc.Events.DisableTopologyEvents || cc.Events.DisableNodeStatusEvents {
				t.Errorf("events %+v: want the schema's off (the driver's race at a session's start), the nodes' on", cc.Events)
			}
			if cc.WriteCoalesceWaitTime != 0 || cc.RetryPolicy != nil || cc.Authenticator != nil || cc.SslOpts != nil || cc.Compressor != nil {
				t.Errorf("coalesce %v, retry %v, auth %v, ssl %v, compressor %v", cc.WriteCoalesceWaitTime, cc.RetryPolicy, cc.Authenticator, cc.SslOpts, cc.Compressor)
			}
			// Without a window the queued coalescer writes, dialing as the
			// driver's default dialer would.
			if q, ok := cc.Dialer.(queuedDialer); !ok {
				t.Errorf("dialer %#v, want a queuedDialer", cc.Dialer)
			} else if d, ok := q.d.(*net.Dialer); !ok || d.Timeout != def.ConnectTimeout || d.KeepAlive != 0 {
				t.Errorf("queued dialer's dialer %#v", q.d)
			}
		}},
		{"set values", Options{Hosts: []string{"a", "b"}, Port: 9043, Keyspace: "ks", Consistency: gocql.LocalQuorum,
			ConnectTimeout: time.Second, Timeout: 2 * time.Second, Conns: 3, Protocol: 4, Reconnect: 100 * time.Millisecond,
			Coalesce: time.Microsecond, Username: "u", Password: "p", TLS: tc, VerifyHost: true}, func(t *testing.T, cc *gocql.ClusterConfig) {
			if len(cc.Hosts) != 2 || cc.Port != 9043 || cc.Keyspace != "ks" || cc.Consistency != gocql.LocalQuorum {
				t.Errorf("hosts %v port %d keyspace %q consistency %v", cc.Hosts, cc.Port, cc.Keyspace, cc.Consistency)
			}
			if cc.ConnectTimeout != time.Second || cc.Timeout != 2*time.Second || cc.NumConns != 3 || cc.ProtoVersion != 4 || cc.WriteCoalesceWaitTime != time.Microsecond {
				t.Errorf("timeouts %v %v conns %d protocol %d coalesce %v", cc.ConnectTimeout, cc.Timeout, cc.NumConns, cc.ProtoVersion, cc.WriteCoalesceWaitTime)
			}
			if rp, ok := cc.ReconnectionPolicy.(*gocql.ConstantReconnectionPolicy); cc.ReconnectInterval != 100*time.Millisecond || !ok || rp.MaxRetries != 1 || rp.Interval != 50*time.Millisecond {
				t.Errorf("reconnect %v %#v", cc.ReconnectInterval, cc.ReconnectionPolicy)
			}
			if a, ok := cc.Authenticator.(gocql.PasswordAuthenticator); !ok || a.Username != "u" || a.Password != "p" {
				t.Errorf("authenticator %#v", cc.Authenticator)
			}
			if cc.SslOpts == nil || cc.SslOpts.Config != tc || !cc.SslOpts.EnableHostVerification {
				t.Errorf("ssl %#v", cc.SslOpts)
			}
			// A window is the driver's timed coalescer, on its own dialer.
			if cc.Dialer != nil {
				t.Errorf("dialer %#v with a coalescing window, want the driver's", cc.Dialer)
			}
		}},
		{"the connect timeout is the dialer's", Options{Hosts: []string{"h"}, ConnectTimeout: 3 * time.Second}, func(t *testing.T, cc *gocql.ClusterConfig) {
			if q, ok := cc.Dialer.(queuedDialer); !ok || q.d.(*net.Dialer).Timeout != 3*time.Second {
				t.Errorf("dialer %#v", cc.Dialer)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, tt.o.Config()) })
	}
}

// countingDialer counts the writes on the connections it dials.
type countingDialer struct {
	d      gocql.Dialer
	writes *atomic.Int64
}

func (c countingDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	nc, err := c.d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return countingConn{nc, c.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// On the driver's path (protocol v5) every concurrent request gets its own
// answer, and requests queued behind a write share its system call: fewer
// writes than requests.
func TestDriverPathCoalesces(t *testing.T) {
	ycsbtest.SkipServerTests(t)
	host, port := "127.0.0.1", 9042
	if p := os.Getenv("YCSB_CASSANDRA_PORT"); p != "" {
		var err error
		if port, err = strconv.Atoi(p); err != nil {
			t.Fatalf("YCSB_CASSANDRA_PORT=%q: %v", p, err)
		}
	}
	o := Options{Hosts: []string{host}, Port: port, Consistency: gocql.One, Protocol: 5,
		ConnectTimeout: 5 * time.Second, Timeout: 10 * time.Second}
	if o.Lean() {
		t.Fatal("protocol v5 takes the lean path")
	}
	cc := o.Config()
	var writes atomic.Int64
	q := cc.Dialer.(queuedDialer)
	q.d = countingDialer{q.d, &writes}
	cc.Dialer = q
	s, err := Connect(context.Background(), cc)
	ycsbtest.NeedServer(t, "Cassandra on "+net.JoinHostPort(host, strconv.Itoa(port)), err)
	defer Close(s)

	// Names that each select one row whose key is the name: an answer
	// handed to the wrong request shows.
	names := []string{"system", "system_schema", "system_auth", "system_distributed", "system_traces"}
	const workers, each = 16, 200
	before := writes.Load()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				want := names[(w+i)%len(names)]
				var got string
				if err := s.Query("SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?", want).Scan(&got); err != nil {
					t.Error(err)
					return
				}
				if got != want {
					t.Errorf("asked for %q, got %q", want, got)
					return
				}
			}
		})
	}
	wg.Wait()
	n := writes.Load() - before
	t.Logf("%d writes for %d requests (%.2f each)", n, workers*each, float64(n)/(workers*each))
	if n >= workers*each {
		t.Errorf("%d writes for %d requests: nothing coalesced", n, workers*each)
	}
}
