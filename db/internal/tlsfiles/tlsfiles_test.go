package tlsfiles

import (
	"context"
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadRefuses: a file that is no PEM, a device and a missing key are
// refused with the property named as given; nothing given loads nothing.
func TestLoadRefuses(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "ca.txt")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ca, cert, key File
		want          string
	}{
		{File{"x.ca", notPEM}, File{}, File{}, "x.ca"},
		{File{"x.ca", "/dev/zero"}, File{}, File{}, "x.ca=/dev/zero"},
		{File{}, File{"x.cert", notPEM}, File{"x.key", filepath.Join(t.TempDir(), "missing")}, "x.key="},
		{File{}, File{"x.cert", notPEM}, File{"x.key", notPEM}, "x.cert"},
	} {
		err := Load(context.Background(), &tls.Config{}, tc.ca, tc.cert, tc.key)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%v, %v, %v) = %v, want an error naming %q", tc.ca, tc.cert, tc.key, err, tc.want)
		}
	}
	var c tls.Config
	if err := Load(context.Background(), &c, File{}, File{}, File{}); err != nil || c.RootCAs != nil || c.Certificates != nil {
		t.Errorf("nothing given: %v, root CAs %v, %d certificates", err, c.RootCAs, len(c.Certificates))
	}
}
