package cqlcompress

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	driverlz4 "github.com/apache/cassandra-gocql-driver/v2/lz4"
	driversnappy "github.com/apache/cassandra-gocql-driver/v2/snappy"
)

func inputs() map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 70000)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	return map[string][]byte{
		"one byte":   {'x'},
		"text":       []byte(strings.Repeat("hello, hello, ", 100)),
		"random 70k": random,
		"zeros 1M":   make([]byte, 1<<20),
	}
}

// Every input comes back, after the prefix already in dst, through both
// framings; and what ours compress the driver's decompress, and back.
func TestRoundTrip(t *testing.T) {
	type pair struct {
		ours, driver gocql.Compressor
	}
	for name, p := range map[string]pair{"lz4": {LZ4{}, driverlz4.LZ4Compressor{}}, "snappy": {Snappy{}, driversnappy.SnappyCompressor{}}} {
		for in, src := range inputs() {
			comp, err := p.ours.AppendCompressedWithLength([]byte("head"), src)
			if err != nil || string(comp[:4]) != "head" {
				t.Fatalf("%s %s: compressed %.8q, %v: the prefix was overwritten", name, in, comp, err)
			}
			out, err := p.ours.AppendDecompressedWithLength([]byte("head"), comp[4:])
			if err != nil || string(out[:4]) != "head" || !bytes.Equal(out[4:], src) {
				t.Fatalf("%s %s: decompressed %d bytes, %v", name, in, len(out), err)
			}
			if out, err := p.driver.AppendDecompressedWithLength(nil, comp[4:]); err != nil || !bytes.Equal(out, src) {
				t.Errorf("%s %s: the driver's decompressor on ours: %d bytes, %v", name, in, len(out), err)
			}
			dc, err := p.driver.AppendCompressedWithLength(nil, src)
			if err != nil {
				t.Fatal(err)
			}
			if out, err := p.ours.AppendDecompressedWithLength(nil, dc); err != nil || !bytes.Equal(out, src) {
				t.Errorf("%s %s: ours on the driver's: %d bytes, %v", name, in, len(out), err)
			}
		}
	}
	for in, src := range inputs() {
		comp, err := LZ4{}.AppendCompressed([]byte("head"), src)
		if err != nil || string(comp[:4]) != "head" {
			t.Fatalf("lz4 segment %s: %v", in, err)
		}
		out, err := LZ4{}.AppendDecompressed([]byte("head"), comp[4:], uint32(len(src)))
		if err != nil || string(out[:4]) != "head" || !bytes.Equal(out[4:], src) {
			t.Fatalf("lz4 segment %s: decompressed %d bytes, %v", in, len(out), err)
		}
	}
}

// A body that announces more than a frame can hold is refused before
// anything is allocated, and one whose content differs in length from
// what it announced is an error.
func TestBadBodies(t *testing.T) {
	lz4Comp, _ := LZ4{}.AppendCompressedWithLength(nil, []byte("hello, hello, hello"))
	longer := bytes.Clone(lz4Comp)
	longer[3]++ // one byte more than the block holds
	shorter := bytes.Clone(lz4Comp)
	shorter[3]--
	snapComp, _ := Snappy{}.AppendCompressedWithLength(nil, []byte("hello, hello, hello"))
	snapLonger := bytes.Clone(snapComp)
	snapLonger[0]++ // the length opens the block (one byte below 128)
	for _, tc := range []struct {
		name string
		c    gocql.Compressor
		body []byte
		want string
	}{
		{"lz4 3840 MiB", LZ4{}, []byte{0xf0, 0, 0, 0, 0x10, 'x'}, "above the protocol's"},
		{"lz4 256 MiB + 1", LZ4{}, []byte{0x10, 0, 0, 1, 0x10, 'x'}, "above the protocol's"},
		{"lz4 longer than its block", LZ4{}, longer, "announced"},
		{"lz4 shorter than its block", LZ4{}, shorter, "lz4"},
		{"lz4 no length", LZ4{}, []byte{0, 0}, "shorter than its length"},
		{"lz4 empty with content", LZ4{}, []byte{0, 0, 0, 0, 0x10, 'x'}, "announced empty"},
		{"snappy 3840 MiB", Snappy{}, []byte{0x80, 0x80, 0x80, 0x80, 0x0f, 0x00, 'x'}, "above the protocol's"},
		{"snappy longer than its block", Snappy{}, snapLonger, "snappy"},
		{"snappy empty", Snappy{}, nil, "snappy"},
	} {
		out, err := tc.c.AppendDecompressedWithLength([]byte("head"), tc.body)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
		if string(out) != "head" {
			t.Errorf("%s: dst became %q", tc.name, out)
		}
	}
	if _, err := (LZ4{}).AppendDecompressed(nil, []byte{0x10, 'x'}, MaxFrameLength+1); err == nil {
		t.Error("an lz4 segment announcing 256 MiB + 1 was accepted")
	}
	if _, err := (Snappy{}).AppendCompressed(nil, []byte("x")); err == nil {
		t.Error("snappy compressed a protocol v5 segment")
	}
}

// An empty body round-trips to nothing, after dst.
func TestEmpty(t *testing.T) {
	for _, c := range []gocql.Compressor{LZ4{}, Snappy{}} {
		comp, err := c.AppendCompressedWithLength(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.AppendDecompressedWithLength([]byte("head"), comp)
		if err != nil || string(out) != "head" {
			t.Errorf("%s: %q, %v", c.Name(), out, err)
		}
	}
}
