package murmur3

import (
	"encoding/hex"
	"testing"
)

// Tokens a Cassandra 5.0 node gave (SELECT k, token(k) FROM t, k a blob
// partition key): short keys, a 16-byte block, a block and a tail, and a
// tail of bytes above 0x7f, where the hash sign-extends.
func TestToken(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want int64
	}{
		{"61", -8839064797231613815},
		{"68656c6c6f", -3758069500696749310},
		{"0000000100000002", -5168409507470576865},
		{"000102030405060708090a0b0c0d0e0f", 4920504430128807728},
		{"7573657231323334353637383930313233", -3214745186126657514},
		{"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0ef80", -5173758921418617765},
	} {
		key, err := hex.DecodeString(tc.key)
		if err != nil {
			t.Fatal(err)
		}
		if got := Token(key); got != tc.want {
			t.Errorf("Token(0x%s) = %d, want %d", tc.key, got, tc.want)
		}
	}
}

func TestTokenAllocates(t *testing.T) {
	key := []byte("user1234567890123")
	if n := testing.AllocsPerRun(100, func() { Token(key) }); n != 0 {
		t.Errorf("Token allocates %v times", n)
	}
}
