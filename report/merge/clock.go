package merge

import (
	"math"
	"slices"
	"time"

	"github.com/goycsb/ycsb/report/jsonreport"
)

// OnRendezvousClock returns reps with every report of a client started by
// a rendezvous (client.rendezvous in its settings, and a starttime) put
// on the clock of the first such report. The rendezvous starts its
// clients at one real instant, and each records its own clock's reading
// of that instant as starttime (docs/clients.md, "Rendezvous"): the
// difference of two starttimes is the difference of the two clocks, and
// taking it off every absolute time of a report (start, end, starttime,
// its intervals' start_unix_ms and end_unix_ms) compares the clients on
// one clock, however far apart theirs were. Other reports are kept as
// they are: a starttime trusts the clocks. A report that moves is a
// copy; reps and their reports are left unchanged. Merge, MergeCapacity
// and Warnings call it first; a caller drawing the clients on the merged
// run's time axis (Aligned) should give it their reports too.
func OnRendezvousClock(reps []*jsonreport.Report) []*jsonreport.Report {
	out := slices.Clone(reps)
	var ref *time.Time
	for i, r := range reps {
		if !startedByRendezvous(r) {
			continue
		}
		if ref == nil {
			ref = r.StartTime
			continue
		}
		if d := ref.Sub(*r.StartTime); d != 0 {
			out[i] = shifted(r, d)
		}
	}
	return out
}

// startedByRendezvous says whether r is the report of a client started by
// a rendezvous, with the starttime it started at.
func startedByRendezvous(r *jsonreport.Report) bool {
	return r.Settings["client.rendezvous"] != "" && r.StartTime != nil && !r.StartTime.IsZero()
}

// shifted is a copy of r with every absolute time moved by d. Times
// within the run (interval start_ms and end_ms, capacity steps'
// start_ms) count from its start, and move with it.
func shifted(r *jsonreport.Report, d time.Duration) *jsonreport.Report {
	c := *r
	if !r.Start.IsZero() {
		c.Start = r.Start.Add(d)
	}
	if !r.End.IsZero() {
		c.End = r.End.Add(d)
	}
	st := r.StartTime.Add(d)
	c.StartTime = &st
	ms := d.Round(time.Millisecond).Milliseconds()
	c.Intervals = slices.Clone(r.Intervals)
	for i := range c.Intervals {
		iv := &c.Intervals[i]
		iv.StartUnixMs, iv.EndUnixMs = shiftUnixMs(iv.StartUnixMs, ms), shiftUnixMs(iv.EndUnixMs, ms)
	}
	return &c
}

// shiftUnixMs is the interval time v (ms since the Unix epoch; 0 in
// reports written before it existed) moved by ms, kept within what a
// report may hold (0 to math.MaxInt64, jsonreport.Read).
func shiftUnixMs(v, ms int64) int64 {
	switch {
	case v == 0:
		return 0
	case ms > 0 && v > math.MaxInt64-ms:
		return math.MaxInt64
	case ms < 0 && v < -ms:
		return 0
	}
	return v + ms
}
