package workload

import (
	"encoding/binary"
	"math/bits"
	"strconv"

	"github.com/goycsb/ycsb/internal/javahash"
)

// AppendIntegrityValue appends the deterministic value of (key, field) with
// length size, as the reference's dataintegrity mode builds it: key:field,
// then ":" and the String.hashCode of everything so far, repeated until
// long enough, then cut to size.
func AppendIntegrityValue(dst []byte, key, field string, size int) []byte {
	start := len(dst)
	dst = append(dst, key...)
	dst = append(dst, ':')
	dst = append(dst, field...)
	h := javahash.Extend(0, dst[start:])
	for len(dst)-start < size {
		dst = append(dst, ':')
		h = 31*h + ':'
		n := len(dst)
		dst = strconv.AppendInt(dst, int64(h), 10)
		h = javahash.Extend(h, dst[n:])
	}
	return dst[:start+size]
}

// wyrand is a small, fast generator for value bytes, which are most of the
// random numbers a write needs. Per worker; not for key choice, which keeps
// the worker's math/rand source.
type wyrand uint64

func (w *wyrand) next() uint64 {
	*w += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(uint64(*w), uint64(*w^0xe7037ed1a0b428db))
	return hi ^ lo
}

// valueSlack is the spare capacity fillRandom wants after a value: with it,
// every 12-byte group, the last one included, is two 8-byte stores.
const valueSlack = 14

// source is a math/rand/v2 Source over wyrand: each worker draws several
// random numbers per operation (operation, key, field), and PCG's 128-bit
// step is a visible part of that.
type source struct{ w wyrand }

func newSource(seed uint64) *source { return &source{w: wyrand(seed ^ 0x2545f4914f6cdd1d)} }

// Uint64 implements rand.Source.
func (s *source) Uint64() uint64 { return s.w.next() }

// fillRandom fills b the way the reference's RandomByteIterator does: six
// printable bytes out of each 32-bit random number (two per 64-bit draw).
func fillRandom(b []byte, src *wyrand) {
	if cap(b)-len(b) >= valueSlack {
		full := b[:len(b)+valueSlack]
		for i := 0; i < len(b); i += 12 {
			x := src.next()
			binary.LittleEndian.PutUint64(full[i:i+8], spread6(uint32(x)))
			binary.LittleEndian.PutUint64(full[i+6:i+14], spread6(uint32(x>>32)))
		}
		return
	}
	i := 0
	for ; i+12 <= len(b); i += 12 {
		x := src.next()
		put6(b[i:i+6:i+6], int32(x))
		put6(b[i+6:i+12:i+12], int32(x>>32))
	}
	if i < len(b) {
		x := src.next()
		var tmp [12]byte
		put6(tmp[0:6], int32(x))
		put6(tmp[6:12], int32(x>>32))
		copy(b[i:], tmp[:])
	}
}

// spread6 is put6 as one little-endian word (the top two bytes are junk
// the next group overwrites), from three small tables indexed by the bits
// each pair of bytes takes (bits 0-10, 10-19 and 20-31).
func spread6(r uint32) uint64 {
	return uint64(spreadLo[r&0x7ff]) | uint64(spreadMid[r>>10&0x3ff])<<16 | uint64(spreadHi[r>>20])<<32
}

var spreadLo, spreadMid, spreadHi = spreadTables()

func spreadTables() (lo [1 << 11]uint16, mid [1 << 10]uint16, hi [1 << 12]uint16) {
	for i := range lo {
		x := uint32(i)
		lo[i] = uint16(x&31+32) | uint16(x>>5&63+32)<<8
	}
	for i := range mid {
		x := uint32(i) << 10
		mid[i] = uint16(x>>10&95+32) | uint16(x>>15&31+32)<<8
	}
	for i := range hi {
		x := uint32(i) << 20
		hi[i] = uint16(x>>20&63+32) | uint16(x>>25&95+32)<<8
	}
	return
}

func put6(b []byte, r int32) {
	_ = b[5]
	b[0] = byte(r&31 + 32)
	b[1] = byte((r>>5)&63 + 32)
	b[2] = byte((r>>10)&95 + 32)
	b[3] = byte((r>>15)&31 + 32)
	b[4] = byte((r>>20)&63 + 32)
	b[5] = byte((r>>25)&95 + 32)
}
