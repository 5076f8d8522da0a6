package stressreport

import (
	"io"
	"os"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
)

// TestTallyAheadOfItsOperation: user's operation adds its partitions and
// rows, and its wait time, before the run records it, so a harvest can
// read them an interval ahead of the operation: in an interval where its
// op is not seen yet, or that has no operation at all. They go with the
// operation, once: the op's summary counts each partition once, and its
// wait times reach the -log hdrfile= log beside its other times.
func TestTallyAheadOfItsOperation(t *testing.T) {
	type interval struct {
		ops   []measurement.Op // one operation recorded each
		tally [2]int64         // partitions (and rows) reported so far, by op
		waits []int            // the ops of the wait times harvested
	}
	for _, c := range []struct {
		name      string
		intervals []interval
	}{
		// timeline's first operation reports before the harvest of an
		// interval of insert alone, and is recorded after it
		{"op not seen yet", []interval{
			{ops: []measurement.Op{0}, tally: [2]int64{1, 3}, waits: []int{0, 1}},
			{ops: []measurement.Op{1}, tally: [2]int64{1, 3}},
		}},
		// timeline's second operation reports before the harvest of an
		// interval in which nothing is recorded
		{"interval without operations", []interval{
			{ops: []measurement.Op{1}, tally: [2]int64{0, 2}, waits: []int{1}},
			{tally: [2]int64{0, 5}, waits: []int{1}},
			{ops: []measurement.Op{1}, tally: [2]int64{0, 5}},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			table, err := measurement.NewOps("insert", "timeline", measurement.CleanupName)
			if err != nil {
				t.Fatal(err)
			}
			m := NewMetrics(io.Discard, false, table)
			m.EveryRow = true
			m.GCSample = func() GCStats { return GCStats{} }
			var iv interval
			m.Tally = func(k int) (int64, int64) { return iv.tally[k], iv.tally[k] }
			m.Waits = func(into []*hdrhistogram.Histogram) {
				for _, k := range iv.waits {
					into[k].RecordValue(40)
				}
			}
			path := t.TempDir() + "/run.hdr"
			lg, err := measurement.CreateTaggedHdrLog(path, HdrComment, 0)
			if err != nil {
				t.Fatal(err)
			}
			m.HDR = lg
			m.WallMs = func(ns int64) int64 { return ns / 1e6 }
			m.StartRun(time.Unix(0, 0), 0)
			const s = int64(time.Second)
			var ops, waits [2]int64
			for i, v := range c.intervals {
				iv = v
				var ms []measurement.Measurement
				for _, op := range v.ops {
					ms = append(ms, measurement.Measurement{Op: op, Kind: measurement.KindOK, Hist: hist(900)})
					ops[op]++
				}
				for _, k := range v.waits {
					waits[k]++
				}
				m.AddInterval(int64(i)*s, int64(i+1)*s, &measurement.Snapshot{Measurements: ms})
			}
			if err := lg.Close(); err != nil {
				t.Fatal(err)
			}
			counts := hdrCounts(t, path)
			tally := c.intervals[len(c.intervals)-1].tally
			for k, name := range m.names {
				got := m.sum[k]
				if got.ops() != ops[k] || got.partitions != tally[k] || got.rows != tally[k] || got.wait.TotalCount() != waits[k] {
					t.Errorf("%s: %d operations, %d partitions, %d rows, %d wait times; want %d, %d, %d, %d",
						name, got.ops(), got.partitions, got.rows, got.wait.TotalCount(), ops[k], tally[k], tally[k], waits[k])
				}
				if counts[name+"-st"] != ops[k] || counts[name+"-wt"] != waits[k] {
					t.Errorf("%s: the log's values %v, want %d -st and %d -wt", name, counts, ops[k], waits[k])
				}
			}
			if n := m.sumTotal.partitions; n != tally[0]+tally[1] {
				t.Errorf("total: %d partitions, want %d", n, tally[0]+tally[1])
			}
		})
	}
}

// hdrCounts are the values of the interval log at path, by tag.
func hdrCounts(t *testing.T, path string) map[string]int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := hdrhistogram.NewHistogramLogReader(f)
	counts := map[string]int64{}
	for {
		h, err := rd.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			return counts
		}
		counts[h.Tag()] += h.TotalCount()
	}
}
