package jsonreport

import (
	"testing"
	"time"
)

// withUnixTimes gives r's intervals the absolute times a run writes: its
// start plus each interval's offsets.
func withUnixTimes(r *Report) {
	for i := range r.Intervals {
		iv := &r.Intervals[i]
		iv.StartUnixMs = r.Start.UnixMilli() + iv.StartMs
		iv.EndUnixMs = r.Start.UnixMilli() + iv.EndMs
	}
}

// TestReadRefusesImpossible: figures each valid on its own that no run
// writes together are refused, naming the field, so that merge and
// compare (which read every report through Read) both refuse them.
func TestReadRefusesImpossible(t *testing.T) {
	ok := valid(t)
	withUnixTimes(ok)
	if _, err := Read(encode(t, ok)); err != nil {
		t.Fatalf("the valid report with absolute interval times: %v", err)
	}
	merged := valid(t)
	merged.Clients, merged.Sources = 2, []string{"a.json", "b.json"}
	// A merge's slots may overlap by a little: each ends where its last
	// client's interval ends.
	merged.Intervals[0].EndMs = 1100
	if _, err := Read(encode(t, merged)); err != nil {
		t.Fatalf("a merge's slots that overlap by a little: %v", err)
	}
	for _, tt := range []struct {
		name   string
		change func(r *Report)
		want   string
	}{
		{"overlapping intervals", func(r *Report) { r.Intervals[1].StartMs = 0 },
			"intervals[1].start_ms: 0 is before the end of intervals[0] (end_ms 1000): the intervals of one run follow one another"},
		{"a merge's intervals out of order", func(r *Report) {
			r.Clients, r.Sources = 2, []string{"a", "b"}
			r.Intervals[1].StartMs = 0
		}, "intervals[1].start_ms: 0 is before the end of intervals[0] (end_ms 1000): the intervals of one run follow one another"},
		{"start_unix_ms against start_ms", func(r *Report) {
			withUnixTimes(r)
			r.Intervals[1].StartUnixMs += 5000
			r.Intervals[1].EndUnixMs += 5000
		}, "intervals[1].start_unix_ms: 1772366406000 is not start 2026-03-01T12:00:00Z plus start_ms 1000 (1772366401000)"},
		{"end_unix_ms against end_ms", func(r *Report) {
			withUnixTimes(r)
			r.Intervals[0].EndUnixMs += 700
		}, "intervals[0].end_unix_ms: 1772366401700 is not start 2026-03-01T12:00:00Z plus end_ms 1000 (1772366401000)"},
		{"clients", func(r *Report) { r.Clients = 1e12 }, "clients: 1000000000000 is more than 1000000"},
		{"client.count", func(r *Report) { r.Client = &Client{Index: 0, Count: 1e9} }, "client.count: 1000000000 is not from 1 to 1000"},
		{"client.index", func(r *Report) { r.Client = &Client{Index: 3, Count: 3} }, "client.index: 3 is not from 0 to client.count-1 (2)"},
		{"client verdict threads", func(r *Report) { r.ClientVerdict = &ClientVerdict{Verdicts: []string{KeptUp}, Threads: 1e9} },
			"client_verdict.threads: 1000000000 is more than 100000"},
		{"capacity step threads", func(r *Report) { withCapacity(r).Steps[0].Threads = 1e9 }, "capacity.steps[0].threads: 1000000000 is more than 100000"},
		{"intervals missing", func(r *Report) { r.Intervals = nil },
			"intervals: missing, but operations is 3 (a run records each operation in an interval)"},
		{"start == end", func(r *Report) { r.End = r.Start },
			"runtime_ms: 2000, but end is start 2026-03-01T12:00:00Z plus 0 ms"},
		{"runtime far from end - start", func(r *Report) { r.RunTimeMs = 4000; r.Throughput = 0.75 },
			"runtime_ms: 4000, but end is start 2026-03-01T12:00:00Z plus 2000 ms"},
	} {
		r := valid(t)
		tt.change(r)
		_, err := Read(encode(t, r))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: Read = %v, want %q", tt.name, err, tt.want)
		}
	}
	// The end of a run is taken on the monotonic clock, its start and end
	// on the wall clock: a millisecond apart after rounding.
	r := valid(t)
	r.End = r.End.Add(time.Millisecond + 400*time.Microsecond)
	if _, err := Read(encode(t, r)); err != nil {
		t.Errorf("runtime_ms 1 ms from end - start: %v", err)
	}
}
