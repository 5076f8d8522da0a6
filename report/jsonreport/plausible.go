package jsonreport

import (
	"fmt"
	"time"

	"github.com/goycsb/ycsb/fleet/partition"
)

// The most a report's counts of processes and threads can be: a client
// runs at most MaxThreads workers (threadcount's cap and the stress mode's
// threads=), a fleet at most partition.MaxCount clients, and a merge of
// merges at most maxClients.
const (
	MaxThreads = 100_000
	maxClients = 1_000_000
)

// plausible checks the report's times and sizes against one another:
// runtime_ms against start and end, the intervals following one another
// within the run and their absolute times against start, and counts of
// clients and threads no run reaches. Each figure is valid on its own
// (check has seen to that).
func (c *checker) plausible(r *Report) {
	if c.err != nil {
		return
	}
	if r.Clients > maxClients {
		c.fail("clients", "%d is more than %d", r.Clients, maxClients)
	}
	if cl := r.Client; cl != nil {
		if cl.Count < 1 || cl.Count > partition.MaxCount {
			c.fail("client.count", "%d is not from 1 to %d", cl.Count, partition.MaxCount)
		} else if cl.Index < 0 || cl.Index >= cl.Count {
			c.fail("client.index", "%d is not from 0 to client.count-1 (%d)", cl.Index, cl.Count-1)
		}
	}
	if v := r.ClientVerdict; v != nil {
		c.threads("client_verdict.threads", v.Threads)
	}
	if cp := r.Capacity; cp != nil {
		for i, st := range cp.Steps {
			c.threads(fmt.Sprintf("capacity.steps[%d].threads", i), st.Threads)
			if st.Client != nil {
				c.threads(fmt.Sprintf("capacity.steps[%d].client.threads", i), st.Client.Threads)
			}
		}
	}
	c.runTime(r)
	c.intervalOrder(r)
}

func (c *checker) threads(field string, n int) {
	if n > MaxThreads {
		c.fail(field, "%d is more than %d", n, MaxThreads)
	}
}

// runTime checks runtime_ms against end - start: a run takes both from
// one clock reading each, runtime_ms on the monotonic clock, so they agree
// to a millisecond unless the wall clock was stepped during the run; a
// hundredth of the run is allowed for that.
func (c *checker) runTime(r *Report) {
	if c.err != nil || r.Start.IsZero() || r.End.IsZero() {
		return
	}
	wall := r.End.Sub(r.Start).Milliseconds()
	if d := r.RunTimeMs - wall; d > 1+r.RunTimeMs/100 || -d > 1+wall/100 {
		c.fail("runtime_ms", "%d, but end is start %s plus %d ms", r.RunTimeMs, r.Start.Format(time.RFC3339Nano), wall)
	}
}

// intervalOrder checks that a run's intervals follow one another, each
// starting where the one before it ended (a merge's slots may overlap by
// less than half an interval: each ends where its last client's interval
// ended); that their absolute times, when present, are start's plus their
// offsets; and that a run or load of operations has intervals to hold
// them (a capacity search keeps its figures by step).
func (c *checker) intervalOrder(r *Report) {
	if c.err != nil {
		return
	}
	if len(r.Intervals) == 0 && r.Operations > 0 && r.Version >= 2 && r.Capacity == nil && r.Phase != "" {
		c.fail("intervals", "missing, but operations is %d (a run records each operation in an interval)", r.Operations)
		return
	}
	merged := len(r.Sources) > 0 || r.Clients > 1
	for i, iv := range r.Intervals {
		f := fmt.Sprintf("intervals[%d].", i)
		if i > 0 {
			prev := r.Intervals[i-1]
			slack := int64(0)
			if merged {
				slack = (prev.EndMs - prev.StartMs - 1) / 2
			}
			if iv.StartMs < prev.EndMs-slack {
				c.fail(f+"start_ms", "%d is before the end of intervals[%d] (end_ms %d): the intervals of one run follow one another", iv.StartMs, i-1, prev.EndMs)
				return
			}
		}
		if iv.StartUnixMs == 0 || r.Start.IsZero() {
			continue
		}
		base := r.Start.UnixMilli()
		// A run's offsets are cut to the millisecond, its absolute times
		// rounded down from start's nanoseconds: they differ by at most
		// one. A merge's first slot may start before its start, at its
		// earliest client's first interval.
		if d := iv.StartUnixMs - base - iv.StartMs; d > 1 || d < -1 && !(merged && iv.StartMs == 0) {
			c.fail(f+"start_unix_ms", "%d is not start %s plus start_ms %d (%d)", iv.StartUnixMs, r.Start.Format(time.RFC3339Nano), iv.StartMs, base+iv.StartMs)
			return
		}
		if d := iv.EndUnixMs - base - iv.EndMs; d > 1 || d < -1 {
			c.fail(f+"end_unix_ms", "%d is not start %s plus end_ms %d (%d)", iv.EndUnixMs, r.Start.Format(time.RFC3339Nano), iv.EndMs, base+iv.EndMs)
			return
		}
	}
}
