package measurement

import (
	"fmt"
	"testing"
)

// TestNewOps: a table takes distinct, non-empty names, at most MaxOps;
// CLEANUP, where it is, is what sessions' closes are measured as.
func TestNewOps(t *testing.T) {
	many := func(n int) []string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprintf("q%d", i))
		}
		return s
	}
	for _, c := range []struct {
		names []string
		err   string
	}{
		{many(MaxOps), ""},
		{[]string{"insert", "q01", CleanupName}, ""},
		{nil, "no operations"},
		{many(MaxOps + 1), "257 operations, at most 256"},
		{[]string{"insert", ""}, "an operation without a name"},
		{[]string{"insert", "q01", "insert"}, "insert is named twice"},
	} {
		ops, err := NewOps(c.names...)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%d names: %v", len(c.names), err)
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%d names: error %v, want %s", len(c.names), err, c.err)
		case err == nil && (ops.Len() != len(c.names) || ops.Name(Op(ops.Len()-1)) != c.names[len(c.names)-1]):
			t.Errorf("%d names: table of %d", len(c.names), ops.Len())
		}
	}
	for o, want := range map[Op]string{Read: "READ", Cleanup: CleanupName, ScanLatencyPerRecord: "SCAN-LATENCY-PER-RECORD"} {
		if got := YCSB.Name(o); got != want {
			t.Errorf("YCSB.Name(%d) = %s, want %s", o, got, want)
		}
	}
}
