package workload

import (
	"encoding/binary"
	"math/bits"
	"strconv"

	"github.com/goycsb/ycsb/workload/generator"
)

// AppendKey appends the reference's key name for keynum to dst:
// "user", then zeros up to zeropadding digits, then the decimal number,
// hashed with fnvhash64 unless ordered. Keys are the reference's byte for
// byte, so either tool can read the other's data set.
func AppendKey(dst []byte, keynum int64, zeropadding int, ordered bool) []byte {
	if !ordered {
		keynum = generator.FNVHash64(keynum)
	}
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], keynum, 10)
	dst = append(dst, "user"...)
	for i := len(d); i < zeropadding; i++ {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}

// KeyName returns AppendKey as a string.
func KeyName(keynum int64, zeropadding int, ordered bool) string {
	return string(AppendKey(nil, keynum, zeropadding, ordered))
}

// javaHash is Java's String.hashCode continued over b (ASCII only, which is
// all a key and field name hold).
func javaHash(h int32, b []byte) int32 {
	for _, c := range b {
		h = 31*h + int32(c)
	}
	return h
}

// AppendIntegrityValue appends the deterministic value of (key, field) with
// length size, as the reference's dataintegrity mode builds it: key:field,
// then ":" and the String.hashCode of everything so far, repeated until
// long enough, then cut to size.
func AppendIntegrityValue(dst []byte, key, field string, size int) []byte {
	start := len(dst)
	dst = append(dst, key...)
	dst = append(dst, ':')
	dst = append(dst, field...)
	h := javaHash(0, dst[start:])
	for len(dst)-start < size {
		dst = append(dst, ':')
		h = 31*h + ':'
		n := len(dst)
		dst = strconv.AppendInt(dst, int64(h), 10)
		h = javaHash(h, dst[n:])
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
// the next group overwrites).
func spread6(r uint32) uint64 {
	x := uint64(r)
	v := x&31 | (x>>5&63)<<8 | (x>>10&95)<<16 | (x>>15&31)<<24 | (x>>20&63)<<32 | (x>>25&95)<<40
	return v + 0x202020202020
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
