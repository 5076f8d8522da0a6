package javahash

import "testing"

func TestString(t *testing.T) {
	// Values printed by java.lang.String.hashCode on JDK 17.
	cases := []struct {
		s    string
		want int32
	}{
		{"", 0},
		{"a", 97},
		{"user1", 111578566},
		{"user6284781860667377211", -594971599},
		{"polygenelubricants", -2147483648},
		{"\U0001F600", 1772899}, // one code point, two UTF-16 units
	}
	for _, tc := range cases {
		if got := String(tc.s); got != tc.want {
			t.Errorf("hashCode(%q) = %d, want %d", tc.s, got, tc.want)
		}
		if got := Extend(0, []byte(tc.s)); got != tc.want {
			t.Errorf("Extend(0, []byte(%q)) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// TestExtend: hashing in pieces gives the hash of the whole, whatever the
// pieces, non-ASCII text included.
func TestExtend(t *testing.T) {
	s := "user1:field0:é日\U0001F600x"
	want := String(s)
	for i := range s { // at each character
		if got := Extend(String(s[:i]), s[i:]); got != want {
			t.Errorf("split at %d: %d, want %d", i, got, want)
		}
	}
}

func TestExtendAllocs(t *testing.T) {
	b := []byte("user6284781860667377211:field0:é日")
	if n := testing.AllocsPerRun(100, func() { Extend(0, b) }); n != 0 {
		t.Errorf("%v allocations, want none", n)
	}
}
