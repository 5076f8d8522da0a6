package kv

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeEngine settles after compactAll unless stuck; its debt drains one
// poll at a time.
type fakeEngine struct {
	flushErr, compactErr error
	stuck                bool
	flushed, compacted   bool
	polls                int
	stats                Stats
}

func (f *fakeEngine) Flush() error { f.flushed = true; return f.flushErr }
func (f *fakeEngine) CompactAll(ctx context.Context) error {
	f.compacted = true
	f.stats.CompactionBytesWritten += 1000
	return f.compactErr
}
func (f *fakeEngine) Debt() Debt {
	f.polls++
	if f.stuck || f.polls < 3 {
		return Debt{PendingCompactionBytes: 5, RunningCompactions: 1, L0Files: 2}
	}
	return Debt{}
}

func TestSettleOutcomes(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       *fakeEngine
		ctx     func() context.Context
		wantErr string
	}{
		{"drains", &fakeEngine{}, context.Background, ""},
		{"gives up at the timeout", &fakeEngine{stuck: true}, context.Background,
			"not settled: still 5 bytes of compaction debt, 2 L0 files and 1 compactions running"},
		{"interrupted", &fakeEngine{stuck: true}, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, "(interrupted)"},
		{"flush fails", &fakeEngine{flushErr: errors.New("disk full")}, context.Background, "disk full"},
		{"compaction fails", &fakeEngine{compactErr: errors.New("corrupt")}, context.Background, "compact: corrupt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			took, err := Settle(c.ctx(), c.f, 200*time.Millisecond)
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("Settle = %v, want error containing %q", err, c.wantErr)
			}
			if took <= 0 {
				t.Errorf("took = %v, want the time spent", took)
			}
			if want := c.f.flushErr == nil && c.name != "interrupted"; c.f.compacted != want {
				t.Errorf("manual compaction ran: %t, want %t", c.f.compacted, want)
			}
		})
	}
}

// The report keeps the phase's rows as they were when settling began, and
// adds settling's rows after them.
func TestReporterSettleRows(t *testing.T) {
	f := &fakeEngine{}
	var r Reporter
	r.Start(t.TempDir(), func() Stats { return f.stats }, func() Debt { return Debt{L0Files: 4, L0Sublevels: 4} })
	f.stats.UserBytesWritten = 100
	if err := r.Settle(context.Background(), f, time.Second); err != nil {
		t.Fatal(err)
	}
	f.stats.LiveSSTableBytes = 5000
	got := map[string]any{}
	var names []string
	for _, s := range r.Stats() {
		got[s.Name] = s.Value
		names = append(names, s.Name)
	}
	want := map[string]any{"CompactionBytesWritten": int64(0), "SettleBytesWritten": int64(1000), "Settled": int64(1),
		"L0FilesAtStart": int64(4), "L0FilesAtEnd": int64(4), "BatchBytesWritten": int64(100), "MemtablesFlushed": int64(1),
		"LiveSSTableBytesAfterSettle": int64(5000)}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	last := names[len(names)-1]
	if last != "DiskSizeApparentAfterSettle(bytes)" {
		t.Errorf("last row %s; rows %v", last, names)
	}
	var plain Reporter
	plain.Start(t.TempDir(), func() Stats { return f.stats }, func() Debt { return Debt{} })
	rows := plain.Stats()
	if last := rows[len(rows)-1]; last.Name != "MemtablesFlushed" || last.Value != int64(0) {
		t.Errorf("without settling the last row is %s %v, want MemtablesFlushed 0", last.Name, last.Value)
	}
}
