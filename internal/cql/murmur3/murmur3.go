// Package murmur3 is Cassandra's MurmurHash3: the hash of its
// Murmur3Partitioner (the token of a partition key) and of cassandra-stress's
// generator seeds.
package murmur3

import (
	"math"
	"math/bits"
)

// Token is the Murmur3Partitioner token of a partition key as the node
// sees it (the routing key: a single column's value, or the composite of
// several): Hash, with the minimum moved to the maximum, the minimum being
// no partition's (Murmur3Partitioner.getToken, normalize, in
// org.apache.cassandra.dht of Cassandra 5.0).
func Token(key []byte) int64 {
	h := Hash(key)
	if h == math.MinInt64 {
		return math.MaxInt64
	}
	return h
}

// Hash returns the first half of Cassandra's MurmurHash.hash3_x64_128 with
// seed 0 (org.apache.cassandra.utils.MurmurHash). It differs from
// MurmurHash3 in one place: tail bytes are sign-extended before they are
// shifted in, so it only matches MurmurHash3 for tails below 0x80.
func Hash(key []byte) int64 {
	const (
		c1 = 0x87c37b91114253d5
		c2 = 0x4cf5ad432745937f
	)
	var h1, h2 uint64
	n := len(key)
	nblocks := n / 16
	le := func(b []byte) uint64 {
		var v uint64
		for i := 7; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
		return v
	}
	for i := 0; i < nblocks; i++ {
		k1 := le(key[i*16:])
		k2 := le(key[i*16+8:])
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	tail := key[nblocks*16:]
	var k1, k2 uint64
	sx := func(b byte) uint64 { return uint64(int64(int8(b))) }
	for i := len(tail) - 1; i >= 8; i-- {
		k2 ^= sx(tail[i]) << (8 * (i - 8))
	}
	if len(tail) > 8 {
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
	}
	for i := min(len(tail), 8) - 1; i >= 0; i-- {
		k1 ^= sx(tail[i]) << (8 * i)
	}
	if len(tail) > 0 {
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	h1 += h2
	return int64(h1)
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
