package stress

import (
	"bytes"
	"context"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	keystore "github.com/pavlo-v-chernykh/keystore-go/v4"
	pkcs12 "software.sslmate.com/src/go-pkcs12"

	"github.com/goycsb/ycsb/frontend/cassandrastress/settings"
	"github.com/goycsb/ycsb/internal/infile"
)

// store is what a truststore or keystore file holds: certificates, and for
// a keystore a private key with its chain.
type store struct {
	certs []*x509.Certificate
	key   crypto.PrivateKey
	chain [][]byte // DER, leaf first
}

// jksMagic opens a JKS file; JCEKS files open with 0xCECECECE.
var jksMagic = []byte{0xfe, 0xed, 0xfe, 0xed}

// readStore reads a truststore or keystore (opt names it in errors: "truststore=").
// The format comes from the content, as Java's keystore.type.compat reads
// JKS and PKCS12 whichever store-type= says; PEM (certificates, and an
// unencrypted PKCS#8, PKCS#1 or EC key) is this tool's addition.
// The file is read through infile: a regular file or a pipe of at most
// infile.MaxText bytes, until ctx ends.
func readStore(ctx context.Context, opt, path, password string) (*store, error) {
	b, err := infile.ReadAs(ctx, path, "-transport "+opt+path, infile.MaxText)
	if err != nil {
		return nil, err
	}
	return parseStore(opt, path, b, password)
}

// parseStore is readStore of the file's content b.
func parseStore(opt, path string, b []byte, password string) (*store, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("-transport %s%s: %s", opt, path, fmt.Sprintf(format, args...))
	}
	st := &store{}
	switch {
	case bytes.Contains(b, []byte("-----BEGIN ")):
		if err := st.readPEM(b); err != nil {
			return nil, fail("%v", err)
		}
	case bytes.HasPrefix(b, jksMagic):
		if password == "" {
			return nil, fail("a JKS store needs its password (%s-password=) to be read", strings.TrimSuffix(opt, "="))
		}
		if err := st.readJKS(b, password); err != nil {
			return nil, fail("%v", err)
		}
	case bytes.HasPrefix(b, []byte{0xce, 0xce, 0xce, 0xce}):
		return nil, fail("a JCEKS store cannot be read; convert it: keytool -importkeystore -srcstoretype JCEKS -deststoretype PKCS12")
	default:
		if err := st.readPKCS12(b, password, opt == "truststore="); err != nil {
			return nil, fail("%v", err)
		}
	}
	if len(st.certs) == 0 {
		return nil, fail("no certificate in the file")
	}
	return st, nil
}

func (st *store) readPEM(b []byte) error {
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return nil
		}
		switch {
		case blk.Type == "CERTIFICATE":
			c, err := x509.ParseCertificate(blk.Bytes)
			if err != nil {
				return fmt.Errorf("a CERTIFICATE block: %v", err)
			}
			st.certs = append(st.certs, c)
			st.chain = append(st.chain, blk.Bytes)
		case blk.Type == "ENCRYPTED PRIVATE KEY" || blk.Headers["Proc-Type"] != "":
			return errors.New("an encrypted PEM key cannot be read; give it unencrypted (openssl pkcs8 -nocrypt) or as PKCS12")
		case strings.HasSuffix(blk.Type, "PRIVATE KEY"):
			k, err := parseKey(blk.Bytes)
			if err != nil {
				return fmt.Errorf("the %s block: %v", blk.Type, err)
			}
			st.key = k
		}
	}
}

func parseKey(der []byte) (crypto.PrivateKey, error) {
	if k, err := x509.ParsePKCS8PrivateKey(der); err == nil {
		return k, nil
	}
	if k, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return k, nil
	}
	if k, err := x509.ParseECPrivateKey(der); err == nil {
		return k, nil
	}
	return nil, errors.New("not a PKCS#8, PKCS#1 or EC private key")
}

func (st *store) readJKS(b []byte, password string) error {
	ks := keystore.New()
	if err := ks.Load(bytes.NewReader(b), []byte(password)); err != nil {
		if strings.Contains(err.Error(), "digest") {
			return errors.New("wrong password")
		}
		return fmt.Errorf("not a readable JKS store: %v", err)
	}
	for _, alias := range ks.Aliases() {
		switch {
		case ks.IsTrustedCertificateEntry(alias):
			e, err := ks.GetTrustedCertificateEntry(alias)
			if err != nil {
				return err
			}
			if err := st.addDER(e.Certificate.Content, false); err != nil {
				return fmt.Errorf("entry %q: %v", alias, err)
			}
		case ks.IsPrivateKeyEntry(alias) && st.key == nil:
			// Java's key manager takes a key entry; keys are protected by
			// the store's password here, as keytool makes them by default.
			e, err := ks.GetPrivateKeyEntry(alias, []byte(password))
			if err != nil {
				return fmt.Errorf("key entry %q: %v", alias, err)
			}
			if st.key, err = parseKey(e.PrivateKey); err != nil {
				return fmt.Errorf("key entry %q: %v", alias, err)
			}
			for _, c := range e.CertificateChain {
				if err := st.addDER(c.Content, true); err != nil {
					return fmt.Errorf("key entry %q: %v", alias, err)
				}
			}
		}
	}
	return nil
}

func (st *store) addDER(der []byte, chain bool) error {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return err
	}
	st.certs = append(st.certs, c)
	if chain {
		st.chain = append(st.chain, der)
	}
	return nil
}

func (st *store) readPKCS12(b []byte, password string, trust bool) error {
	var tsErr error
	if trust {
		certs, err := pkcs12.DecodeTrustStore(b, password)
		if err == nil {
			st.certs = certs
			return nil
		}
		tsErr = err
	}
	key, leaf, cas, err := pkcs12.DecodeChain(b, password)
	if err != nil {
		if errors.Is(err, pkcs12.ErrIncorrectPassword) || errors.Is(tsErr, pkcs12.ErrIncorrectPassword) {
			return errors.New("wrong password")
		}
		return fmt.Errorf("neither PEM, JKS nor a readable PKCS12 store: %v", err)
	}
	st.key = key
	for _, c := range append([]*x509.Certificate{leaf}, cas...) {
		st.certs = append(st.certs, c)
		st.chain = append(st.chain, c.Raw)
	}
	return nil
}

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
	ts, err := readStore(ctx, "truststore=", t.TrustStore, t.TrustStorePassword)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	for _, c := range ts.certs {
		roots.AddCert(c)
	}
	cfg := &tls.Config{RootCAs: roots}
	ks := ts
	if t.KeyStore != "" {
		if ks, err = readStore(ctx, "keystore=", t.KeyStore, t.KeyStorePassword); err != nil {
			return nil, err
		}
		if ks.key == nil {
			return nil, fmt.Errorf("-transport keystore=%s: no private key in the file", t.KeyStore)
		}
	}
	if ks.key != nil {
		cfg.Certificates = []tls.Certificate{{Certificate: ks.chain, PrivateKey: ks.key, Leaf: ks.certs[0]}}
	}
	var suites []uint16
	for _, c := range t.Ciphers {
		if id, _ := settings.CipherSuite(c); id != 0 {
			suites = append(suites, id)
		}
	}
	cfg.CipherSuites = suites
	switch {
	case t.SSLProtocol == "TLSv1.2":
		cfg.MinVersion, cfg.MaxVersion = tls.VersionTLS12, tls.VersionTLS12
	case t.SSLProtocol == "TLSv1.3" || len(suites) == 0:
		// Only TLS 1.3 suites listed: Go would take an empty list for its
		// defaults, so TLS 1.2 is off.
		cfg.MinVersion = tls.VersionTLS13
	default:
		cfg.MinVersion = tls.VersionTLS12
	}
	if !t.HostnameVerification {
		// The chain is still verified, as Java's trust manager does
		// without endpoint identification; only the name is not.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
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
	return cfg, nil
}
