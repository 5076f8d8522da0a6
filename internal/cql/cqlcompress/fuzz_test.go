package cqlcompress

import (
	"bytes"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// fuzzDecompress feeds c's decompressor any body: it returns an error or
// as many bytes as the body announces, never more than a frame, and keeps
// dst's prefix; and what c compresses comes back.
func fuzzDecompress(f *testing.F, c gocql.Compressor) {
	for _, s := range []string{"", "x", "hello, hello, hello, hello"} {
		comp, err := c.AppendCompressedWithLength(nil, []byte(s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(comp)
	}
	f.Add([]byte{0xf0, 0, 0, 0, 0x10, 'x'})
	f.Add([]byte{0x80, 0x80, 0x80, 0x80, 0x0f, 0x00, 'x'})
	f.Fuzz(func(t *testing.T, body []byte) {
		out, err := c.AppendDecompressedWithLength([]byte("head"), body)
		if string(out[:4]) != "head" {
			t.Fatalf("dst's prefix became %q", out[:4])
		}
		if err != nil {
			if len(out) != 4 {
				t.Fatalf("an error (%v) with %d bytes appended", err, len(out)-4)
			}
		} else if len(out)-4 > MaxFrameLength {
			t.Fatalf("%d bytes decompressed", len(out)-4)
		}
		comp, err := c.AppendCompressedWithLength(nil, body)
		if err != nil {
			t.Fatal(err)
		}
		back, err := c.AppendDecompressedWithLength(nil, comp)
		if err != nil || !bytes.Equal(back, body) {
			t.Fatalf("round trip of %d bytes: %d bytes, %v", len(body), len(back), err)
		}
	})
}

func FuzzLZ4(f *testing.F)    { fuzzDecompress(f, LZ4{}) }
func FuzzSnappy(f *testing.F) { fuzzDecompress(f, Snappy{}) }
