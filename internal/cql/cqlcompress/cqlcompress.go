// Package cqlcompress is the CQL native protocol's frame compressors, lz4
// and snappy, as the driver's Compressor interface has them (the driver
// takes any). They differ from the driver's own lz4 and snappy packages in
// what they believe of the peer: a length the peer announces is checked
// against the protocol's largest frame before anything is allocated, and a
// body that does not decompress to the length announced is an error. Their
// Append methods append to dst, which the driver's snappy compressor does
// not (it writes from the start of dst; the driver passes nil and never
// notices, a caller that builds a frame in place does).
package cqlcompress

import (
	"encoding/binary"
	"errors"
	"fmt"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"github.com/golang/snappy"
	"github.com/pierrec/lz4/v4"
)

// MaxFrameLength is the native protocol's largest frame body (256 MiB), so
// the most a compressed body may announce.
const MaxFrameLength = 256 << 20

var (
	_ gocql.Compressor = LZ4{}
	_ gocql.Compressor = Snappy{}
)

// LZ4 is the protocol's lz4 compression: in a frame body (protocol v4 and
// earlier) a 4-byte big-endian uncompressed length, then one lz4 block;
// in a protocol v5 segment the block alone, the length in the segment's
// header.
type LZ4 struct{}

// Name implements gocql.Compressor.
func (LZ4) Name() string { return "lz4" }

const lengthSize = 4

// AppendCompressedWithLength appends src's length and its lz4 block to dst.
func (LZ4) AppendCompressedWithLength(dst, src []byte) ([]byte, error) {
	if len(src) > MaxFrameLength {
		return dst, fmt.Errorf("lz4: %d bytes to compress, above the protocol's %d", len(src), MaxFrameLength)
	}
	old := len(dst)
	dst = grow(dst, lengthSize+lz4.CompressBlockBound(len(src)))
	binary.BigEndian.PutUint32(dst[old:], uint32(len(src)))
	n, err := compressBlock(src, dst[old+lengthSize:])
	if err != nil {
		return dst[:old], err
	}
	return dst[:old+lengthSize+n], nil
}

// AppendDecompressedWithLength appends to dst the content of src, a length
// and an lz4 block.
func (LZ4) AppendDecompressedWithLength(dst, src []byte) ([]byte, error) {
	if len(src) < lengthSize {
		return dst, fmt.Errorf("lz4: a compressed body of %d bytes, shorter than its length", len(src))
	}
	return appendLZ4(dst, src[lengthSize:], binary.BigEndian.Uint32(src))
}

// AppendCompressed appends src's lz4 block to dst.
func (LZ4) AppendCompressed(dst, src []byte) ([]byte, error) {
	old := len(dst)
	dst = grow(dst, lz4.CompressBlockBound(len(src)))
	n, err := compressBlock(src, dst[old:])
	if err != nil {
		return dst[:old], err
	}
	return dst[:old+n], nil
}

// AppendDecompressed appends to dst the content of the lz4 block src,
// which must be length bytes.
func (LZ4) AppendDecompressed(dst, src []byte, length uint32) ([]byte, error) {
	return appendLZ4(dst, src, length)
}

func compressBlock(src, dst []byte) (int, error) {
	var c lz4.Compressor
	n, err := c.CompressBlock(src, dst)
	if err != nil {
		return 0, fmt.Errorf("lz4: %w", err)
	}
	return n, nil
}

// appendLZ4 decompresses block, announced as length bytes, onto dst.
func appendLZ4(dst, block []byte, length uint32) ([]byte, error) {
	// The length is the peer's word: at most a frame's, so that a bad one
	// cannot make us allocate gigabytes.
	if length > MaxFrameLength {
		return dst, fmt.Errorf("lz4: a block of %d bytes uncompressed, above the protocol's %d", length, MaxFrameLength)
	}
	if length == 0 {
		if len(block) > 1 || (len(block) == 1 && block[0] != 0) {
			return dst, errors.New("lz4: a block with content announced empty")
		}
		return dst, nil
	}
	old := len(dst)
	dst = grow(dst, int(length))
	n, err := lz4.UncompressBlock(block, dst[old:])
	if err != nil {
		return dst[:old], fmt.Errorf("lz4: %w", err)
	}
	if n != int(length) {
		return dst[:old], fmt.Errorf("lz4: a block of %d bytes uncompressed, %d announced", n, length)
	}
	return dst, nil
}

// Snappy is the protocol's snappy compression (protocol v4 and earlier; v5
// segments are lz4 or nothing): a frame body is one snappy block, whose
// uncompressed length opens it.
type Snappy struct{}

// Name implements gocql.Compressor.
func (Snappy) Name() string { return "snappy" }

// AppendCompressedWithLength appends src's snappy block to dst.
func (Snappy) AppendCompressedWithLength(dst, src []byte) ([]byte, error) {
	if len(src) > MaxFrameLength {
		return dst, fmt.Errorf("snappy: %d bytes to compress, above the protocol's %d", len(src), MaxFrameLength)
	}
	old := len(dst)
	dst = grow(dst, snappy.MaxEncodedLen(len(src)))
	// Encode writes at the start of the buffer it is given: give it the
	// tail.
	out := snappy.Encode(dst[old:], src)
	return dst[:old+len(out)], nil
}

// AppendDecompressedWithLength appends to dst the content of the snappy
// block src.
func (Snappy) AppendDecompressedWithLength(dst, src []byte) ([]byte, error) {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return dst, fmt.Errorf("snappy: %w", err)
	}
	// The length is the peer's word: at most a frame's.
	if n > MaxFrameLength {
		return dst, fmt.Errorf("snappy: a block of %d bytes uncompressed, above the protocol's %d", n, MaxFrameLength)
	}
	old := len(dst)
	dst = grow(dst, n)
	out, err := snappy.Decode(dst[old:], src)
	if err != nil {
		return dst[:old], fmt.Errorf("snappy: %w", err)
	}
	if len(out) != n {
		return dst[:old], fmt.Errorf("snappy: a block of %d bytes uncompressed, %d announced", len(out), n)
	}
	return dst, nil
}

// errSnappyV5 is what protocol v5's segment compression gets of snappy,
// which that protocol does not define.
var errSnappyV5 = errors.New("snappy: protocol v5 compresses segments with lz4 only")

// AppendCompressed is protocol v5's, which has no snappy.
func (Snappy) AppendCompressed(dst, _ []byte) ([]byte, error) { return dst, errSnappyV5 }

// AppendDecompressed is protocol v5's, which has no snappy.
func (Snappy) AppendDecompressed(dst, _ []byte, _ uint32) ([]byte, error) {
	return dst, errSnappyV5
}

// grow returns b extended by n bytes, reallocated only when its capacity
// is short.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), len(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}
