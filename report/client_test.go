package report

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/hostcpu"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/run"
)

// idle is a client that used a little of its two cores on a quiet machine.
var idle = hostcpu.Usage{Wall: 10 * time.Second, Cores: 2, CoresKnown: true, CPU: 0.3, CPUKnown: true,
	Wait: 0.01, WaitKnown: true, StealPct: 0.2, StealKnown: true}

func TestJudgeClient(t *testing.T) {
	with := func(f func(u *hostcpu.Usage)) hostcpu.Usage {
		u := idle
		f(&u)
		return u
	}
	for _, tc := range []struct {
		name   string
		f      ClientFigures
		want   []Verdict
		advice []string // a fragment of each sentence
	}{
		{"unthrottled, idle", ClientFigures{Window: 10 * time.Second, Threads: 4, Ops: 1000, MeanLatencyUs: 1000, MeanLatencyKnown: true, CPU: idle},
			[]Verdict{KeptUp}, nil},
		// 4 threads at 1.06 ms offer at most 3,773.6/s: 8,000 is out of
		// reach, 9 threads are the least that could reach it.
		{"target beyond the threads", ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 8000, Ops: 37000,
			MeanLatencyUs: 1060, MeanLatencyKnown: true, FinalLag: 5 * time.Second, CPU: idle},
			[]Verdict{ThreadBound}, []string{"at the measured latency of 1.06 ms, 4 threads offer at most 3773.6 ops/s, below the target 8000: raise -threads to at least 9"}},
		{"target within reach, on schedule", ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 2000, Ops: 20000,
			MeanLatencyUs: 1060, MeanLatencyKnown: true, FinalLag: 2 * time.Millisecond, CPU: idle},
			[]Verdict{KeptUp}, nil},
		// Within reach by the latency, but the client ended 1 s behind:
		// it did 1,800/s of 2,000, so 4·2000/1800 → 5 threads.
		{"behind schedule", ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 2000, Ops: 18000,
			MeanLatencyUs: 1060, MeanLatencyKnown: true, FinalLag: time.Second, CPU: idle},
			[]Verdict{ThreadBound}, []string{"the client ended 1s behind its schedule of 2000 ops/s (it did 1800.0 ops/s): raise -threads to at least 5"}},
		// A lag of 40 ms in 10 s is below 5% of the window.
		{"a late operation at the end", ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 2000, Ops: 20000,
			MeanLatencyUs: 1060, MeanLatencyKnown: true, FinalLag: 40 * time.Millisecond, CPU: idle},
			[]Verdict{KeptUp}, nil},
		{"cpu-bound", ClientFigures{Window: 10 * time.Second, Threads: 16, Ops: 1e6, MeanLatencyUs: 10, MeanLatencyKnown: true,
			CPU: with(func(u *hostcpu.Usage) { u.CPU = 1.97 })},
			[]Verdict{CPUBound}, []string{"the client used 1.97 of 2 cores: the client, not the database, may be the limit; use more client machines (ycsb kube / client.count)"}},
		// Just under 90% of its cores, with no wait.
		{"busy but below", ClientFigures{Window: 10 * time.Second, Threads: 16, Ops: 1e6, CPU: with(func(u *hostcpu.Usage) { u.CPU, u.Wait = 1.79, 0 })},
			[]Verdict{KeptUp}, nil},
		// Other processes held the cores: 1.2 used and 0.7 waited.
		{"starved by other processes", ClientFigures{Window: 10 * time.Second, Threads: 16, Ops: 1e6,
			CPU: with(func(u *hostcpu.Usage) { u.CPU, u.Wait = 1.2, 0.7 })},
			[]Verdict{CPUBound}, []string{"the client used 1.20 of 2 cores and its threads waited for a CPU 0.70 cores' worth"}},
		// A quota of 1.5 cores.
		{"cpu-bound under a quota", ClientFigures{Window: 10 * time.Second, Threads: 16, Ops: 1e6,
			CPU: with(func(u *hostcpu.Usage) { u.Cores, u.CPU = 1.5, 1.4 })},
			[]Verdict{CPUBound}, []string{"the client used 1.40 of 1.50 cores"}},
		{"cores unknown", ClientFigures{Window: 10 * time.Second, Threads: 16, Ops: 1e6,
			CPU: with(func(u *hostcpu.Usage) { u.CoresKnown, u.CPU = false, 8 })},
			[]Verdict{KeptUp}, nil},
		{"steal", ClientFigures{Window: 10 * time.Second, Threads: 4, Ops: 1000, CPU: with(func(u *hostcpu.Usage) { u.StealPct = 7.25 })},
			[]Verdict{Steal}, []string{"the machine lost 7.2% of its CPU to other guests (steal): figures may be low"}},
		{"gc", ClientFigures{Window: 10 * time.Second, Threads: 4, Ops: 1000, GCPausePct: 1.4, CPU: idle},
			[]Verdict{GCPauses}, []string{"stopped its workers for 1.4% of the window"}},
		// 1000 paced operations a second: 990 woken 60 µs late on
		// average, 10 started behind; 0.1 ms service, no lag: 59.4 µs
		// of 159.4 µs per operation, 37%, is the client's.
		{"late wake-ups", ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 1000, Ops: 10000, MeanLatencyUs: 100, MeanLatencyKnown: true, CPU: idle,
			WakeLate: WakeLateness{MeanUs: 60, P99Us: 400, MaxUs: 900, WakeUps: 9900, PacedOps: 10000, Known: true}},
			[]Verdict{LateWakeups}, []string{"woke 60 µs late on average (p99 400 µs, max 900 µs) for the operations they waited for: about 37% of the intended latency is the client's own timing"}},
		// Issue 48: basic at 20,000 ops/s beside two busy loops. The
		// wake-ups themselves are 83 µs per operation, but a worker that
		// woke 147 ms late ran its next operations back to back: 6.5 ms
		// of the 6.7 ms mean lag is the client's, and so is nearly all of
		// the intended latency (it was 1.2%: KEPT UP).
		{"lag after late wake-ups", ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 20000, Ops: 200000, MeanLatencyUs: 5, MeanLatencyKnown: true, CPU: idle,
			MeanLagUs: 6700, ClientLagUs: 6500,
			WakeLate: WakeLateness{MeanUs: 300, P99Us: 7600, MaxUs: 147000, WakeUps: 55407, PacedOps: 200000, Known: true}},
			[]Verdict{LateWakeups}, []string{"and fell 6.50 ms behind per operation catching up after them: about 97% of the intended latency is the client's own timing"}},
		// The same lag, the database's (its operations took longer than
		// the tick): the wake-ups are a small share.
		{"lag of the database's", ClientFigures{Window: 10 * time.Second, Threads: 40, Target: 20000, Ops: 200000, MeanLatencyUs: 500, MeanLatencyKnown: true, CPU: idle,
			MeanLagUs: 6700, ClientLagUs: 0,
			WakeLate: WakeLateness{MeanUs: 300, P99Us: 7600, MaxUs: 147000, WakeUps: 55407, PacedOps: 200000, Known: true}},
			[]Verdict{KeptUp}, nil},
		// The same lateness against a 2 ms service latency: 3%.
		{"wake-ups late by little", ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 1000, Ops: 10000, MeanLatencyUs: 2000, MeanLatencyKnown: true, CPU: idle,
			WakeLate: WakeLateness{MeanUs: 60, P99Us: 400, MaxUs: 900, WakeUps: 9900, PacedOps: 10000, Known: true}},
			[]Verdict{KeptUp}, nil},
		// One thread kept its schedule, but waited for a CPU 0.38 cores'
		// worth: 380 µs per operation at 1,000/s, against 100 µs of
		// service latency and 500 µs late waking.
		{"cpu wait on schedule", ClientFigures{Window: 10 * time.Second, Threads: 1, Target: 1000, Ops: 10000, MeanLatencyUs: 100, MeanLatencyKnown: true,
			CPU:      with(func(u *hostcpu.Usage) { u.CPU, u.Wait = 0.2, 0.38 }),
			WakeLate: WakeLateness{MeanUs: 500, P99Us: 30000, MaxUs: 45000, WakeUps: 10000, PacedOps: 10000, Known: true}},
			[]Verdict{CPUWait, LateWakeups}, []string{"waited for a CPU 0.38 cores' worth, 380 µs per operation, about 39% of the operations' latency",
				"about 83% of the intended latency is the client's own timing, not the database's (the [SCHEDULE] wake-up rows); the client's threads waited for a CPU 0.38 cores' worth"}},
		{"all of them", ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 8000, Ops: 37000, MeanLatencyUs: 1060, MeanLatencyKnown: true,
			GCPausePct: 2, CPU: with(func(u *hostcpu.Usage) { u.CPU, u.StealPct = 1.9, 10 })},
			[]Verdict{ThreadBound, CPUBound, Steal, GCPauses}, []string{"raise -threads", "1.90 of 2 cores", "10.0%", "2.0%"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := JudgeClient(tc.f, YCSBTerms)
			if !reflect.DeepEqual(c.Verdicts, tc.want) {
				t.Fatalf("verdicts %v, want %v", c.Verdicts, tc.want)
			}
			if len(c.Advice) != len(tc.advice) {
				t.Fatalf("advice %q, want %d sentences", c.Advice, len(tc.advice))
			}
			for i, frag := range tc.advice {
				if !strings.Contains(c.Advice[i], frag) {
					t.Errorf("advice %q, want it to contain %q", c.Advice[i], frag)
				}
			}
			if n := c.Note(); (n == "") != c.KeptUp() || strings.Contains(n, "\n") {
				t.Errorf("note %q for verdicts %v: want one line exactly when the client did not keep up", n, c.Verdicts)
			}
		})
	}
}

func TestClientRows(t *testing.T) {
	// 7,400 wake-ups 20 µs late of 7,500 paced operations, and 0.02
	// cores of CPU wait: 10.7 µs per operation.
	c := JudgeClient(ClientFigures{Window: 2 * time.Second, Threads: 4, Target: 8000, Ops: 7500, MeanLatencyUs: 1063.24,
		MeanLatencyKnown: true, FinalLag: time.Second, GCPausePct: 0.04, MeanLagUs: 50,
		WakeLate: WakeLateness{MeanUs: 20, P99Us: 90, MaxUs: 300, WakeUps: 7400, PacedOps: 7500, Known: true},
		CPU:      hostcpu.Usage{Wall: 2 * time.Second, Cores: 2, CoresKnown: true, CPU: 0.3123, CPUKnown: true, Wait: 0.02, WaitKnown: true, StealPct: 0, StealKnown: true}}, YCSBTerms)
	var got []string
	for _, r := range ClientRows(&c) {
		got = append(got, "["+r.Metric+"], "+r.Name+", "+r.Value.String())
	}
	want := []string{
		"[CLIENT], Threads, 4",
		"[CLIENT], Cores, 2.0",
		"[CLIENT], CPU(cores), 0.31",
		"[CLIENT], CPU(%), 15.6",
		"[CLIENT], CPUWait(cores), 0.02",
		"[CLIENT], Steal(%), 0.0",
		"[CLIENT], GCPause(%), 0.0",
		"[CLIENT], MeanLatency(us), 1063.2",
		"[CLIENT], MaxOffered(ops/sec), 3762.1",
		// 5.33 / (1063.24 + 50 + 19.73 + 5.33)
		"[CLIENT], CPUWaitShare(%), 0.5",
		// 19.73 / (1063.24 + 50 + 19.73)
		"[CLIENT], WakeLateShare(%), 1.7",
		"[CLIENT], Verdict, THREAD-BOUND",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Unknown figures are left out, never shown as 0.
	c = JudgeClient(ClientFigures{Window: time.Second, Threads: 1, Ops: 1}, YCSBTerms)
	names := map[string]export.Value{}
	for _, r := range ClientRows(&c) {
		names[r.Name] = r.Value
	}
	for _, n := range []string{"Cores", "CPU(cores)", "CPU(%)", "CPUWait(cores)", "Steal(%)", "MaxOffered(ops/sec)"} {
		if _, ok := names[n]; ok {
			t.Errorf("row %s shown though unknown", n)
		}
	}
	if v := names["Verdict"]; v.String() != "KEPT UP" {
		t.Errorf("Verdict %v, want KEPT UP", v)
	}
}

// TestClientFiguresOf: the mean latency is the service time of every
// database operation, failures included; the reference's read-modify-write
// (measured as its read and update too), a session's close and the
// intended latency are not (TestJudgeOwnRMW: one run as a transaction is).
func TestClientFiguresOf(t *testing.T) {
	mcfg := &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6, Interval: measurement.IntervalBoth}
	c := measurement.NewCollector(mcfg, measurement.YCSB)
	rec := c.NewRecorder()
	const ms = int64(time.Millisecond)
	rec.Done(measurement.Read, db.OK, 10*ms, 11*ms, 0)    // 1 ms, 11 ms from its intended start
	rec.Done(measurement.Read, db.Error, 10*ms, 13*ms, 0) // 3 ms
	rec.Measure(measurement.ReadModifyWrite, 0, 20*ms, 0) // 20 ms: the reference's, no status
	rec.MeasureCleanup(0, 50*ms)                          // 50 ms
	c.Tick()
	start := time.Unix(1000, 0)
	res := &run.Result{Start: start, End: start.Add(2 * time.Second), Ops: 2, Total: c.Total(),
		Schedule: &run.Schedule{Target: 100, FinalLagUs: 250000},
		Client:   run.Client{Workers: 3, Target: 100, CPU: idle}}
	res.Client.CPU.Wall = 2 * time.Second
	res.GC.Start.PauseTotalNs, res.GC.End.PauseTotalNs = 1e6, 41e6 // 40 ms of 2 s
	f, ok := ClientFiguresOf(res)
	if !ok {
		t.Fatal("no figures")
	}
	if !f.MeanLatencyKnown || f.MeanLatencyUs < 1995 || f.MeanLatencyUs > 2005 {
		t.Errorf("mean latency %v µs (known %v), want 2000", f.MeanLatencyUs, f.MeanLatencyKnown)
	}
	if f.Threads != 3 || f.Target != 100 || f.FinalLag != 250*time.Millisecond || f.GCPausePct != 2 || f.Window != 2*time.Second || f.Embedded {
		t.Errorf("figures %+v", f)
	}
	res.Client.Embedded = true
	if f, _ := ClientFiguresOf(res); !f.Embedded {
		t.Error("figures of an embedded engine's run not marked Embedded")
	}
	// The pauses are over the time between the reads of the GC figures,
	// which the CPU samples follow.
	res.Client.CPU.Wall = 4 * time.Second
	if f, _ := ClientFiguresOf(res); f.GCPausePct != 1 {
		t.Errorf("GC pauses %v%% of the sampled 4 s, want 1%%", f.GCPausePct)
	}
	// A window that measured nothing, or too short a one, has no verdict.
	res.Ops = 0
	if CheckClient(res, YCSBTerms) != nil {
		t.Error("a verdict on an empty window")
	}
	res.Ops, res.End = 2, start.Add(MinWindow-time.Millisecond)
	if CheckClient(res, YCSBTerms) != nil {
		t.Error("a verdict on a window shorter than MinWindow")
	}
}

// TestJudgeEmbedded: with an embedded engine the process's CPU is the
// engine's as well as the client's: the verdict says so, and a CPU-bound
// process is never told to add client machines, which would each open a
// store of their own.
func TestJudgeEmbedded(t *testing.T) {
	with := func(f func(u *hostcpu.Usage)) hostcpu.Usage {
		u := idle
		f(&u)
		return u
	}
	capacityTerms := Terms{Threads: "capacity.maxthreads", Clients: "client.count: a fleet runs a ladder of steps"}
	for _, tc := range []struct {
		name   string
		f      ClientFigures
		terms  Terms
		want   []Verdict
		advice []string // fragments of the one sentence
	}{
		{"kept up", ClientFigures{Embedded: true, Window: 10 * time.Second, Threads: 4, Ops: 1000, CPU: idle},
			YCSBTerms, []Verdict{KeptUp}, nil},
		{"cpu-bound", ClientFigures{Embedded: true, Window: 10 * time.Second, Threads: 16, Ops: 1e6,
			CPU: with(func(u *hostcpu.Usage) { u.CPU = 1.97 })},
			YCSBTerms, []Verdict{CPUBound}, []string{"the process (client and embedded engine) used 1.97 of 2 cores: ",
				"the engine runs in the client's process, so this CPU is the database's as much as the client's",
				"the engine on this machine may be the limit",
				"use fewer threads (-threads) or a machine with more cores"}},
		{"starved by other processes", ClientFigures{Embedded: true, Window: 10 * time.Second, Threads: 16, Ops: 1e6,
			CPU: with(func(u *hostcpu.Usage) { u.CPU, u.Wait = 1.2, 0.7 })},
			YCSBTerms, []Verdict{CPUBound}, []string{"the process (client and embedded engine) used 1.20 of 2 cores and its threads waited for a CPU 0.70 cores' worth",
				"the engine runs in the client's process"}},
		{"a search's terms", ClientFigures{Embedded: true, Window: 10 * time.Second, Threads: 16, Ops: 1e6,
			CPU: with(func(u *hostcpu.Usage) { u.CPU = 1.97 })},
			capacityTerms, []Verdict{CPUBound}, []string{"use fewer threads (capacity.maxthreads) or a machine with more cores"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := JudgeClient(tc.f, tc.terms)
			if !reflect.DeepEqual(c.Verdicts, tc.want) {
				t.Fatalf("verdicts %v, want %v", c.Verdicts, tc.want)
			}
			if tc.advice == nil {
				if len(c.Advice) != 0 || c.Note() != "" {
					t.Errorf("advice %q, note %q; want none", c.Advice, c.Note())
				}
				return
			}
			if len(c.Advice) != 1 {
				t.Fatalf("advice %q, want one sentence", c.Advice)
			}
			for _, frag := range tc.advice {
				if !strings.Contains(c.Advice[0], frag) {
					t.Errorf("advice %q, want it to contain %q", c.Advice[0], frag)
				}
			}
			for _, wrong := range []string{tc.terms.Clients, "use more client machines", "the client, not the database"} {
				if strings.Contains(c.Advice[0], wrong) {
					t.Errorf("advice %q says %q", c.Advice[0], wrong)
				}
			}
			if n := c.Note(); !strings.HasPrefix(n, "note: the client and its embedded engine did not keep up (CPU-BOUND): ") {
				t.Errorf("note %q", n)
			}
		})
	}
}

// TestEmbeddedRowsAndJSON: the text rows say first that the engine runs
// in the process, its work in the CPU figures; the JSON verdict has
// "embedded": true. A server's rows and JSON have neither.
func TestEmbeddedRowsAndJSON(t *testing.T) {
	f := ClientFigures{Embedded: true, Window: 10 * time.Second, Threads: 4, Ops: 1000, CPU: idle}
	c := JudgeClient(f, YCSBTerms)
	rows := ClientRows(&c)
	if got := "[" + rows[0].Metric + "], " + rows[0].Name + ", " + rows[0].Value.String(); got != "[CLIENT], Database, embedded in this process (its work is in the CPU figures)" {
		t.Errorf("first row %q", got)
	}
	if rows[1].Name != "Threads" {
		t.Errorf("second row %s, want Threads", rows[1].Name)
	}
	b, err := json.Marshal(clientVerdict(&c))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"embedded":true`) {
		t.Errorf("client_verdict %s, want \"embedded\":true", b)
	}

	f.Embedded = false
	c = JudgeClient(f, YCSBTerms)
	for _, r := range ClientRows(&c) {
		if r.Name == "Database" {
			t.Errorf("a server's rows have %v", r)
		}
	}
	if b, _ := json.Marshal(clientVerdict(&c)); strings.Contains(string(b), "embedded") {
		t.Errorf("a server's client_verdict %s mentions embedded", b)
	}
}

// TestNoteOwnWaits: a client that kept up but whose own waits are in the
// latency does not say it did not keep up.
func TestNoteOwnWaits(t *testing.T) {
	late := WakeLateness{MeanUs: 60, P99Us: 400, MaxUs: 900, WakeUps: 9900, PacedOps: 10000, Known: true}
	c := JudgeClient(ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 1000, Ops: 10000, MeanLatencyUs: 100, MeanLatencyKnown: true, CPU: idle, WakeLate: late}, YCSBTerms)
	if n := c.Note(); !strings.HasPrefix(n, "note: the client's own waits are in the latency measured (LATE-WAKEUPS): the paced workers woke 60 µs late") {
		t.Errorf("note %q", n)
	}
	c = JudgeClient(ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 1000, Ops: 10000, MeanLatencyUs: 100, MeanLatencyKnown: true, GCPausePct: 3, CPU: idle, WakeLate: late}, YCSBTerms)
	if n := c.Note(); !strings.HasPrefix(n, "note: the client did not keep up (GC-PAUSES, LATE-WAKEUPS): ") {
		t.Errorf("note %q", n)
	}
}
