package cqltls

import (
	"context"
	"crypto/tls"
	"strings"
	"testing"
)

// TestConfigChecks: what of the node's certificate a Config checks. The
// binding's cassandra.ssl.verify=false checks nothing; the stress mode
// without hostname-verification=true checks the chain, not the name;
// with either verification the name too.
func TestConfigChecks(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		c                       Config
		skipGo, verifyChainOnly bool
	}{
		{"binding, ssl.verify=false", Config{}, true, false},
		{"binding, ssl.verify=true", Config{VerifyHost: true}, false, false},
		{"stress, chain only", Config{VerifyChain: true}, true, true},
		{"stress, hostname-verification=true", Config{VerifyHost: true, VerifyChain: true}, false, false},
	} {
		got, err := tc.c.Load(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.InsecureSkipVerify != tc.skipGo || (got.VerifyConnection != nil) != tc.verifyChainOnly {
			t.Errorf("%s: InsecureSkipVerify %v, own chain check %v; want %v, %v", tc.name, got.InsecureSkipVerify, got.VerifyConnection != nil, tc.skipGo, tc.verifyChainOnly)
		}
	}
	c := Config{CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}, MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS12}
	if got, err := c.Load(context.Background()); err != nil || len(got.CipherSuites) != 1 || got.MinVersion != tls.VersionTLS12 || got.MaxVersion != tls.VersionTLS12 {
		t.Errorf("suites and versions: %+v, %v", got, err)
	}
	// A file that cannot be read is named as it was given.
	c = Config{CA: PEMFile{Prop: "cassandra.ssl.ca", Path: "/nonexistent/ca.pem"}}
	if _, err := c.Load(context.Background()); err == nil || !strings.Contains(err.Error(), "cassandra.ssl.ca=/nonexistent/ca.pem") {
		t.Errorf("missing CA: %v", err)
	}
	c = Config{TrustStore: Store{Opt: "-transport truststore=", PasswordOpt: "truststore-password=", Path: "/nonexistent/ts.jks"}, VerifyChain: true}
	if _, err := c.Load(context.Background()); err == nil || !strings.Contains(err.Error(), "-transport truststore=/nonexistent/ts.jks") {
		t.Errorf("missing truststore: %v", err)
	}
}
