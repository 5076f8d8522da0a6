package measured

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/props"
)

// okSession succeeds at everything.
type okSession struct{ db.Session }

func (okSession) Read(context.Context, string, string, []string, *db.Record) error { return nil }
func (okSession) Close(context.Context) error                                      { return nil }

// TestSessionSuccessAllocs: with Causes set, a successful operation
// allocates nothing (and takes no lock: Causes is reached on errors only).
func TestSessionSuccessAllocs(t *testing.T) {
	cfg := config(t, nil)
	s := NewSession(okSession{}, measurement.NewCollector(cfg, measurement.YCSB).NewRecorder())
	s.Causes = measurement.NewCauses(measurement.YCSB, func(string) { t.Error("a cause for a success") })
	ctx := context.Background()
	var rec db.Record
	s.Read(ctx, "t", "k", nil, &rec)
	if allocs := testing.AllocsPerRun(1000, func() { s.Read(ctx, "t", "k", nil, &rec) }); allocs != 0 {
		t.Errorf("a successful read allocates %.1f times", allocs)
	}
	if s.Failed != 0 {
		t.Errorf("Failed %d", s.Failed)
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
	ops, err := measurement.NewOps(append(names, measurement.CleanupName)...)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, map[string]string{"measurement.interval": "both"})
	c := measurement.NewCollector(cfg, ops)
	var said []string
	causes := measurement.NewCauses(ops, func(l string) { said = append(said, l) })
	s := NewSession(okSession{}, c.NewRecorder())
	s.Causes = causes
	for i := range names {
		s.Finish(measurement.Op(i), status.OK, 1000, 2000+int64(i)*1000, 0, nil)
	}
	s.Finish(20, status.OK, 1000, 9000, 2, fmt.Errorf("timed out"))
	if s.Failed != 1 {
		t.Errorf("Failed = %d, want the one operation Finish was given an error", s.Failed)
	}
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
	if got["q20-FAILED"] != "q20" || got[measurement.CleanupName] != measurement.CleanupName || len(got) != 2*len(names)+4 {
		t.Errorf("sections %v", got)
	}
	if strings.Join(said, "\n") != "q20 ERROR: timed out" {
		t.Errorf("causes said %q", said)
	}
}

// TestTableWithoutCleanup: a table without CLEANUP measures no close.
func TestTableWithoutCleanup(t *testing.T) {
	ops, err := measurement.NewOps("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	c := measurement.NewCollector(config(t, nil), ops)
	s := NewSession(okSession{}, c.NewRecorder())
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Tick()
	if ms := c.Total().Measurements; len(ms) != 0 {
		t.Errorf("measured %v", ms)
	}
}

// config parses kv as measurement's properties.
func config(t testing.TB, kv map[string]string) *measurement.Config {
	t.Helper()
	cfg, err := measurement.ParseConfig(props.FromMap(kv))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// render writes snap's rows as the text report.
func render(t *testing.T, cfg *measurement.Config, snap *measurement.Snapshot) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := export.WriteAll(&buf, "text", snap.Rows(cfg)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
