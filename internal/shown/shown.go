// Package shown writes a value the user gave (a file's field, a typed
// word) back in a one-line message: quoted, so that control and escape
// bytes reach no terminal, and cut to a readable length, so that a
// 50 MiB field costs one line.
package shown

import (
	"strconv"
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
