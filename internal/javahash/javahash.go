// Package javahash is java.lang.String.hashCode, which the reference uses
// to order its ConcurrentHashMaps (and so its report sections), to pick a
// JDBC shard for a key and to build data-integrity values. Ours must give
// the same numbers for the same text.
package javahash

import "unicode/utf8"

// String returns the hashCode of the Java string holding s's characters.
func String(s string) int32 { return Extend(0, s) }

// Extend continues h, the hashCode of some text, over s: the hashCode of
// the text followed by s. Java hashes UTF-16 code units, so a character
// beyond the Basic Multilingual Plane counts as its two surrogates.
// Invalid UTF-8 counts as U+FFFD per bad byte, as Go's conversion to
// UTF-16 has it.
func Extend[T ~string | ~[]byte](h int32, s T) int32 {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return extendNonASCII(h, s[i:])
		}
		h = 31*h + int32(c)
	}
	return h
}

// extendNonASCII is Extend for text that is not all ASCII: it decodes
// characters and hashes their UTF-16 code units.
func extendNonASCII[T ~string | ~[]byte](h int32, s T) int32 {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			h = 31*h + int32(c)
			i++
			continue
		}
		// At most 4 bytes: the conversion stays on the stack.
		r, n := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + (0xd800 + r>>10)
			r = 0xdc00 + r&0x3ff
		}
		h = 31*h + r
		i += n
	}
	return h
}
