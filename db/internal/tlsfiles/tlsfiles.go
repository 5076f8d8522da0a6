// Package tlsfiles loads a binding's TLS trust and client certificate from
// the PEM files its properties name, each read bounded (infile.MaxText) and
// named in errors as the property was given.
package tlsfiles

import (
	"context"
	"crypto/tls"
	"crypto/x509"

	"github.com/goycsb/ycsb/internal/infile"
	"github.com/goycsb/ycsb/props"
)

// File is a PEM file and the property that names it.
type File struct{ Prop, Path string }

func (f File) read(ctx context.Context) ([]byte, error) {
	return infile.ReadAs(ctx, f.Path, f.Prop+"="+f.Path, infile.MaxText)
}

// Load sets tc's root CAs from ca and its client certificate from cert and
// key; a File with no path is left out (key is read only with cert).
func Load(ctx context.Context, tc *tls.Config, ca, cert, key File) error {
	if ca.Path != "" {
		pem, err := ca.read(ctx)
		if err != nil {
			return err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return props.Errorf(ca.Prop, "no PEM certificate in %s", ca.Path)
		}
		tc.RootCAs = pool
	}
	if cert.Path != "" {
		certPEM, err := cert.read(ctx)
		if err != nil {
			return err
		}
		keyPEM, err := key.read(ctx)
		if err != nil {
			return err
		}
		c, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return props.Errorf(cert.Prop, "cannot load the client certificate and key: %v", err)
		}
		tc.Certificates = []tls.Certificate{c}
	}
	return nil
}
