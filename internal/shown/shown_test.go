package shown

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"basic", `"basic"`},
		{"", `""`},
		{"\x1b[2J\x1b]0;owned\x07", `"\x1b[2J\x1b]0;owned\a"`},
		{"\xff\xfe", `"\xff\xfe"`},
		{strings.Repeat("a", Max), `"` + strings.Repeat("a", Max) + `"`},
		{strings.Repeat("b", 50<<20), `"` + strings.Repeat("b", Max) + `"... (52428800 bytes)`},
		// A rune is not cut in two.
		{strings.Repeat("a", Max-1) + "é" + "zz", `"` + strings.Repeat("a", Max-1) + `"... (67 bytes)`},
	} {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%.80q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func FuzzQuote(f *testing.F) {
	f.Add("x\x1b[31m")
	f.Add(strings.Repeat("é", 40))
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if len(q) > 4*Max+40 || strings.ContainsAny(q, "\x1b\n\r\x07") {
			t.Fatalf("Quote(%q) = %q", s, q)
		}
	})
}
