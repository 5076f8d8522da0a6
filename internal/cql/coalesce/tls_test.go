package coalesce

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// selfSigned is a certificate for 127.0.0.1, made for the test.
func selfSigned(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "test"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// TLS on top of a Conn, as the driver puts it: the handshake and the
// records of concurrent writers go through the queue, and the peer reads
// every byte.
func TestUnderTLS(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cert := selfSigned(t)
	received := make(chan string, 1)
	go func() {
		sc, err := ln.Accept()
		if err != nil {
			received <- err.Error()
			return
		}
		defer sc.Close()
		b, err := io.ReadAll(tls.Server(sc, &tls.Config{Certificates: []tls.Certificate{cert}}))
		if err != nil {
			received <- err.Error()
			return
		}
		received <- string(b)
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	tc := tls.Client(NewConn(nc), &tls.Config{InsecureSkipVerify: true})
	if err := tc.Handshake(); err != nil {
		t.Fatal(err)
	}
	const writers, frames = 4, 100
	var wg sync.WaitGroup
	var mu sync.Mutex // the driver writes one frame at a time
	for range writers {
		wg.Go(func() {
			for range frames {
				mu.Lock()
				_, err := tc.Write([]byte("frame;"))
				mu.Unlock()
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	// CloseWrite's alert is queued like any record; wait for the peer
	// to have everything before closing.
	if err := tc.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	got := <-received
	tc.Close()
	if want := strings.Repeat("frame;", writers*frames); got != want {
		t.Fatalf("peer read %d bytes (%.40q...), want %d", len(got), got, len(want))
	}
}
