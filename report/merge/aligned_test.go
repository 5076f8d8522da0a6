package merge

import (
	"fmt"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// ticked builds a client's report whose intervals tick every second from
// t0+offset, each with its READ histogram; hists are those histograms.
func ticked(t *testing.T, seed uint64, offset time.Duration, secs int) (*jsonreport.Report, []*hdrhistogram.Histogram) {
	t.Helper()
	g := lcg(seed)
	total := hdrhistogram.New(1, 3_600_000_000, 3)
	start := t0.Add(offset)
	r := &jsonreport.Report{
		Format: jsonreport.Format, Version: jsonreport.Version, Tool: "ycsb-go", Binding: "basic", Phase: "run",
		MeasurementType: "hdrhistogram", Clients: 1,
		Settings: map[string]string{"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "1000"},
		Start:    start, End: start.Add(time.Duration(secs) * time.Second), RunTimeMs: int64(secs) * 1000,
	}
	var hists []*hdrhistogram.Histogram
	for s := range secs {
		h := hdrhistogram.New(1, 3_600_000_000, 3)
		n := 500 + int(g.next()*500)
		for range n {
			v := int64(100 + g.next()*g.next()*5000)
			h.RecordValue(v)
			total.RecordValue(v)
		}
		enc, err := jsonreport.EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		st := measurement.StatsOf(h)
		r.Intervals = append(r.Intervals, jsonreport.Interval{
			StartMs: int64(s) * 1000, EndMs: int64(s+1) * 1000,
			StartUnixMs: start.UnixMilli() + int64(s)*1000, EndUnixMs: start.UnixMilli() + int64(s+1)*1000,
			Ops: int64(n), ByOp: map[string]int64{"READ": int64(n)},
			Latency: map[string]jsonreport.IntervalLatency{"READ": {Count: st.Count, Histogram: enc}},
		})
		hists = append(hists, h)
	}
	enc, _ := jsonreport.EncodeHistogram(total)
	r.Operations = total.TotalCount()
	r.Throughput = float64(r.Operations) / float64(secs)
	r.Measurements = []jsonreport.Measurement{{Name: "READ", Operation: "READ", Count: total.TotalCount(), Histogram: enc,
		Returns: []jsonreport.Return{{Status: "OK", Count: total.TotalCount()}}}}
	return r, hists
}

// TestMergeAlignedIntervals: clients that ticked together (a few ms
// apart, as with a common starttime) merge interval by interval: the
// operations add up and each interval's percentiles are those of the
// clients' merged interval histograms.
func TestMergeAlignedIntervals(t *testing.T) {
	var reps []*jsonreport.Report
	var hists [][]*hdrhistogram.Histogram
	for i, off := range []time.Duration{0, 7 * time.Millisecond, 3 * time.Millisecond} {
		r, h := ticked(t, uint64(i+1), off, 5)
		reps, hists = append(reps, r), append(hists, h)
	}
	out, err := Merge([]string{"a.json", "b.json", "c.json"}, reps)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Intervals) != 5 {
		t.Fatalf("%d merged intervals, want 5", len(out.Intervals))
	}
	for k, iv := range out.Intervals {
		want := hdrhistogram.New(1, 3_600_000_000, 3)
		var ops int64
		for c := range reps {
			want.Merge(hists[c][k])
			ops += reps[c].Intervals[k].Ops
		}
		if iv.Ops != ops || iv.ByOp["READ"] != ops {
			t.Errorf("interval %d: %d operations, want %d", k, iv.Ops, ops)
		}
		if iv.StartUnixMs != t0.UnixMilli()+int64(k)*1000 || iv.StartMs != int64(k)*1000 {
			t.Errorf("interval %d starts at %d (%d ms)", k, iv.StartUnixMs, iv.StartMs)
		}
		l, ok := iv.Latency["READ"]
		if !ok {
			t.Fatalf("interval %d has no latency", k)
		}
		st := measurement.StatsOf(want)
		for _, p := range jsonreport.IntervalPercentiles {
			if got := l.Percentiles[jsonreport.PercentileKey(p)]; got != st.Percentile(p) {
				t.Errorf("interval %d p%v = %d, want %d", k, p, got, st.Percentile(p))
			}
		}
		if l.Count != want.TotalCount() || l.MaxUs != st.Max {
			t.Errorf("interval %d: count %d max %d, want %d %d", k, l.Count, l.MaxUs, want.TotalCount(), st.Max)
		}
	}
}

// TestMergeUnalignedIntervals: clients that started half an interval
// apart fall back to the one-second grid, without latency per interval,
// and every operation lands in exactly one of its intervals.
func TestMergeUnalignedIntervals(t *testing.T) {
	a, _ := ticked(t, 1, 0, 5)
	b, _ := ticked(t, 2, 500*time.Millisecond, 5)
	old, _ := ticked(t, 3, 0, 5)
	for i := range old.Intervals {
		old.Intervals[i].StartUnixMs, old.Intervals[i].EndUnixMs = 0, 0 // written before absolute times
	}
	for _, pair := range [][]*jsonreport.Report{{a, b}, {a, old}} {
		out, err := Merge([]string{"a.json", "b.json"}, pair)
		if err != nil {
			t.Fatal(err)
		}
		var ops, byOp int64
		for _, iv := range out.Intervals {
			ops += iv.Ops
			for _, n := range iv.ByOp {
				byOp += n
			}
			if iv.Latency != nil {
				t.Fatalf("latency kept for intervals that do not line up: %+v", iv)
			}
		}
		// Spread over the grid, an interval's operations are each counted
		// once: the intervals add up exactly.
		if want := pair[0].Operations + pair[1].Operations; ops != want || byOp != want {
			t.Errorf("intervals add up to %d operations (%d by operation), want %d", ops, byOp, want)
		}
	}
}

// A merged report keeps every client's seed, in the order of the reports,
// and a merge of merged reports keeps them all.
func TestMergeKeepsClientSeeds(t *testing.T) {
	var reps []*jsonreport.Report
	for i, seed := range []uint64{11, 1<<63 + 5} {
		r, _ := ticked(t, uint64(i+1), 0, 3)
		r.Seed = seed
		reps = append(reps, r)
	}
	out, err := Merge([]string{"a.json", "b.json"}, reps)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(out.ClientSeeds); got != "[11 9223372036854775813]" {
		t.Errorf("merged seeds %s, want both clients' in order", got)
	}
	if out.Seed != 0 {
		t.Errorf("a merged report has no seed of its own, got %d", out.Seed)
	}
	third, _ := ticked(t, 3, 0, 3)
	third.Seed = 7
	again, err := Merge([]string{"ab.json", "c.json"}, []*jsonreport.Report{out, third})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(again.ClientSeeds); got != "[11 9223372036854775813 7]" {
		t.Errorf("seeds after merging a merge %s", got)
	}
}
