package merge

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/report/jsonreport"
)

// byRendezvous marks r as the report of a client started by a rendezvous:
// its settings hold client.rendezvous, and its starttime is the instant
// it started at, on its own clock.
func byRendezvous(r *jsonreport.Report) *jsonreport.Report {
	r.Settings["client.rendezvous"] = "127.0.0.1:7070"
	st := r.Start
	r.StartTime = &st
	return r
}

// skewed is r as written by a client whose clock is d ahead: the same
// run, every absolute time moved by d.
func skewed(r *jsonreport.Report, d time.Duration) *jsonreport.Report {
	c := *r
	c.Settings = maps.Clone(r.Settings)
	c.Start, c.End = r.Start.Add(d), r.End.Add(d)
	if r.StartTime != nil {
		st := r.StartTime.Add(d)
		c.StartTime = &st
	}
	c.Intervals = slices.Clone(r.Intervals)
	for i := range c.Intervals {
		c.Intervals[i].StartUnixMs += d.Milliseconds()
		c.Intervals[i].EndUnixMs += d.Milliseconds()
	}
	return &c
}

// snapshot is reps as JSON, to tell whether they changed.
func snapshot(t *testing.T, reps []*jsonreport.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, r := range reps {
		if err := jsonreport.Write(&b, r); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// relative is what a merged report says about the run whatever clock it
// is on: every figure but the absolute times.
func relative(r *jsonreport.Report) *jsonreport.Report {
	c := *r
	c.Start, c.End = time.Time{}, time.Time{}
	c.Intervals = slices.Clone(r.Intervals)
	for i := range c.Intervals {
		c.Intervals[i].StartUnixMs, c.Intervals[i].EndUnixMs = 0, 0
	}
	return &c
}

// TestMergeRendezvousClocks: clients started by one rendezvous merge alike
// whatever their clocks say, each put on the first one's clock: a client
// 30 s ahead or behind (more than the 5 s run lasted) gives the same
// throughput, operations, aligned intervals with their latency and client
// rows, and no warning; the caller's reports are left as they were.
func TestMergeRendezvousClocks(t *testing.T) {
	a, _ := ticked(t, 1, 0, 5)
	b, _ := ticked(t, 2, 4*time.Millisecond, 5)
	byRendezvous(a)
	byRendezvous(b)
	paths := []string{"a.json", "b.json"}
	want, err := Merge(paths, []*jsonreport.Report{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Intervals) != 5 || want.Intervals[0].Latency == nil {
		t.Fatalf("the clients' intervals were not aligned: %+v", want.Intervals)
	}
	for _, c := range []struct {
		name  string
		pair  []*jsonreport.Report
		shift time.Duration // of the merged report's times: the first client's clock
	}{
		{"second ahead", []*jsonreport.Report{a, skewed(b, 30*time.Second)}, 0},
		{"second behind", []*jsonreport.Report{a, skewed(b, -30*time.Second)}, 0},
		{"first ahead", []*jsonreport.Report{skewed(a, 30*time.Second), b}, 30 * time.Second},
	} {
		given := snapshot(t, c.pair)
		got, err := Merge(paths, c.pair)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(relative(got), relative(want)) {
			t.Errorf("%s: merged %v ops/s, %d operations, %d ms, intervals %+v; want %v, %d, %d, %+v", c.name,
				got.Throughput, got.Operations, got.RunTimeMs, got.Intervals, want.Throughput, want.Operations, want.RunTimeMs, want.Intervals)
		}
		if !got.Start.Equal(want.Start.Add(c.shift)) || !got.End.Equal(want.End.Add(c.shift)) {
			t.Errorf("%s: merged run %s to %s, want %s to %s", c.name, got.Start, got.End, want.Start.Add(c.shift), want.End.Add(c.shift))
		}
		for i, iv := range got.Intervals {
			if w := want.Intervals[i].StartUnixMs + c.shift.Milliseconds(); iv.StartUnixMs != w {
				t.Errorf("%s: interval %d starts at %d, want %d", c.name, i, iv.StartUnixMs, w)
			}
		}
		if w := Warnings(paths, c.pair); len(w) != 0 {
			t.Errorf("%s: warnings %q", c.name, w)
		}
		if !bytes.Equal(snapshot(t, c.pair), given) {
			t.Errorf("%s: Merge changed the reports it was given", c.name)
		}
	}
}

// TestMergeClocksWithoutRendezvous: reports of clients not started by a
// rendezvous keep their own times (a starttime trusts the clocks), so 30 s
// of skew is a run that did not overlap; so is a client whose report has
// no starttime to put it on another's clock.
func TestMergeClocksWithoutRendezvous(t *testing.T) {
	a, _ := ticked(t, 1, 0, 5)
	b, _ := ticked(t, 2, 4*time.Millisecond, 5)
	noStart := byRendezvous(skewed(b, 30*time.Second))
	noStart.StartTime = nil
	for name, pair := range map[string][]*jsonreport.Report{
		"starttime":    {a, skewed(b, 30*time.Second)},
		"no starttime": {byRendezvous(skewed(a, 0)), noStart},
	} {
		_, err := Merge([]string{"a.json", "b.json"}, pair)
		if err == nil || !strings.Contains(err.Error(), "do not overlap in time") {
			t.Errorf("%s: %v, want the reports refused as not overlapping", name, err)
		}
	}
	// 3 s apart, they ran together for 2 s of 8.
	w := Warnings([]string{"a.json", "b.json"}, []*jsonreport.Report{a, skewed(b, 3*time.Second)})
	if len(w) != 1 || !strings.HasPrefix(w[0], "the clients ran together for 2.0 s of 8.0 s") {
		t.Errorf("warnings %q", w)
	}
}

// TestMergeCapacityRendezvousClocks: a fleet's ladder started by a
// rendezvous merges alike when a client's clock is 30 s off: the same run
// time, steps and answer.
func TestMergeCapacityRendezvousClocks(t *testing.T) {
	reps := fleet(t)
	for _, r := range reps {
		byRendezvous(r)
	}
	want, err := MergeCapacity(fleetPaths, reps, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{30 * time.Second, -30 * time.Second} {
		off := slices.Clone(reps)
		off[2] = skewed(reps[2], d)
		got, err := MergeCapacity(fleetPaths, off, "")
		if err != nil {
			t.Fatal(err)
		}
		if got.RunTimeMs != want.RunTimeMs || !got.Start.Equal(want.Start) || !reflect.DeepEqual(got.Capacity, want.Capacity) {
			t.Errorf("client 2's clock %s off: run of %d ms from %s, or other steps; want %d ms from %s",
				d, got.RunTimeMs, got.Start, want.RunTimeMs, want.Start)
		}
	}
}
