// Package secret keeps passwords out of everything the tool prints: the
// echoed command line, reports and their settings, and the bindings'
// messages. Passwords are found by where they stand (a password property's
// value, a URL's userinfo password, a password= field), never by searching
// for their text: a password "1" must not mask every 1 of "127.0.0.1".
package secret

import "strings"

// Mask is what a password becomes.
const Mask = "*****"

// IsPassword reports whether a property's value is a password, from its
// name: one of its words (see IsSecret) holds pass, pwd or pword, or is
// "password" with one typo (pasword), so that a misspelled password
// property counts too. ycsb kube takes these from its Secret.
func IsPassword(name string) bool {
	for _, w := range words(name) {
		if passwordWord(w) {
			return true
		}
	}
	return false
}

// IsSecret reports whether a property's or option's value must not be
// shown, from its name: a password (IsPassword), a secret, a token,
// credentials, or key material (a *.key, a keystore, a privatekey). The
// name is read as lower-case words (cut at anything but a letter or a
// digit), so that keyspace, keysize, insertkey and tokenaware stay visible.
func IsSecret(name string) bool {
	for i, w := range words(name) {
		if passwordWord(w) || secretWord(w) || w == "key" && i > 0 {
			return true
		}
	}
	return false
}

// words cuts a name into lower-case words of letters and digits.
func words(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// passwordWord reports whether one lower-case word names a password.
func passwordWord(w string) bool {
	for _, s := range []string{"pass", "pasw", "pwd", "pword"} {
		if strings.Contains(w, s) {
			return true
		}
	}
	return nearPassword(w)
}

// secretWords are the parts of a word that make it a secret's name.
var secretWords = []string{"secret", "secert", "secrect", "credential", "keystore", "keyfile"}

// keyMaterial are the words before "key" that make it key material.
var keyMaterial = []string{"private", "secret", "access", "api", "ssl", "tls", "client", "signing", "encryption", "master"}

// secretWord reports whether one lower-case word names a secret other
// than a password.
func secretWord(w string) bool {
	for _, s := range secretWords {
		if strings.Contains(w, s) {
			return true
		}
	}
	if strings.HasSuffix(w, "token") || strings.HasSuffix(w, "tokens") {
		return true
	}
	if k, ok := strings.CutSuffix(w, "key"); ok {
		for _, m := range keyMaterial {
			if strings.HasSuffix(k, m) {
				return true
			}
		}
	}
	return false
}

// nearPassword reports whether w holds "password" with at most one typo
// (a letter missing, added, changed, or two swapped).
func nearPassword(w string) bool {
	const p = "password"
	if len(w) < len(p)-1 {
		return false
	}
	for i := 0; i+len(p)-1 <= len(w); i++ {
		for _, n := range []int{len(p) - 1, len(p), len(p) + 1} {
			if i+n <= len(w) && typos(w[i:i+n], p) <= 1 {
				return true
			}
		}
	}
	return false
}

// typos is the optimal string alignment distance of a and b: edits of one
// byte and swaps of two adjacent ones.
func typos(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// Value returns value with any password in it masked: the whole value when
// name is a secret's (IsSecret), else what InText masks.
func Value(name, value string) string {
	if value == "" {
		return value
	}
	if IsSecret(name) {
		return Mask
	}
	return InText(value)
}

// InText masks, wherever they stand in s:
//   - a URL's userinfo password (scheme://user:PASSWORD@host), up to the
//     last @ before the end of the authority (/, ?, # or white space), as
//     net/url reads it;
//   - a URL query's password parameter (?password= or &password=, also
//     sslpassword=), up to the next &, #, ; or white space;
//   - a key=value field whose key ends in password or passwd (libpq's
//     password=, with spaces around = allowed): a single-quoted value whole
//     (backslash escapes, as libpq quotes), else up to white space or ;
//     (db.url's shard separator).
func InText(s string) string {
	sp := spans(s)
	if len(sp) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, p := range sp {
		b.WriteString(s[last:p.start])
		b.WriteString(Mask)
		last = p.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// Line is InText on one line: white space runs, newlines included, become
// one space. For error messages a binding passes on.
func Line(s string) string { return strings.Join(strings.Fields(InText(s)), " ") }

// Split cuts s at every sep that is neither inside a password (see InText)
// nor inside a single-quoted key='value', so that a ; in a password does
// not split db.url's list of URLs.
func Split(s string, sep byte) []string {
	sp := spans(s)
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if len(sp) > 0 && i >= sp[0].start {
			i = sp[0].end - 1
			sp = sp[1:]
			continue
		}
		switch {
		case s[i] == '\'' && afterEquals(s, i):
			i = quotedEnd(s, i) - 1
		case s[i] == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// Args masks the values of password properties in a command line
// (`-p db.passwd=x`, `-p db.url=...password=x`).
func Args(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if name, value, ok := strings.Cut(a, "="); ok && i > 0 && (args[i-1] == "-p" || args[i-1] == "--p") {
			out[i] = name + "=" + Value(name, value)
			continue
		}
		out[i] = InText(a)
	}
	return out
}

// span is the byte range [start, end) of one password.
type span struct{ start, end int }

// spans returns the passwords of s, in order and not overlapping.
func spans(s string) []span {
	if !strings.Contains(s, "@") && !containsFold(s, "pass") {
		return nil
	}
	var out []span
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "://"):
			if p, ok := userinfoPassword(s, i+3); ok {
				out = append(out, p)
				i = p.end // the @
			} else {
				i += 2
			}
		case s[i] == '=':
			if p, ok := fieldPassword(s, i); ok {
				out = append(out, p)
				i = p.end - 1
			}
		case s[i] == '@':
			if p, ok := nativeDSNPassword(s, i); ok && (len(out) == 0 || out[len(out)-1].end <= p.start) {
				out = append(out, p)
			}
		}
	}
	return out
}

// nativeDSNPassword finds the password of go-sql-driver's DSN
// (user:password@net(address)/db) whose @ before the network is at at:
// from the first colon of the white-space-delimited word (after a
// key= or a ; before it) up to the @.
func nativeDSNPassword(s string, at int) (span, bool) {
	n := at + 1
	for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= '0' && s[n] <= '9') {
		n++
	}
	if n == at+1 || n >= len(s) || s[n] != '(' {
		return span{}, false
	}
	start := at
	for start > 0 && !isSpace(s[start-1]) {
		start--
	}
	word := s[start:at]
	if strings.Contains(word, "://") {
		return span{}, false // a URL's userinfo (userinfoPassword)
	}
	colon := strings.IndexByte(word, ':')
	if colon < 0 || colon+1 == len(word) {
		return span{}, false
	}
	return span{start + colon + 1, at}, true
}

// userinfoPassword finds the password of the authority starting at a.
func userinfoPassword(s string, a int) (span, bool) {
	end := a
	for end < len(s) && !isSpace(s[end]) && s[end] != '/' && s[end] != '?' && s[end] != '#' {
		end++
	}
	at := strings.LastIndexByte(s[a:end], '@')
	if at < 0 {
		return span{}, false
	}
	colon := strings.IndexByte(s[a:a+at], ':')
	if colon < 0 || colon+1 == at {
		return span{}, false // no password, or an empty one
	}
	return span{a + colon + 1, a + at}, true
}

// fieldPassword finds the value of a password field whose = is at eq.
func fieldPassword(s string, eq int) (span, bool) {
	k := eq
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	keyEnd := k
	for k > 0 && isKeyByte(s[k-1]) {
		k--
	}
	key := strings.ToLower(s[k:keyEnd])
	if !strings.HasSuffix(key, "password") && !strings.HasSuffix(key, "passwd") {
		return span{}, false
	}
	query := k > 0 && (s[k-1] == '?' || s[k-1] == '&')
	v := eq + 1
	for !query && v < len(s) && (s[v] == ' ' || s[v] == '\t') {
		v++ // libpq skips them: "password= x" is the password x
	}
	if !query && v < len(s) && s[v] == '\'' {
		return span{v, quotedEnd(s, v)}, true
	}
	end := v
	for end < len(s) && !isSpace(s[end]) && s[end] != ';' && !(query && (s[end] == '&' || s[end] == '#')) {
		end++
	}
	if end == v {
		return span{}, false
	}
	return span{v, end}, true
}

// quotedEnd returns the index after the quote closing the one at q (or
// len(s)): libpq's quoting, where a backslash escapes the next byte.
func quotedEnd(s string, q int) int {
	for i := q + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			return i + 1
		}
	}
	return len(s)
}

// afterEquals reports whether the quote at q opens a key='value'.
func afterEquals(s string, q int) bool {
	i := q
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	return i > 0 && s[i-1] == '='
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// containsFold reports whether s contains the lower-case ASCII word w in
// any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}
