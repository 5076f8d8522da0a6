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
	if keynum < 0 {
		// Only fnvhash64's MinInt64 escape: the reference pads before the sign.
		d := strconv.AppendInt(nil, keynum, 10)
		dst = append(dst, "user"...)
		for i := len(d); i < zeropadding; i++ {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	var digits [32]byte // 24 digits, then slack for the 8-byte loads below
	n := decimalDigits(uint64(keynum), &digits)
	pad := max(zeropadding-n, 0)
	l := len(dst)
	total := 4 + pad + n
	if cap(dst)-l < total+8 {
		grown := make([]byte, l, 2*cap(dst)+total+8)
		copy(grown, dst)
		dst = grown
	}
	out := dst[l : l+total+8]
	binary.LittleEndian.PutUint32(out, 'u'|'s'<<8|'e'<<16|'r'<<24)
	for i := 4; i < 4+pad; i++ {
		out[i] = '0'
	}
	// Whole 8-byte moves: the bytes past the key land in dst's spare capacity.
	src := digits[24-n:]
	for i := 0; i < n; i += 8 {
		binary.LittleEndian.PutUint64(out[4+pad+i:], binary.LittleEndian.Uint64(src[i:]))
	}
	return dst[:l+total]
}

// decimalDigits writes u in decimal, right-aligned in d[:24], and returns
// the number of digits.
func decimalDigits(u uint64, d *[32]byte) int {
	a := u / 1e16
	r := u - a*1e16
	b := r / 1e8
	c := r - b*1e8
	binary.LittleEndian.PutUint64(d[0:], digits8(uint32(a)))
	binary.LittleEndian.PutUint64(d[8:], digits8(uint32(b)))
	binary.LittleEndian.PutUint64(d[16:], digits8(uint32(c)))
	// log10 from the bit length (1233/4096 ≈ log10 2), corrected by one
	// comparison.
	v := u | 1 // same digit count, and 0 counts as one digit
	n := bits.Len64(v)*1233>>12 + 1
	if v < pow10[n-1] {
		n--
	}
	return n
}

var pow10 = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// digits8 returns the eight ASCII digits of v < 1e8 as a little-endian word,
// most significant digit first, computed in parallel lanes (SWAR): split into
// 4-digit halves, then 2-digit pairs, then digits, with multiply-shift
// division that is exact for these ranges.
func digits8(v uint32) uint64 {
	x := uint64(v/10000) | uint64(v%10000)<<32
	q := (x * 10486 >> 20) & 0x0000007F0000007F // each 32-bit lane / 100
	x = q | (x-q*100)<<16
	q = (x * 103 >> 10) & 0x000F000F000F000F // each 16-bit lane / 10
	x = q | (x-q*10)<<8
	return x | 0x3030303030303030
}
