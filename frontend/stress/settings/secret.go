package settings

import (
	"regexp"
	"strings"

	"github.com/goycsb/ycsb/internal/secret"
)

// Secrets on the command line: -mode password=, -transport
// truststore-password= and keystore-password=, and any name=value whose
// name looks like a secret (a password, a passphrase, a secret, a token,
// credentials or key material), also inside replication(...),
// compaction(...) and storage(...). Their values are taken as typed and
// printed nowhere: not in a message, not in the settings block.

// secretName reports whether the value of the option name (with or
// without its "=") is a secret.
func secretName(name string) bool {
	n := strings.ToLower(strings.TrimSuffix(name, "="))
	if secret.IsPassword(n) {
		return true
	}
	words := strings.FieldsFunc(n, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	for i, w := range words {
		for _, s := range []string{"pass", "pwd", "secret", "credential"} {
			if strings.Contains(w, s) {
				return true
			}
		}
		if strings.HasSuffix(w, "token") || strings.HasSuffix(w, "tokens") {
			return true
		}
		for _, m := range []string{"private", "access", "api", "signing", "encryption", "master"} {
			if w == m+"key" || w == "key" && i > 0 && words[i-1] == m {
				return true
			}
		}
	}
	return false
}

// isOptionName reports whether s can be the name of a name=value word:
// letters, digits, '-', '_' and '.', starting with a letter or a digit.
func isOptionName(s string) bool {
	if s == "" || !isAlnum(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// secretArg reports whether the command-line argument a is the whole word
// of a secret option with its value (password=a b): such an argument is
// one word, its value as typed, spaces, quotes and all, not split and
// repaired as the other words are (a password cannot be repaired).
func secretArg(a string) bool {
	name, v, ok := strings.Cut(a, "=")
	return ok && v != "" && isOptionName(name) && secretName(name)
}

// secretKeyWord reports whether w is name= of a secret option with no
// value: the value is the next argument (password= abc).
func secretKeyWord(w string) bool {
	name, v, ok := strings.Cut(w, "=")
	return ok && v == "" && isOptionName(name) && secretName(name)
}

var reInnerKV = regexp.MustCompile(`([(,])([A-Za-z0-9][A-Za-z0-9_.-]*)=([^,)]*)`)

// maskWord is the word w of group as it may be printed: the value of a
// secret name=value masked, and for -schema any inside name(k=v,...)
// (the options of ops(...) and ratio(...) are names of operations).
func maskWord(group, w string) string {
	if name, v, ok := strings.Cut(w, "="); ok && v != "" && isOptionName(name) && secretName(name) {
		return name + "=" + secret.Mask
	}
	if group != "-schema" || !strings.Contains(w, "(") {
		return w
	}
	return reInnerKV.ReplaceAllStringFunc(w, func(m string) string {
		sub := reInnerKV.FindStringSubmatch(m)
		if sub[3] == "" || !secretName(sub[2]) {
			return m
		}
		return sub[1] + sub[2] + "=" + secret.Mask
	})
}

// maskKV is kv's value as it may be printed.
func maskKV(kv KV) string {
	if secretName(kv.Key) && kv.Value != "" {
		return secret.Mask
	}
	return kv.Value
}

// afterSecretError is the error about the word that follows a secret's
// word: it is not shown, as it may be the rest of a password the shell
// split.
func afterSecretError(group, secretWord string) error {
	name, _, _ := strings.Cut(secretWord, "=")
	return &Error{Group: group, Reason: "the word after " + name + "= is not an option here (not shown: it may be part of the " + name +
		"); give a value with spaces as one quoted argument, e.g. \"" + name + "=a b\""}
}
