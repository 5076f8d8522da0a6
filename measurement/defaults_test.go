package measurement

import (
	"slices"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db/status"
)

// TestDefaultsAre0170 pins the defaults of YCSB 0.17.0, the release users
// run: percentiles 95,99 (no 50th line) and a status summary without 50=;
// master's are there when hdrhistogram.percentiles asks for the 50th.
func TestDefaultsAre0170(t *testing.T) {
	for _, c := range []struct {
		kv       map[string]string
		pcts     []float64
		want50th bool
	}{
		{nil, []float64{95, 99}, false},
		{map[string]string{"hdrhistogram.percentiles": "50,95,99"}, []float64{50, 95, 99}, true},
	} {
		cfg := config(t, c.kv)
		if !slices.Equal(cfg.Percentiles, c.pcts) {
			t.Errorf("%v: percentiles %v, want %v", c.kv, cfg.Percentiles, c.pcts)
		}
		col := NewCollector(cfg, YCSB)
		r := col.NewRecorder()
		r.Done(Read, status.OK, 0, 500_000, 0)
		snap := col.Tick()
		sum := snap.Summary(cfg)
		if got := strings.Contains(sum, ", 50="); got != c.want50th {
			t.Errorf("%v: summary %q has 50=: %v, want %v", c.kv, sum, got, c.want50th)
		}
		var rows []string
		for _, row := range snap.Rows(cfg) {
			rows = append(rows, row.Name)
		}
		if got := slices.Contains(rows, "50thPercentileLatency(us)"); got != c.want50th {
			t.Errorf("%v: rows %v have the 50th: %v, want %v", c.kv, rows, got, c.want50th)
		}
	}
}
