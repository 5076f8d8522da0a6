package measurement

import (
	"bytes"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db/status"
)

// liveBytes returns the heap in use after a collection.
func liveBytes() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestRecorderFootprint bounds what a worker's Recorder holds when it
// measures two operations of similar latencies, through two harvests (so
// that both of its sets have been recorded into). A thousand workers are
// a routine run: a dense one-hour histogram per operation and set made
// that 0.7 MiB each.
func TestRecorderFootprint(t *testing.T) {
	const workers, limit = 200, 24 << 10 // measured: about 15 KiB
	c := NewCollector(config(t, nil), YCSB)
	warm := c.NewRecorder()
	warm.Done(Read, status.OK, 0, 3_000, 0)
	warm.Done(Update, status.OK, 0, 3_000, 0)
	c.Tick() // the Collector's own histograms exist from here on
	before := liveBytes()
	recs := make([]*Recorder, workers)
	record := func() {
		for i, r := range recs {
			for j := int64(0); j < 50; j++ {
				r.Done(Read, status.OK, 0, 1_000+(int64(i)+j)*37, 0) // 1-10 µs
				r.Done(Update, status.OK, 0, 2_000+(int64(i)+j)*53, 0)
			}
		}
	}
	for i := range recs {
		recs[i] = c.NewRecorder()
	}
	record()
	c.Tick()
	record()
	c.Tick()
	per := float64(liveBytes()-before) / workers
	if per > limit {
		t.Errorf("a Recorder holding READ and UPDATE takes %.0f bytes, want at most %d", per, limit)
	}
	if testing.Verbose() {
		t.Logf("%.0f bytes per Recorder", per)
	}
	runtime.KeepAlive(recs)
	runtime.KeepAlive(c)
}

// TestCollectorMatchesDense records fixed-seed latencies over the whole
// range (clamped past it) through several Recorders and harvests, and
// compares every interval's and the total's histograms, encoded, with
// dense histograms that recorded the same values directly.
func TestCollectorMatchesDense(t *testing.T) {
	for _, kv := range []map[string]string{
		nil,
		{"measurement.interval": "both", "reportlatencyforeacherror": "true"},
		{"hdrhistogram.highestlatency": "60000000", "measurementtype": "hdrhistogram+histogram"},
	} {
		cfg := config(t, kv)
		c := NewCollector(cfg, YCSB)
		recs := []*Recorder{c.NewRecorder(), c.NewRecorder(), c.NewRecorder()}
		newDense := func() *hdrhistogram.Histogram { return hdrhistogram.New(1, cfg.HighestLatencyUs, sigFigs) }
		total := map[string]*hdrhistogram.Histogram{}
		rng := rand.New(rand.NewPCG(3, 4))
		top := math.Log2(float64(cfg.HighestLatencyUs)) + 2
		statuses := []status.Status{status.OK, status.OK, status.OK, status.Error, status.NotFound}
		for tick := 0; tick < 4; tick++ {
			interval := map[string]*hdrhistogram.Histogram{}
			add := func(name string, us int64) {
				us = min(max(us, 0), cfg.HighestLatencyUs)
				for _, m := range []map[string]*hdrhistogram.Histogram{interval, total} {
					if m[name] == nil {
						m[name] = newDense()
					}
					m[name].RecordValue(us)
				}
			}
			for i := 0; i < 5000; i++ {
				us := int64(math.Exp2(rng.Float64()*top)) - 1
				lag := int64(rng.IntN(3000))
				op := []Op{Read, Update, Insert}[rng.IntN(3)]
				st := statuses[rng.IntN(len(statuses))]
				end := int64(1e12)
				start := end - us*1000
				recs[i%len(recs)].Done(op, st, start, end, start-lag*1000)
				name := YCSB.MeasurementName(op, cfg.KindOf(st))
				add(name, us)
				if cfg.Interval == IntervalBoth {
					add("Intended-"+name, us+lag)
				}
			}
			compare(t, "interval", c.Tick(), interval)
		}
		compare(t, "total", c.Total(), total)
	}
}

func compare(t *testing.T, what string, snap *Snapshot, want map[string]*hdrhistogram.Histogram) {
	t.Helper()
	seen := 0
	for _, m := range snap.Measurements {
		if m.Hist == nil {
			continue
		}
		w := want[m.Name]
		if w == nil {
			t.Errorf("%s: %s recorded, not expected", what, m.Name)
			continue
		}
		seen++
		a, err := m.Hist.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			t.Fatal(err)
		}
		b, err := w.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: %s: histogram (%d values, p99 %d) differs from the dense one (%d values, p99 %d)",
				what, m.Name, m.Hist.TotalCount(), m.Hist.ValueAtQuantile(99), w.TotalCount(), w.ValueAtQuantile(99))
		}
	}
	if seen != len(want) {
		t.Errorf("%s: %d histograms, want %d", what, seen, len(want))
	}
}
