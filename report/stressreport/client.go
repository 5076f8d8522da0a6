package stressreport

import (
	"fmt"
	"io"
	"math"

	"github.com/goycsb/ycsb/report"
)

// ClientTerms are the options the stress mode's user changes to act on the
// client's verdict.
var ClientTerms = report.Terms{Threads: "-rate threads=", Clients: "a stress process on each, sharing the rate"}

// WriteClient writes the client's verdict (report.JudgeClient) after the
// Results block, in its style: a line per figure the platform reports,
// then the verdicts. Nothing for a run that measured nothing.
func WriteClient(w io.Writer, c *report.ClientCheck) {
	if c == nil {
		return
	}
	u := c.CPU
	if u.CPUKnown && u.CoresKnown {
		fmt.Fprintf(w, "Client CPU                : %s of %s cores (%s%%)\n", jf(u.CPU, 2, false), coreCount(u.Cores), jf(u.CPU/u.Cores*100, 1, false))
	}
	if u.WaitKnown {
		fmt.Fprintf(w, "Client CPU wait           : %s cores\n", jf(u.Wait, 2, false))
	}
	if u.StealKnown {
		fmt.Fprintf(w, "Client steal              : %s%%\n", jf(u.StealPct, 1, false))
	}
	fmt.Fprintf(w, "Client GC pauses          : %s%%\n", jf(c.GCPausePct, 1, false))
	if offered, ok := c.MaxOffered(); ok && c.Target > 0 {
		fmt.Fprintf(w, "Client max offered        : %8s op/s at %s ms mean latency, %d threads\n", jf(offered, 0, true), jf(c.MeanLatencyUs/1000, 3, false), c.Threads)
	}
	if wl := c.WakeLate; wl.Known && wl.WakeUps > 0 {
		share := ""
		if sh, ok := c.WakeShare(); ok {
			share = fmt.Sprintf(", %s%% of intended latency", jf(sh*100, 1, false))
		}
		fmt.Fprintf(w, "Client wake-up lateness   : %s ms mean, %s ms p99, %s ms max over %s wake-ups%s\n",
			jf(wl.MeanUs/1000, 3, false), jf(wl.P99Us/1000, 3, false), jf(wl.MaxUs/1000, 3, false), jf(float64(wl.WakeUps), 0, true), share)
	}
	for _, v := range c.Verdicts {
		fmt.Fprintf(w, "Client verdict            : %s\n", v)
	}
	fmt.Fprintln(w)
}

// coreCount is a core count: whole, or to a hundredth for a quota.
func coreCount(n float64) string {
	if n == math.Trunc(n) {
		return jf(n, 0, false)
	}
	return jf(n, 2, false)
}
