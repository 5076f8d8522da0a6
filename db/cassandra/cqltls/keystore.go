package cqltls

import (
	"bytes"
	"context"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	keystore "github.com/pavlo-v-chernykh/keystore-go/v4"
	pkcs12 "software.sslmate.com/src/go-pkcs12"

	"github.com/goycsb/ycsb/internal/infile"
)

// Store is a Java trust store or key store file, as cassandra-stress's
// -transport names them: JKS or PKCS12 (PEM too).
type Store struct {
	// Opt is the option as typed before the path, and PasswordOpt its
	// password's, for errors: "-transport truststore=",
	// "truststore-password=".
	Opt, PasswordOpt string
	Path, Password   string
}

// store is what a truststore or keystore file holds: certificates, and for
// a keystore a private key with its chain.
type store struct {
	certs []*x509.Certificate
	key   crypto.PrivateKey
	chain [][]byte // DER, leaf first
}

// jksMagic opens a JKS file; JCEKS files open with 0xCECECECE.
var jksMagic = []byte{0xfe, 0xed, 0xfe, 0xed}

// readStore reads a truststore (trust) or keystore. The format comes
// from the content, as Java's keystore.type.compat reads JKS and PKCS12
// whichever store type is given; PEM (certificates, and an unencrypted
// PKCS#8, PKCS#1 or EC key) is this project's addition. The file is read
// through infile: a regular file or a pipe of at most infile.MaxText
// bytes, until ctx ends.
func readStore(ctx context.Context, s Store, trust bool) (*store, error) {
	b, err := infile.ReadAs(ctx, s.Path, s.Opt+s.Path, infile.MaxText)
	if err != nil {
		return nil, err
	}
	return parseStore(s, b, trust)
}

// parseStore is readStore of the file's content b.
func parseStore(s Store, b []byte, trust bool) (*store, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s%s: %s", s.Opt, s.Path, fmt.Sprintf(format, args...))
	}
	password := s.Password
	st := &store{}
	switch {
	case bytes.Contains(b, []byte("-----BEGIN ")):
		if err := st.readPEM(b); err != nil {
			return nil, fail("%v", err)
		}
	case bytes.HasPrefix(b, jksMagic):
		if password == "" {
			return nil, fail("a JKS store needs its password (%s) to be read", s.PasswordOpt)
		}
		if err := st.readJKS(b, password); err != nil {
			return nil, fail("%v", err)
		}
	case bytes.HasPrefix(b, []byte{0xce, 0xce, 0xce, 0xce}):
		return nil, fail("a JCEKS store cannot be read; convert it: keytool -importkeystore -srcstoretype JCEKS -deststoretype PKCS12")
	default:
		if err := st.readPKCS12(b, password, trust); err != nil {
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
