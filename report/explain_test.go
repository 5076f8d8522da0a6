package report

import (
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/hostcpu"
	"github.com/goycsb/ycsb/measurement/slo"
)

// judged is a judgement of text's objectives at the measured figures, in
// order (µs for latencies, a fraction for errors).
func judged(t *testing.T, text string, measured ...float64) *slo.Judgement {
	t.Helper()
	objs, err := slo.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	j := &slo.Judgement{Latency: slo.Intended}
	for i, o := range objs {
		r := slo.Result{Objective: o, Measured: measured[i], Verdict: slo.Pass}
		if measured[i] > o.Limit {
			r.Verdict = slo.Fail
		}
		j.Results = append(j.Results, r)
	}
	return j
}

func TestClientExplains(t *testing.T) {
	step := ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 3000, Ops: 30000, MeanLatencyUs: 1100, MeanLatencyKnown: true, CPU: idle}
	with := func(f func(f *ClientFigures)) ClientFigures {
		c := step
		f(&c)
		return c
	}
	// Every paced operation woke late, by mean at the mean.
	late := func(mean, p99 float64) ClientFigures {
		return with(func(f *ClientFigures) {
			f.WakeLate = WakeLateness{MeanUs: mean, P99Us: p99, WakeUps: 30000, PacedOps: 30000, Known: true}
		})
	}
	// lateBehind is late, the workers behind their schedule by meanLag per
	// operation, clientLag of it the client's (run.Schedule's ClientLagUs).
	lateBehind := func(mean, p99, meanLag, clientLag float64) ClientFigures {
		f := late(mean, p99)
		f.MeanLagUs, f.ClientLagUs = meanLag, clientLag
		return f
	}
	// halfLate is late for half the paced operations: 600 µs late a
	// wake-up is 300 µs an operation, as the verdict's share counts it.
	halfLate := func(clientLag float64) ClientFigures {
		f := lateBehind(600, 1100, 1000, clientLag)
		f.WakeLate.WakeUps = 15000
		return f
	}
	for _, c := range []struct {
		name string
		f    ClientFigures
		j    *slo.Judgement
		want string // a fragment; "" the system's
	}{
		{"passed", step, judged(t, "READ.p99<=5ms", 2000), ""},
		{"an idle client: the system's", step, judged(t, "READ.p99<=5ms", 9000), ""},
		{"cpu-bound", with(func(f *ClientFigures) { f.CPU.CPU = 1.95 }), judged(t, "READ.p99<=5ms", 9000), "the client used 1.95 of 2 cores"},
		// Another process held a core: the client's threads waited.
		{"waiting for a cpu", with(func(f *ClientFigures) { f.CPU.CPU, f.CPU.Wait = 0.4, 1.5 }), judged(t, "READ.p99<=5ms", 9000), "waited for a CPU 1.50 cores' worth"},
		// CPU-bound explains errors too: timeouts of a starved client.
		{"cpu-bound, errors", with(func(f *ClientFigures) { f.CPU.CPU = 1.95 }), judged(t, "errors<=0.1%", 0.01), "1.95 of 2 cores"},
		{"gc", with(func(f *ClientFigures) { f.GCPausePct = 2 }), judged(t, "READ.p99<=5ms", 9000), "garbage collector stopped its workers for 2.0%"},
		{"gc, errors", with(func(f *ClientFigures) { f.GCPausePct = 2 }), judged(t, "errors<=0.1%", 0.01), ""},
		// p99 5.4 ms against 5 ms: 0.4 ms over, and the client woke 1.1
		// ms late at its p99.
		{"late, covers the excess", late(300, 1100), judged(t, "READ.p99<=5ms", 5400), "READ.p99<=5ms missed by 400 us, no more than the client woke late for its operations' due times (mean 300 us, p99 1.1 ms)"},
		{"late, below the excess", late(300, 1100), judged(t, "READ.p99<=5ms", 9000), ""},
		{"lateness unknown", step, judged(t, "READ.p99<=5ms", 5400), ""},
		// A mean objective reads the mean lateness.
		{"mean, mean lateness below", late(300, 1100), judged(t, "READ.mean<=1ms", 1500), ""},
		{"mean, mean lateness covers", late(600, 1100), judged(t, "READ.mean<=1ms", 1500), "READ.mean<=1ms missed by 500 us"},
		// Every failure must be explained.
		{"late, but errors too", late(300, 1100), judged(t, "READ.p99<=5ms, errors<=0.1%", 5400, 0.01), ""},
		{"late, two objectives", late(300, 1100), judged(t, "READ.p99<=5ms, UPDATE.p99<=5ms", 5400, 5100), "READ.p99<=5ms missed by 400 us and UPDATE.p99<=5ms missed by 100 us"},
		{"late, one of two", late(300, 1100), judged(t, "READ.p99<=5ms, UPDATE.p99<=5ms", 5400, 7000), ""},
		// The client's share of the schedule lag, as the verdict counts it
		// (WakeShare): p99 2.5 ms over, the client woke 1.1 ms late at its
		// p99 and fell 2 ms behind catching up after.
		{"late and behind, covers the excess", lateBehind(300, 1100, 3000, 2000), judged(t, "READ.p99<=5ms", 7500),
			"READ.p99<=5ms missed by 2.5 ms, no more than the client woke late for its operations' due times (mean 300 us, p99 1.1 ms) and fell 2 ms behind per operation catching up after them"},
		{"behind, the lag the system's", lateBehind(300, 1100, 3000, 0), judged(t, "READ.p99<=5ms", 7500), ""},
		// The client's part is at most the whole lag.
		{"client lag above the lag", lateBehind(300, 1100, 500, 2000), judged(t, "READ.p99<=5ms", 7500), ""},
		{"mean, per operation and behind, covers", halfLate(300), judged(t, "READ.mean<=1ms", 1500), "READ.mean<=1ms missed by 500 us"},
		// 300 µs late an operation and 100 µs behind: 400 µs of the 500 µs
		// excess; the wake-ups' mean (600 µs) would have explained it.
		{"mean, per operation and behind, below", halfLate(100), judged(t, "READ.mean<=1ms", 1500), ""},
	} {
		got := ClientExplains(c.f, c.j, capacityTestTerms)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

var capacityTestTerms = Terms{Threads: "capacity.maxthreads", Clients: "client.count"}

// TestClientExplainsNoData: an objective nobody could check is not the
// client's lateness.
func TestClientExplainsNoData(t *testing.T) {
	j := judged(t, "READ.p99<=5ms", 0)
	j.Results[0].Verdict = slo.NoData
	f := ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 3000, Ops: 30000, CPU: hostcpu.Usage{},
		WakeLate: WakeLateness{MeanUs: 300, P99Us: 1e6, Known: true}}
	if got := ClientExplains(f, j, capacityTestTerms); got != "" {
		t.Errorf("%q", got)
	}
}
