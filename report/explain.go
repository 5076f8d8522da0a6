package report

import (
	"fmt"
	"strings"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/run"
)

// WakeLateness is how late the paced workers woke for their operations'
// due times (an operation's actual start minus its due time, over the
// operations a worker slept for): the client's timer and scheduler, which
// intended latency counts and the system never saw. A worker behind its
// schedule starts at once and is not late waking: that lag is the
// system's latency holding it up.
type WakeLateness struct {
	MeanUs, P99Us, MaxUs float64
	// WakeUps is how many operations the workers slept for, PacedOps
	// how many were paced in all (the wake-ups and the late starts).
	WakeUps, PacedOps int64
	Known             bool
}

// wakeLatenessOf reads s's wake-ups.
func wakeLatenessOf(s *run.Schedule) WakeLateness {
	w := WakeLateness{Known: true}
	if s.Behind != nil {
		w.PacedOps = s.Behind.TotalCount()
	}
	if s.Wake == nil {
		return w
	}
	st := measurement.StatsOf(s.Wake)
	w.MeanUs, w.P99Us, w.MaxUs = st.Mean, float64(st.Percentile(99)), float64(st.Max)
	w.WakeUps = st.Count
	w.PacedOps += st.Count
	return w
}

// PerOpUs is the lateness per paced operation (µs): the wake-ups' sum
// spread over every paced operation, as intended latency's mean holds it.
func (w WakeLateness) PerOpUs() float64 {
	if w.PacedOps == 0 {
		return 0
	}
	return w.MeanUs * float64(w.WakeUps) / float64(w.PacedOps)
}

// at is the lateness to set against an objective on stat at percentile
// p: the mean for a mean, the p99 for the tail (at or above p99, and for
// the max, a lower bound of the tail's lateness), the mean below p99
// (above most of the lower percentiles of a lateness skewed to the
// right, but below the p99).
func (w WakeLateness) at(stat slo.Stat, p float64) float64 {
	if stat == slo.Max || (stat == slo.Percentile && p >= 99) {
		return w.P99Us
	}
	return w.MeanUs
}

// ClientExplains says how the client, not the system, explains the
// objectives a step failed (j): every one of them must be explained, or
// the system failed too. The client explains
//   - any failure when it was CPU-bound (JudgeClient: it used, or its
//     threads waited for, CPUBusy of its cores): it measured its own queue;
//   - a latency objective when its garbage collector stopped the world
//     for GCPausePct of the window or more;
//   - a latency objective whose excess over its limit is at most the
//     client's own timing, as the verdict's share counts it (WakeShare):
//     its lateness waking for the operations' due times (WakeLateness, at
//     the objective's statistic) and the lag behind the schedule that
//     lateness left the workers in (ClientLagUs): without them the
//     objective would have been met.
//
// "" when it explains nothing, or not every failure: the failure is the
// system's. f is the step's figures (ClientFiguresOf); t names the
// options in the advice.
func ClientExplains(f ClientFigures, j *slo.Judgement, t Terms) string {
	failed := 0
	for _, r := range j.Results {
		if r.Verdict != slo.Pass {
			failed++
		}
	}
	if failed == 0 {
		return ""
	}
	c := JudgeClient(f, t)
	for i, v := range c.Verdicts {
		if v == CPUBound {
			return c.Advice[i]
		}
	}
	gc := f.GCPausePct >= GCPausePct
	var late []string
	for _, r := range j.Results {
		if r.Verdict == slo.Pass {
			continue
		}
		latency := r.Verdict == slo.Fail && (r.Stat == slo.Percentile || r.Stat == slo.Mean || r.Stat == slo.Max) &&
			(r.Cmp == slo.AtMost || r.Cmp == slo.Below)
		switch {
		case !latency:
			return ""
		case gc:
		case f.WakeLate.Known && r.Measured-r.Limit <= f.ownTimingUs(r.Stat, r.Percentile):
			late = append(late, fmt.Sprintf("%s missed by %s", r.Text, slo.FormatLatency(r.Measured-r.Limit)))
		default:
			return ""
		}
	}
	if gc {
		for i, v := range c.Verdicts {
			if v == GCPauses {
				return c.Advice[i]
			}
		}
	}
	behind := ""
	if lag := f.clientLagUs(); lag > 0 {
		behind = " and fell " + slo.FormatLatency(lag) + " behind per operation catching up after them"
	}
	return fmt.Sprintf("%s, no more than the client woke late for its operations' due times (mean %s, p99 %s)%s: the client's timing, not the system's",
		strings.Join(late, " and "), slo.FormatLatency(f.WakeLate.MeanUs), slo.FormatLatency(f.WakeLate.P99Us), behind)
}

// clientLagUs is the client's part of the lag behind the schedule per
// operation (ClientLagUs), at most the whole lag.
func (f *ClientFigures) clientLagUs() float64 { return max(min(f.ClientLagUs, f.MeanLagUs), 0) }

// ownTimingUs is the client's own timing in an objective's statistic
// (stat, at percentile p), counted as the verdict's share counts it
// (WakeShare): the paced workers' lateness waking — per paced operation
// for a mean, as the share counts it; at the objective's percentile
// otherwise (WakeLateness.at) — and the lag behind the schedule that
// lateness left them in (clientLagUs).
func (f *ClientFigures) ownTimingUs(stat slo.Stat, p float64) float64 {
	wake := f.WakeLate.at(stat, p)
	if stat == slo.Mean {
		wake = f.WakeLate.PerOpUs()
	}
	return wake + f.clientLagUs()
}
