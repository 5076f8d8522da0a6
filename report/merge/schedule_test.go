package merge

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// starts is a histogram of paced starts (µs) holding n values of v for each
// pair n, v.
func starts(t *testing.T, pairs ...int64) *hdrhistogram.Histogram {
	t.Helper()
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	for i := 0; i < len(pairs); i += 2 {
		if err := h.RecordValues(pairs[i+1], pairs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// withSchedule gives r a schedule of the given lags and paced starts, as
// a run writes it (jsonreport.Schedule.SetStarts), and its SCHEDULE rows.
func withSchedule(t *testing.T, r *jsonreport.Report, target int64, meanLag float64, maxLag, finalLag int64, wake, behind *hdrhistogram.Histogram) *jsonreport.Report {
	t.Helper()
	s := &jsonreport.Schedule{TargetOpsSec: target, MeanLagUs: meanLag, MaxLagUs: maxLag, FinalLagUs: finalLag}
	if err := s.SetStarts(wake, behind); err != nil {
		t.Fatal(err)
	}
	r.Schedule = s
	r.Sections = append(r.Sections, measurement.ScheduleRows(target, meanLag, maxLag, finalLag)...)
	r.Sections = append(r.Sections, measurement.StartRows(wake, behind)...)
	return r
}

// scheduleRows are the SCHEDULE rows of rows, one "name, value" a line.
func scheduleRows(rows []export.Row) string {
	var b strings.Builder
	for _, r := range rows {
		if r.Metric == "SCHEDULE" {
			b.WriteString(r.Name + ", " + Num(float(r.Value)) + "\n")
		}
	}
	return b.String()
}

// scheduleOnly are the warnings about the schedule (fake's clients saw
// failed operations too).
func scheduleOnly(w []string) []string {
	var out []string
	for _, l := range w {
		if strings.Contains(l, "schedule") {
			out = append(out, l)
		}
	}
	return out
}

// TestMergeSchedule: two paced clients' schedules merge exactly: the
// targets (each a client's share) add up, the mean lag is weighted by
// each client's operations, the maximum and final lags are the largest,
// and the wake-up and late-start histograms are the sums of the clients'
// value for value, their figures recomputed from the sums as a run
// computes them.
func TestMergeSchedule(t *testing.T) {
	wakeA, behindA := starts(t, 100, 50, 10, 2000), starts(t, 5, 1000)
	wakeB, behindB := starts(t, 200, 70, 1, 9000), starts(t, 20, 5000, 1, 40000)
	a := withSchedule(t, fake(t, 1, 0, 10, 1000, 800), 600, 10, 900, 0, wakeA, behindA)
	b := withSchedule(t, fake(t, 2, 0, 10, 1000, 900), 400, 30, 700, 120, wakeB, behindB)
	reps := []*jsonreport.Report{roundTrip(t, a), roundTrip(t, b)}
	m, err := Merge([]string{"a.json", "b.json"}, reps)
	if err != nil {
		t.Fatal(err)
	}
	m = roundTrip(t, m) // the reader takes the merged schedule
	s := m.Schedule
	if s == nil {
		t.Fatal("no merged schedule")
	}
	opsA, opsB := float64(a.Operations), float64(b.Operations)
	if want := (10*opsA + 30*opsB) / (opsA + opsB); s.TargetOpsSec != 1000 || s.MeanLagUs != want || s.MaxLagUs != 900 || s.FinalLagUs != 120 {
		t.Errorf("merged schedule %+v, want target 1000, mean lag %v, max 900, final 120", s, want)
	}
	for _, c := range []struct {
		name string
		got  *jsonreport.Starts
		a, b *hdrhistogram.Histogram
	}{{"wake", s.Wake, wakeA, wakeB}, {"behind", s.Behind, behindA, behindB}} {
		sum := hdrhistogram.New(1, 3_600_000_000, 3)
		sum.Merge(c.a)
		sum.Merge(c.b)
		if c.got == nil {
			t.Fatalf("%s: none merged", c.name)
		}
		h, err := jsonreport.DecodeHistogram(c.got.Histogram)
		if err != nil {
			t.Fatal(err)
		}
		if !h.Equals(sum) {
			t.Errorf("%s: the merged histogram is not the sum of the clients'", c.name)
		}
		want, err := jsonreport.StartsOf(sum)
		if err != nil {
			t.Fatal(err)
		}
		if *c.got != *want {
			t.Errorf("%s: merged %+v, want %+v", c.name, *c.got, *want)
		}
	}
	if s.Wake.Count != 311 || s.Behind.Count != 26 {
		t.Errorf("figures: wake %+v, behind %+v", *s.Wake, *s.Behind)
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "merge_schedule.txt"), []byte(scheduleRows(m.Sections)))
	if w := scheduleOnly(Warnings([]string{"a.json", "b.json"}, reps)); len(w) != 0 {
		t.Errorf("warnings %q", w)
	}
}

// TestMergeScheduleSameAsRun: a merged schedule's rows are the ones a
// run writes: one client's report merged alone gives its own rows back.
func TestMergeScheduleSameAsRun(t *testing.T) {
	a := withSchedule(t, fake(t, 1, 0, 5, 500, 800), 500, 12.25, 4100, 37, starts(t, 40, 61, 3, 800), starts(t, 7, 250))
	m, err := Merge([]string{"a.json"}, []*jsonreport.Report{roundTrip(t, a)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := scheduleRows(m.Sections), scheduleRows(a.Sections); got != want || got == "" {
		t.Errorf("merged rows\n%s\nwant the run's\n%s", got, want)
	}
	if *m.Schedule.Wake != *a.Schedule.Wake || *m.Schedule.Behind != *a.Schedule.Behind || m.Schedule.MeanLagUs != 12.25 {
		t.Errorf("merged schedule %+v, want the run's %+v", m.Schedule, a.Schedule)
	}
}

// TestMergeScheduleIncomplete: a schedule is merged only when it is every
// client's, and the paced starts only when every client's report has
// them; Warnings says what was left out.
func TestMergeScheduleIncomplete(t *testing.T) {
	paced := func(seed uint64) *jsonreport.Report {
		return withSchedule(t, fake(t, seed, 0, 10, 1000, 800), 500, 10, 900, 0, starts(t, 100, 50), starts(t, 5, 1000))
	}
	t.Run("one client unpaced", func(t *testing.T) {
		reps := []*jsonreport.Report{paced(1), fake(t, 2, 0, 10, 1000, 800)}
		m, err := Merge([]string{"a.json", "b.json"}, reps)
		if err != nil {
			t.Fatal(err)
		}
		if m.Schedule != nil || scheduleRows(m.Sections) != "" {
			t.Errorf("a schedule of half the fleet: %+v\n%s", m.Schedule, scheduleRows(m.Sections))
		}
		w := scheduleOnly(Warnings([]string{"a.json", "b.json"}, reps))
		if len(w) != 1 || !strings.Contains(w[0], "client 1 (b.json) ran without -target") || !strings.Contains(w[0], "no schedule") {
			t.Errorf("warnings %q", w)
		}
	})
	t.Run("starts unknown", func(t *testing.T) {
		old := paced(2)
		old.Schedule.Wake, old.Schedule.Behind = nil, nil // a report written before they existed
		reps := []*jsonreport.Report{paced(1), old}
		m, err := Merge([]string{"a.json", "b.json"}, reps)
		if err != nil {
			t.Fatal(err)
		}
		s := m.Schedule
		if s == nil || s.TargetOpsSec != 1000 || s.Wake != nil || s.Behind != nil {
			t.Fatalf("merged schedule %+v: want the lags without the paced starts", s)
		}
		if got, want := scheduleRows(m.Sections), "Target(ops/sec), 1000\nMeanLag(us), 10\nMaxLag(us), 900\nFinalLag(us), 0\n"; got != want {
			t.Errorf("rows\n%swant\n%s", got, want)
		}
		w := scheduleOnly(Warnings([]string{"a.json", "b.json"}, reps))
		if len(w) != 1 || !strings.Contains(w[0], "client 1 (b.json)") || !strings.Contains(w[0], "wake-ups") {
			t.Errorf("warnings %q", w)
		}
	})
	t.Run("target overflows", func(t *testing.T) {
		a, b := paced(1), paced(2)
		b.Schedule.TargetOpsSec = 1<<63 - 1
		if _, err := Merge([]string{"a.json", "b.json"}, []*jsonreport.Report{a, b}); err == nil || !strings.Contains(err.Error(), "b.json: schedule.target_ops_sec") {
			t.Errorf("Merge = %v", err)
		}
	})
}

// TestMergeRefusesBadStarts: a report whose paced starts' histogram
// disagrees with its count is refused as it is read, before merge adds
// it up.
func TestMergeRefusesBadStarts(t *testing.T) {
	r := withSchedule(t, fake(t, 1, 0, 5, 100, 100), 100, 1, 10, 0, starts(t, 10, 80), nil)
	r.Schedule.Wake.Count = 11
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	_, err := ReadReports("a.json", buf.Bytes())
	if err == nil || !strings.Contains(err.Error(), "a.json: schedule.wake.histogram: holds 10 values, count says 11") {
		t.Errorf("ReadReports = %v", err)
	}
}
