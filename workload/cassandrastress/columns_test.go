package cassandrastress

import (
	"strings"
	"testing"
)

// columnType: a type not generated is an error, or with
// skip-unsupported-columns leaves out a column that is no key; a key
// column of such a type is refused either way.
func TestColumnType(t *testing.T) {
	for _, c := range []struct {
		kind, typ string
		skip      bool
		keep      bool
		err       string
	}{
		{"regular", "text", false, true, ""},
		{"regular", "text", true, true, ""},
		{"regular", "map<text, int>", false, false, "-errors skip-unsupported-columns"},
		{"regular", "map<text, int>", true, false, ""},
		{"static", "list<list<int>>", true, false, ""},
		{"partition_key", "frozen<map<text, int>>", true, false, "not supported"},
		{"clustering", "frozen<map<text, int>>", false, false, "not supported"},
	} {
		_, keep, err := columnType(c.kind, c.typ, c.skip)
		if keep != c.keep || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s %s skip=%v: keep %v, %v; want keep %v, error with %q", c.kind, c.typ, c.skip, keep, err, c.keep, c.err)
		}
	}
}
