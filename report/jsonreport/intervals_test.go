package jsonreport

import (
	"encoding/json"
	"slices"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// oneSecond returns harvest i of a run: 1 s long, i+1 operations (READ
// and UPDATE), with a latency histogram of values when they are given.
func oneSecond(t *testing.T, i int64, values ...int64) Interval {
	in := Interval{StartMs: i * 1000, EndMs: (i + 1) * 1000, StartUnixMs: 5e12 + i*1000, EndUnixMs: 5e12 + (i+1)*1000,
		Ops: i + 1, ByOp: map[string]int64{"READ": i/2 + 1, "UPDATE": (i + 1) - (i/2 + 1)}}
	if len(values) > 0 {
		h := hdrhistogram.New(1, 3_600_000_000, 3)
		for _, v := range values {
			h.RecordValue(v)
		}
		in.Latency = map[string]IntervalLatency{"READ": IntervalLatencyOf(h)}
	}
	return in
}

// TestIntervalsShortRunUnchanged: a run of up to MaxIntervals harvests
// reports each of them as it came.
func TestIntervalsShortRunUnchanged(t *testing.T) {
	var l Intervals
	var want []Interval
	for i := int64(0); i < MaxIntervals; i++ {
		in := oneSecond(t, i)
		if i%1000 == 0 {
			in = oneSecond(t, i, 10, 20, 30)
		}
		l.Add(in)
		want = append(want, in)
	}
	got := l.List()
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Fatalf("a short run's intervals changed (%d kept of %d)", len(got), len(want))
	}
}

// TestIntervalsBounded: 200,000 harvests (2.3 days at the default one a
// second) keep at most MaxIntervals intervals, which tile the run without
// gap or overlap, all the same length but the last, and keep every
// operation.
func TestIntervalsBounded(t *testing.T) {
	const n = 200_000
	var l Intervals
	var ops, reads, latencies int64
	for i := int64(0); i < n; i++ {
		in := oneSecond(t, i)
		if i%5000 == 0 {
			in = oneSecond(t, i, 100)
			latencies++
		}
		ops += in.Ops
		reads += in.ByOp["READ"]
		l.Add(in)
		if k := len(l.list); k > MaxIntervals {
			t.Fatalf("after %d harvests %d intervals are kept, more than %d", i+1, k, MaxIntervals)
		}
	}
	got := l.List()
	if len(got) < MaxIntervals/2 || len(got) > MaxIntervals {
		t.Fatalf("%d intervals kept", len(got))
	}
	var sumOps, sumReads, sumLat int64
	for i, in := range got {
		sumOps += in.Ops
		sumReads += in.ByOp["READ"]
		sumLat += in.Latency["READ"].Count
		if i > 0 && (in.StartMs != got[i-1].EndMs || in.StartUnixMs != got[i-1].EndUnixMs) {
			t.Fatalf("interval %d starts at %d, the one before ends at %d", i, in.StartMs, got[i-1].EndMs)
		}
		if i < len(got)-1 && in.EndMs-in.StartMs != got[0].EndMs-got[0].StartMs {
			t.Fatalf("interval %d is %d ms long, the first %d", i, in.EndMs-in.StartMs, got[0].EndMs-got[0].StartMs)
		}
	}
	if got[0].StartMs != 0 || got[len(got)-1].EndMs != n*1000 {
		t.Fatalf("intervals cover %d..%d ms, want 0..%d", got[0].StartMs, got[len(got)-1].EndMs, n*1000)
	}
	if sumOps != ops || sumReads != reads || sumLat != latencies {
		t.Fatalf("ops %d reads %d latencies %d, want %d %d %d", sumOps, sumReads, sumLat, ops, reads, latencies)
	}
}

// TestIntervalsMergeLatency: two merged intervals' latency is that of
// their merged histograms, not an average of percentiles.
func TestIntervalsMergeLatency(t *testing.T) {
	a, b := oneSecond(t, 0, 10, 10, 10), oneSecond(t, 1, 1000)
	mergeInterval(&a, b)
	lat := a.Latency["READ"]
	if lat.Count != 4 || lat.MaxUs < 999 || lat.Percentiles["p50"] != 10 || lat.Percentiles["p99"] < 999 || lat.MeanUs < 250 || lat.MeanUs > 260 {
		t.Fatalf("merged latency %+v", lat)
	}
	h, err := DecodeHistogram(lat.Histogram)
	if err != nil || h.TotalCount() != 4 {
		t.Fatalf("merged histogram: %v, %v", h, err)
	}
	if a.StartMs != 0 || a.EndMs != 2000 || a.Ops != 3 || !slices.Equal([]int64{a.ByOp["READ"], a.ByOp["UPDATE"]}, []int64{2, 1}) {
		t.Fatalf("merged interval %+v", a)
	}
}
