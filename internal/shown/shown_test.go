package shown

import (
	"strings"
	"testing"
	"unicode/utf8"
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
		if l := Line(s); len(l) > 4*MaxLine+40 || strings.ContainsAny(l, "\x1b\n\r\x07") || !utf8.ValidString(l) {
			t.Fatalf("Line(%q) = %q", s, l)
		}
	})
}

func TestLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"x.json: operations: -5 is negative", "x.json: operations: -5 is negative"},
		{"a\nb\x1b[2Jc\x07 é", `a\nb\x1b[2Jc\a é`},
		{"bad \xff byte", `bad \xff byte`},
		{strings.Repeat("x", 50<<20), strings.Repeat("x", MaxLine) + "... (52428800 bytes)"},
	} {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%.80q) = %.200q, want %.200q", tt.in, got, tt.want)
		}
	}
}
