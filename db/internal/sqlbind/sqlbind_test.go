package sqlbind

import (
	"strings"
	"testing"
)

// TestShardIndex: the reference's abs(key.hashCode()) % n (hash values
// from internal/javahash's test).
func TestShardIndex(t *testing.T) {
	// Integer.MIN_VALUE: Java's abs keeps it negative; we use 2^31.
	if got := ShardIndex("polygenelubricants", 3); got != int((int64(1)<<31)%3) {
		t.Errorf("ShardIndex(MIN_VALUE) = %d", got)
	}
	if got := ShardIndex("user6284781860667377211", 3); got != 594971599%3 {
		t.Errorf("ShardIndex = %d", got)
	}
}

func TestSplitURLs(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{" jdbc:postgresql://a/d ;jdbc:postgresql://b/d;; ", []string{"jdbc:postgresql://a/d", "jdbc:postgresql://b/d"}},
		{"host=a password='p@ss w;rd=&?' dbname=d;host=b", []string{"host=a password='p@ss w;rd=&?' dbname=d", "host=b"}},
		{"postgres://u:p%40ss%20w;rd=&%3F@h/db;jdbc:postgresql://b/d", []string{"postgres://u:p%40ss%20w;rd=&%3F@h/db", "jdbc:postgresql://b/d"}},
	}
	for _, tt := range tests {
		if got := SplitURLs(tt.in); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("SplitURLs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
