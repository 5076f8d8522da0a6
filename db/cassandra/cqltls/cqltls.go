// Package cqltls is the TLS of a CQL client, configured once for the
// Cassandra binding's cassandra.ssl.* properties and the stress mode's
// -transport: PEM files or Java trust and key stores (JKS, PKCS12).
package cqltls

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/goycsb/ycsb/db/internal/tlsfiles"
)

// PEMFile is a PEM file of the node's or the client's certificates, named
// in errors as its property is given (cassandra.ssl.ca=/path: ...).
type PEMFile struct{ Prop, Path string }

// Config is a CQL client's TLS, configured once for the binding's
// cassandra.ssl.* properties and the stress mode's -transport: the
// certificates to trust and the client's own, from PEM files or from Java
// stores, and what of the node's certificate is checked.
type Config struct {
	// CA, Cert and Key are PEM files (cassandra.ssl.ca, .cert, .key):
	// the certificates to trust, and the client's certificate and key.
	CA, Cert, Key PEMFile
	// TrustStore, when set, holds the certificates to trust, and the
	// client's key entry unless KeyStore is set, which must then hold one
	// (as the Java driver's key manager takes it).
	TrustStore, KeyStore Store
	// VerifyHost checks the node's chain and its name. Without it,
	// VerifyChain still checks the chain against the certificates trusted,
	// as Java's trust manager does without endpoint identification;
	// without either, nothing of the node's certificate is checked.
	VerifyHost, VerifyChain bool
	// CipherSuites, MinVersion and MaxVersion are crypto/tls's (zero: its
	// defaults).
	CipherSuites           []uint16
	MinVersion, MaxVersion uint16
}

// Load reads the files of c, each a regular file or a pipe of at most
// infile.MaxText bytes, read until ctx ends, into a tls.Config; a file
// that cannot be read is named as it was given.
func (c *Config) Load(ctx context.Context) (*tls.Config, error) {
	tc := &tls.Config{InsecureSkipVerify: !c.VerifyHost, CipherSuites: c.CipherSuites, MinVersion: c.MinVersion, MaxVersion: c.MaxVersion}
	if err := tlsfiles.Load(ctx, tc, tlsfiles.File(c.CA), tlsfiles.File(c.Cert), tlsfiles.File(c.Key)); err != nil {
		return nil, err
	}
	if c.TrustStore.Path != "" {
		if err := c.loadStores(ctx, tc); err != nil {
			return nil, err
		}
	}
	if !c.VerifyHost && c.VerifyChain {
		tc.VerifyConnection = verifyChain(tc.RootCAs)
	}
	return tc, nil
}

// loadStores reads the trust store and the key store into tc.
func (c *Config) loadStores(ctx context.Context, tc *tls.Config) error {
	ts, err := readStore(ctx, c.TrustStore, true)
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	for _, c := range ts.certs {
		roots.AddCert(c)
	}
	tc.RootCAs = roots
	ks := ts
	if c.KeyStore.Path != "" {
		if ks, err = readStore(ctx, c.KeyStore, false); err != nil {
			return err
		}
		if ks.key == nil {
			return fmt.Errorf("%s%s: no private key in the file", c.KeyStore.Opt, c.KeyStore.Path)
		}
	}
	if ks.key != nil {
		tc.Certificates = []tls.Certificate{{Certificate: ks.chain, PrivateKey: ks.key, Leaf: ks.certs[0]}}
	}
	return nil
}

// verifyChain checks the node's chain against roots, not its name.
func verifyChain(roots *x509.CertPool) func(cs tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("the node sent no certificate")
		}
		inter := x509.NewCertPool()
		for _, c := range cs.PeerCertificates[1:] {
			inter.AddCert(c)
		}
		_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter,
			KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
		return err
	}
}
