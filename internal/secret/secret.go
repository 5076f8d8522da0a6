// Package secret keeps passwords out of everything the tool prints: the
// echoed command line, reports and their settings.
package secret

import (
	"regexp"
	"strings"
)

// Mask is what a password becomes.
const Mask = "*****"

// IsPassword reports whether a property's value is a password.
func IsPassword(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "passwd") || strings.Contains(n, "password")
}

// passwordParam matches password=... inside URLs and connection strings
// (JDBC's ?password=, libpq's password=): a single-quoted value (libpq's
// quoting, with backslash escapes) whole, else up to the next separator.
var passwordParam = regexp.MustCompile(`(?i)((?:password|passwd)\s*=\s*)('(?:[^'\\]|\\.)*'?|[^&;\s]*)`)

// Value returns value with any password in it masked: the whole value when
// name is a password property, else a URL's user password and any
// password= parameter.
func Value(name, value string) string {
	if value == "" {
		return value
	}
	if IsPassword(name) {
		return Mask
	}
	return InText(value)
}

// userInfo matches scheme://user:password@ in any text.
var userInfo = regexp.MustCompile(`(://[^/\s:@]*:)([^@\s/]*)@`)

// InText masks URL passwords and password= parameters anywhere in s.
func InText(s string) string {
	if !strings.Contains(s, "@") && !strings.Contains(strings.ToLower(s), "pass") {
		return s
	}
	s = userInfo.ReplaceAllString(s, "${1}"+Mask+"@")
	return passwordParam.ReplaceAllString(s, "${1}"+Mask)
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
