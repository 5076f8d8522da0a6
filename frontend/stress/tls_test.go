package stress

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	keystore "github.com/pavlo-v-chernykh/keystore-go/v4"
	pkcs12 "software.sslmate.com/src/go-pkcs12"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// testPKI is a CA and certificates it signed, written as the stores the
// tests give -transport.
type testPKI struct {
	dir    string
	ca     *x509.Certificate
	caKey  *ecdsa.PrivateKey
	serial int64
}

func newPKI(t *testing.T, name string) *testPKI {
	t.Helper()
	p := &testPKI{dir: t.TempDir(), serial: 1}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	p.ca, _ = x509.ParseCertificate(der)
	p.caKey = key
	return p
}

// leaf is a certificate for cn signed by the CA: a server's for 127.0.0.1,
// or a client's.
func (p *testPKI) leaf(t *testing.T, cn string, server bool, ips ...net.IP) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p.serial++
	usage := x509.ExtKeyUsageClientAuth
	if server {
		usage = x509.ExtKeyUsageServerAuth
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(p.serial), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}, IPAddresses: ips}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.ca, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	return c, key
}

func (p *testPKI) write(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func pemOf(t *testing.T, key *ecdsa.PrivateKey, certs ...*x509.Certificate) []byte {
	t.Helper()
	var b bytes.Buffer
	if key != nil {
		der, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		pem.Encode(&b, &pem.Block{Type: "PRIVATE KEY", Bytes: der})
	}
	for _, c := range certs {
		pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
	}
	return b.Bytes()
}

// stores writes the CA as PEM, JKS and PKCS12 truststores and a client
// certificate as PEM, JKS and PKCS12 keystores, as keytool and openssl
// make them; password pw.
func (p *testPKI) stores(t *testing.T, pw string) map[string]string {
	t.Helper()
	out := map[string]string{"ca.pem": p.write(t, "ca.pem", pemOf(t, nil, p.ca))}
	ts := keystore.New()
	if err := ts.SetTrustedCertificateEntry("ca", keystore.TrustedCertificateEntry{CreationTime: time.Now(),
		Certificate: keystore.Certificate{Type: "X509", Content: p.ca.Raw}}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ts.Store(&b, []byte(pw)); err != nil {
		t.Fatal(err)
	}
	out["ca.jks"] = p.write(t, "ca.jks", b.Bytes())
	p12, err := pkcs12.Modern.EncodeTrustStore([]*x509.Certificate{p.ca}, pw)
	if err != nil {
		t.Fatal(err)
	}
	out["ca.p12"] = p.write(t, "ca.p12", p12)

	cert, key := p.leaf(t, "stress-client", false)
	out["client.pem"] = p.write(t, "client.pem", pemOf(t, key, cert, p.ca))
	if p12, err = pkcs12.Modern.Encode(key, cert, []*x509.Certificate{p.ca}, pw); err != nil {
		t.Fatal(err)
	}
	out["client.p12"] = p.write(t, "client.p12", p12)
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	ks := keystore.New()
	if err := ks.SetPrivateKeyEntry("client", keystore.PrivateKeyEntry{CreationTime: time.Now(), PrivateKey: der,
		CertificateChain: []keystore.Certificate{{Type: "X509", Content: cert.Raw}, {Type: "X509", Content: p.ca.Raw}}}, []byte(pw)); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := ks.Store(&b, []byte(pw)); err != nil {
		t.Fatal(err)
	}
	out["client.jks"] = p.write(t, "client.jks", b.Bytes())
	return out
}

// TestTLSConfigStores reads every kind of store, and refuses a wrong
// password, a missing file and a JCEKS store in one line without the
// password.
func TestTLSConfigStores(t *testing.T) {
	const pw = "s3cr3t-pw"
	p := newPKI(t, "stress-ca")
	f := p.stores(t, pw)
	for _, ts := range []string{"ca.pem", "ca.jks", "ca.p12"} {
		for _, ks := range []string{"", "client.pem", "client.jks", "client.p12"} {
			tr := settings.TransportSettings{TrustStore: f[ts], TrustStorePassword: pw, SSLProtocol: "TLS",
				Ciphers: []string{"TLS_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"}}
			if ks != "" {
				tr.KeyStore, tr.KeyStorePassword = f[ks], pw
			}
			cfg, err := tlsConfig(context.Background(), tr)
			if err != nil {
				t.Errorf("%s %s: %v", ts, ks, err)
				continue
			}
			if cfg.RootCAs == nil || !cfg.InsecureSkipVerify || cfg.VerifyConnection == nil {
				t.Errorf("%s: the chain is not checked", ts)
			}
			if got := len(cfg.Certificates); (ks != "") != (got == 1) {
				t.Errorf("%s %s: %d client certificates", ts, ks, got)
			}
			if ks != "" && len(cfg.Certificates[0].Certificate) != 2 {
				t.Errorf("%s: chain of %d", ks, len(cfg.Certificates[0].Certificate))
			}
		}
	}
	jceks := p.write(t, "x.jceks", []byte{0xce, 0xce, 0xce, 0xce, 0, 0, 0, 2})
	for _, c := range []struct {
		tr   settings.TransportSettings
		want string
	}{
		{settings.TransportSettings{TrustStore: f["ca.jks"], TrustStorePassword: "wrong-" + pw}, "-transport truststore=" + f["ca.jks"] + ": wrong password"},
		{settings.TransportSettings{TrustStore: f["ca.p12"], TrustStorePassword: "wrong-" + pw}, "-transport truststore=" + f["ca.p12"] + ": wrong password"},
		{settings.TransportSettings{TrustStore: f["ca.jks"]}, "-transport truststore=" + f["ca.jks"] + ": a JKS store needs its password (truststore-password=) to be read"},
		{settings.TransportSettings{TrustStore: f["ca.pem"], KeyStore: f["client.p12"], KeyStorePassword: "wrong-" + pw}, "-transport keystore=" + f["client.p12"] + ": wrong password"},
		{settings.TransportSettings{TrustStore: f["ca.pem"], KeyStore: f["ca.pem"]}, "-transport keystore=" + f["ca.pem"] + ": no private key in the file"},
		{settings.TransportSettings{TrustStore: filepath.Join(p.dir, "none.jks")}, "-transport truststore=" + filepath.Join(p.dir, "none.jks") + ": no such file or directory"},
		{settings.TransportSettings{TrustStore: jceks}, "-transport truststore=" + jceks + ": a JCEKS store cannot be read; convert it: keytool -importkeystore -srcstoretype JCEKS -deststoretype PKCS12"},
	} {
		_, err := tlsConfig(context.Background(), c.tr)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "\n")) {
			t.Errorf("not one line without the password: %q", err)
		}
	}
}
