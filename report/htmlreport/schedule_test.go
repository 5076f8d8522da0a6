package htmlreport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/report/jsonreport"
)

// withSchedule paces r at target: 1000 wake-ups, 900 of them 40 µs late
// and 100 of 3 ms, and 25 late starts; the client's verdict puts the
// wake-ups at share of the intended latency.
func withSchedule(t *testing.T, r *jsonreport.Report, target int64, share float64) *jsonreport.Report {
	t.Helper()
	wake, behind := hdrhistogram.New(1, 3_600_000_000, 3), hdrhistogram.New(1, 3_600_000_000, 3)
	wake.RecordValues(40, 900)
	wake.RecordValues(3000, 100)
	behind.RecordValues(20_000, 25)
	s := &jsonreport.Schedule{TargetOpsSec: target, MeanLagUs: 812.5, MaxLagUs: 41_000, FinalLagUs: 7}
	if err := s.SetStarts(wake, behind); err != nil {
		t.Fatal(err)
	}
	r.Schedule = s
	r.ClientVerdict = &jsonreport.ClientVerdict{Verdicts: []string{"LATE-WAKEUPS"}, WakeLateShare: &share}
	return r
}

// TestBuildSchedule: a paced run's schedule reaches the page with its
// wake-ups' figures from their histogram and its late starts; an unpaced
// run has none; a report that does not say how its paced operations
// started has its lags only.
func TestBuildSchedule(t *testing.T) {
	a := withSchedule(t, fakeReport(t, "pebble", 4, 100, 1), 8000, 0.125)
	b := fakeReport(t, "rocksdb", 4, 100, 2)
	c := withSchedule(t, fakeReport(t, "badger", 4, 100, 3), 500, 0.01)
	c.Schedule.Wake, c.Schedule.Behind, c.ClientVerdict = nil, nil, nil // written before they were recorded
	d, err := Build("t", []Input{{Name: "pebble", Report: a}, {Name: "rocksdb", Report: b}, {Name: "badger", Report: c}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	s := d.Runs[0].Schedule
	if s == nil {
		t.Fatal("no schedule for the paced run")
	}
	// The mean is HdrHistogram's: 3000 µs lies in a bucket of 2 (3000-3001).
	want := Schedule{TargetOpsSec: 8000, MeanLagUs: 812.5, MaxLagUs: 41_000, FinalLagUs: 7, StartsKnown: true,
		Wake: &jsonreport.StartFigures{Count: 1000, MeanUs: 336.1, P50Us: 40, P99Us: 3001, MaxUs: 3001}, LateStarts: 25}
	got := *s
	got.WakeLateShare = nil
	if got.Wake == nil || *got.Wake != *want.Wake {
		t.Errorf("wake-ups %+v, want %+v", got.Wake, want.Wake)
	}
	got.Wake, want.Wake = nil, nil
	if got != want {
		t.Errorf("schedule %+v, want %+v", got, want)
	}
	if s.WakeLateShare == nil || *s.WakeLateShare != 0.125 {
		t.Errorf("wake-late share %v, want 0.125", s.WakeLateShare)
	}
	if d.Runs[1].Schedule != nil {
		t.Errorf("an unpaced run has a schedule: %+v", d.Runs[1].Schedule)
	}
	if s := d.Runs[2].Schedule; s == nil || s.StartsKnown || s.Wake != nil || s.LateStarts != 0 || s.TargetOpsSec != 500 {
		t.Errorf("the older report's schedule %+v: want its lags, its starts unknown", s)
	}
}

// TestPageSchedule: the schedule reaches the page's data, without the
// histograms it was computed from.
func TestPageSchedule(t *testing.T) {
	a := withSchedule(t, fakeReport(t, "pebble", 3, 100, 1), 8000, 0.125)
	d, err := Build("t", []Input{{Name: "pebble", Report: a}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), a.Schedule.Wake.Histogram) {
		t.Error("the page carries the wake-ups' histogram")
	}
	got := pageData(t, buf.String()).Runs[0].Schedule
	if got == nil || got.TargetOpsSec != 8000 || got.Wake == nil || got.Wake.P99Us != 3001 || got.LateStarts != 25 || !got.StartsKnown {
		t.Errorf("the page's schedule %+v", got)
	}
}

// TestChromiumSchedule draws a paced run beside an unpaced one and an
// older paced report: the schedule's table has a row for each paced run,
// with its lags, wake-ups, late starts and the wake-ups' share of the
// intended latency; the older one's unknown figures are dashes.
func TestChromiumSchedule(t *testing.T) {
	t.Parallel() // a browser of its own, its own profile and page
	bin := chromium(t)
	a := withSchedule(t, fakeReport(t, "pebble", 6, 100, 1), 8000, 0.125)
	b := fakeReport(t, "rocksdb", 6, 100, 2)
	c := withSchedule(t, fakeReport(t, "badger", 6, 100, 3), 500, 0.01)
	c.Schedule.Wake, c.Schedule.Behind, c.ClientVerdict = nil, nil, nil
	d, err := Build("paced", []Input{{Name: "pebble", Report: a}, {Name: "rocksdb", Report: b}, {Name: "badger", Report: c}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	_, st := load(t, bin, t.TempDir(), d)
	for _, want := range []string{
		"Schedule (-target)", ">wake-ups<", ">late starts<", ">wake lateness / intended latency<",
		"<td>8,000</td><td>813µs</td><td>41ms</td><td>7µs</td><td>1,000</td><td>336µs</td><td>40µs</td><td>3ms</td><td>3ms</td><td>25</td><td>12.5%</td>",
		"<td>500</td><td>813µs</td><td>41ms</td><td>7µs</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>",
	} {
		if !strings.Contains(st.dom, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if n := strings.Count(st.dom, "<td>813µs</td>"); n != 2 {
		t.Errorf("%d schedule rows, want 2 (the unpaced run has none)", n)
	}
}
