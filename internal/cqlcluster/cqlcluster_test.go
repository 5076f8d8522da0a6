package cqlcluster

import (
	"crypto/tls"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
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
			if cc.WriteCoalesceWaitTime != 0 || cc.RetryPolicy != nil || cc.Authenticator != nil || cc.SslOpts != nil || cc.Compressor != nil {
				t.Errorf("coalesce %v, retry %v, auth %v, ssl %v, compressor %v", cc.WriteCoalesceWaitTime, cc.RetryPolicy, cc.Authenticator, cc.SslOpts, cc.Compressor)
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
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, tt.o.Config()) })
	}
}
