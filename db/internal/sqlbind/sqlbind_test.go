package sqlbind

import (
	"strings"
	"testing"

	"github.com/goycsb/ycsb/props"
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

// TestFetchSizeIsChecked: jdbc.fetchsize is a row count; a negative one,
// which JDBC drivers refuse when a scan sets it, is refused up front.
// Unset it stays unset (-1).
func TestFetchSizeIsChecked(t *testing.T) {
	for _, c := range []struct {
		set  map[string]string
		want int
		err  string
	}{
		{map[string]string{}, -1, ""},
		{map[string]string{"jdbc.fetchsize": "0"}, 0, ""},
		{map[string]string{"jdbc.fetchsize": "100"}, 100, ""},
		{map[string]string{"jdbc.fetchsize": "-3"}, 0, "jdbc.fetchsize: "},
	} {
		r := props.NewReader(props.FromMap(c.set))
		got := ReadCommon(r)
		err := r.Err()
		switch {
		case c.err == "" && (err != nil || got.FetchSize != c.want):
			t.Errorf("%v: fetch size %d, %v; want %d", c.set, got.FetchSize, err, c.want)
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err) || !props.IsBadInput(err)):
			t.Errorf("%v: %v, want a property error naming jdbc.fetchsize", c.set, err)
		}
	}
}
