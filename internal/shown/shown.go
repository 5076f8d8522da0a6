// Package shown writes a value the user gave (a file's field, a typed
// word) back in a one-line message: quoted, so that control and escape
// bytes reach no terminal, and cut to a readable length, so that a
// 50 MiB field costs one line.
package shown

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Max is how many bytes of a value a message shows.
const Max = 64

// Quote is s in Go's quoted form (strconv.Quote: escapes for control
// bytes, escape sequences and invalid UTF-8), cut after Max bytes with
// the value's size: "aaaa"... (52428800 bytes).
func Quote(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	cut := Max
	for cut > Max-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// MaxLine is how many bytes of a message Line keeps.
const MaxLine = 4096

// Line is a message made safe to print as one line: control bytes,
// escape sequences and invalid UTF-8 escaped as Quote escapes them (a
// newline too), and cut after MaxLine bytes with the message's size. It
// is the last guard of what a command prints on error; a value a message
// quotes is cut by Quote first.
func Line(s string) string {
	var b strings.Builder
	for i, r := range s {
		if b.Len() >= MaxLine {
			return b.String() + "... (" + strconv.Itoa(len(s)) + " bytes)"
		}
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i]), 16))
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}
