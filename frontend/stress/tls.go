package stress

import (
	"context"
	"crypto/tls"

	"github.com/goycsb/ycsb/db/cassandra/cqltls"
	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// tlsConfig is -transport as the original's SettingsTransport and
// JavaDriverClient (scylladb/cassandra-stress) apply it: TLS only with
// truststore=; the node's chain is checked against the truststore's
// certificates, its host name only with hostname-verification=true; the
// client certificate is keystore='s key entry (the truststore if no
// keystore= is given, which then offers none). nil without truststore=.
func tlsConfig(ctx context.Context, t settings.TransportSettings) (*tls.Config, error) {
	if t.TrustStore == "" {
		return nil, nil
	}
	c := cqltls.Config{
		TrustStore: cqltls.Store{Opt: "-transport truststore=", PasswordOpt: "truststore-password=", Path: t.TrustStore, Password: t.TrustStorePassword},
		VerifyHost: t.HostnameVerification, VerifyChain: true,
	}
	if t.KeyStore != "" {
		c.KeyStore = cqltls.Store{Opt: "-transport keystore=", PasswordOpt: "keystore-password=", Path: t.KeyStore, Password: t.KeyStorePassword}
	}
	for _, name := range t.Ciphers {
		if id, _ := settings.CipherSuite(name); id != 0 {
			c.CipherSuites = append(c.CipherSuites, id)
		}
	}
	switch {
	case t.SSLProtocol == "TLSv1.2":
		c.MinVersion, c.MaxVersion = tls.VersionTLS12, tls.VersionTLS12
	case t.SSLProtocol == "TLSv1.3" || len(c.CipherSuites) == 0:
		// Only TLS 1.3 suites listed: Go would take an empty list for its
		// defaults, so TLS 1.2 is off.
		c.MinVersion = tls.VersionTLS13
	default:
		c.MinVersion = tls.VersionTLS12
	}
	return c.Load(ctx)
}
