package measurement

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db/status"
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

// TestRunTable: a run measures the operations of its own table, any
// number of them, under their names as given: the sections, their
// operation, the causes of failures and the sessions' CLEANUP.
func TestRunTable(t *testing.T) {
	names := []string{"insert"}
	for i := 1; i <= 20; i++ {
		names = append(names, fmt.Sprintf("q%02d", i))
	}
	ops, err := NewOps(append(names, CleanupName)...)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, map[string]string{"measurement.interval": "both"})
	c := NewCollector(cfg, ops)
	var said []string
	causes := NewCauses(ops, func(l string) { said = append(said, l) })
	s := NewSession(okSession{}, c.NewRecorder())
	for i := range names {
		s.Record(Op(i), status.OK, 1000, 2000+int64(i)*1000)
	}
	s.Record(20, status.Error, 1000, 9000)
	causes.Add(20, status.Error, fmt.Errorf("timed out"))
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Tick()
	got := map[string]string{}
	for _, m := range c.Total().Measurements {
		got[m.Name] = m.Operation
	}
	for _, n := range names {
		if got[n] != n || got["Intended-"+n] != n {
			t.Errorf("%s: sections %q and %q", n, got[n], got["Intended-"+n])
		}
	}
	if got["q20-FAILED"] != "q20" || got[CleanupName] != CleanupName || len(got) != 2*len(names)+4 {
		t.Errorf("sections %v", got)
	}
	if strings.Join(said, "\n") != "q20 ERROR: timed out" {
		t.Errorf("causes said %q", said)
	}
}

// TestTableWithoutCleanup: a table without CLEANUP measures no close.
func TestTableWithoutCleanup(t *testing.T) {
	ops, err := NewOps("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	c := NewCollector(config(t, nil), ops)
	s := NewSession(okSession{}, c.NewRecorder())
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Tick()
	if ms := c.Total().Measurements; len(ms) != 0 {
		t.Errorf("measured %v", ms)
	}
}
