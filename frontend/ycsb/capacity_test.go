package ycsb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run/capacity"
)

// capacityBasic runs ycsb capacity on basic, every operation taking 1 ms.
func capacityBasic(t *testing.T, extra map[string]string) (stdout, stderr string, err error) {
	t.Helper()
	return capacityBasicOn(context.Background(), t, extra, nil)
}

// capacityBasicOn is capacityBasic on ctx, its stderr also written to
// tee when given.
func capacityBasicOn(ctx context.Context, t *testing.T, extra map[string]string, tee io.Writer) (stdout, stderr string, err error) {
	t.Helper()
	m := map[string]string{
		"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "1000",
		"readproportion": "1", "basicdb.simulatedelay": "1", "basicdb.randomizedelay": "false",
		"capacity.steptime": "0.3", "capacity.warmup": "0.3", "slo": "READ.p90<=100ms",
		// No idle time between the tests' steps: they judge the search's
		// rows, not the system's recovery.
		"capacity.cooldown": "0",
	}
	for k, v := range extra {
		m[k] = v
	}
	d, name, _ := db.Lookup("basic")
	var out, errb syncBuffer
	var stderrW io.Writer = &errb
	if tee != nil {
		stderrW = io.MultiWriter(&errb, tee)
	}
	err = Capacity(ctx, Options{Props: props.FromMap(m), Driver: d, Binding: name, Stdout: &out, Stderr: stderrW})
	return out.String(), errb.String(), err
}

// TestCapacityThreadBound: four threads whose operations take a
// millisecond offer at most 4,000 ops/s (a little less: the sleeps take
// longer). With the threads not allowed to grow the search lands just
// under that and says the client's threads were the limit.
func TestCapacityThreadBound(t *testing.T) {
	report := filepath.Join(t.TempDir(), "c.json")
	// Steps of a second, not capacityBasic's 0.3 s: the answer is the
	// threads' throughput, which longer steps average over more sleeps.
	out, stderr, err := capacityBasic(t, map[string]string{"threadcount": "4", "capacity.maxthreads": "4",
		"capacity.start": "2000", "capacity.steptime": "1", "report.json": report})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	max, _ := strconv.ParseFloat(row(t, out, "CAPACITY", "MaxThroughput(ops/sec)"), 64)
	// What the threads offer is 4,000 ops/s less what the sleeps oversleep,
	// which a loaded machine makes half a millisecond or more: the bound
	// is the one the search measured and printed, not a constant.
	offers := regexp.MustCompile(`offer at most (\d+) ops/s`).FindAllStringSubmatch(out, -1)
	if len(offers) == 0 {
		t.Fatalf("no step says what the threads offer:\n%s", out)
	}
	lowest := math.Inf(1)
	for _, o := range offers {
		v, _ := strconv.ParseFloat(o[1], 64)
		lowest = math.Min(lowest, v)
	}
	if max > 4000 || max < 0.9*lowest {
		t.Errorf("MaxThroughput %v, want at most 4000 and at least 90%% of the least the threads offered (%v)\n%s", max, lowest, out)
	}
	if l := row(t, out, "CAPACITY", "Limit"); !strings.HasPrefix(l, "the client: 4 threads at ") || !strings.Contains(l, "capacity.maxthreads=4") {
		t.Errorf("Limit %q", l)
	}
	if !strings.Contains(out, "CLIENT-LIMITED") {
		t.Errorf("no step was client-limited:\n%s", out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := jsonreport.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Capacity
	if rep.Phase != "capacity" || c == nil || c.MaxOpsSec != max || c.Limit != "client" || len(c.Steps) < 3 {
		t.Fatalf("report: phase %q, capacity %+v", rep.Phase, c)
	}
	var ops int64
	for _, s := range c.Steps {
		ops += s.Operations
	}
	if ops == 0 || rep.Operations != ops {
		t.Errorf("report: %d operations, the steps' %d", rep.Operations, ops)
	}
	for _, s := range c.Steps {
		if s.Threads != 4 || s.SLO == nil || s.SLO.Latency != "intended" || len(s.Measurements) == 0 {
			t.Errorf("step %+v", s)
		}
	}
	// Every step that did not pass was run again, at its rate, to
	// confirm it, and both runs are in the rows and the report.
	confirmed := 0
	for i, s := range c.Steps {
		if s.Confirms == 0 {
			continue
		}
		confirmed++
		if first := c.Steps[s.Confirms-1]; s.Confirms != i || first.Verdict == "PASS" || first.AskedOpsSec != s.AskedOpsSec {
			t.Errorf("step %d confirms step %d: %+v", i+1, s.Confirms, first)
		}
		if !strings.Contains(out, fmt.Sprintf("[CAPACITY], Step %d, %.0f ops/s asked", i+1, s.AskedOpsSec)) || !strings.Contains(out, fmt.Sprintf("confirming step %d:", s.Confirms)) {
			t.Errorf("no row of step %d confirming step %d:\n%s", i+1, s.Confirms, out)
		}
	}
	if confirmed == 0 {
		t.Errorf("no step confirmed:\n%s", out)
	}
	if v := row(t, out, "CAPACITY", "Trusted"); v != "true" || c.Untrusted != "" {
		t.Errorf("Trusted %q, report %q", v, c.Untrusted)
	}
}

// TestCapacityThreadsGrow: from one thread, the threads are raised by
// Little's law as the rate asks for them: every step runs at least the
// threads that offer its rate at the least latency an operation takes
// (1 ms), never fewer than the step before; and the live lines number the
// steps as the summary does. Whether the steps pass is the machine's
// business (a busy one falls short of a rate): not asserted here.
func TestCapacityThreadsGrow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	out, stderr, err := capacityBasic(t, map[string]string{"threadcount": "1", "capacity.maxthreads": "32",
		"capacity.start": "1500", "capacity.max": "6000", "report.json": path})
	var unmet *slo.Unmet
	if err != nil && !errors.As(err, &unmet) {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// One thread at 1 ms offers at most 1,000 ops/s: the first step is run
	// again with more.
	if !strings.Contains(stderr, "capacity: step 1, 1500 ops/s: 1 threads at ") || !strings.Contains(stderr, "again with") {
		t.Errorf("the first step's threads not raised:\n%s", stderr)
	}
	c := readReport(t, path).Capacity
	if len(c.Steps) == 0 {
		t.Fatalf("no steps:\n%s", out)
	}
	prev := 0
	for i, s := range c.Steps {
		if need := min(32, int(math.Ceil(s.AskedOpsSec/1000))); s.Threads < need || s.Threads < prev || s.Threads > 32 {
			t.Errorf("step %d at %v ops/s ran %d threads (the step before %d): want at least %d, at most 32, never fewer than before",
				i+1, s.AskedOpsSec, s.Threads, prev, need)
		}
		prev = s.Threads
	}
	// Issue 48: a step run again with more threads is one step: the live
	// lines number the steps as the summary does, each once.
	live := regexp.MustCompile(`(?m)^capacity: step (\d+): (.*)$`).FindAllStringSubmatch(stderr, -1)
	if len(live) != len(c.Steps) {
		t.Errorf("%d live step lines for %d steps:\n%s", len(live), len(c.Steps), stderr)
	}
	for i, l := range live {
		if l[1] != strconv.Itoa(i+1) {
			t.Errorf("live step line %d is numbered %s", i+1, l[1])
		}
		if !strings.Contains(out, "[CAPACITY], Step "+l[1]+", "+l[2]+"\n") {
			t.Errorf("live step %s %q is not the summary's step %s:\n%s", l[1], l[2], l[1], out)
		}
	}
	if v, _ := strconv.ParseFloat(row(t, out, "CAPACITY", "MaxThroughput(ops/sec)"), 64); v != c.MaxOpsSec {
		t.Errorf("MaxThroughput %v, the report's %v", v, c.MaxOpsSec)
	}
}

// TestCapacityBadInput: one line naming the property, before anything is
// opened.
func TestCapacityBadInput(t *testing.T) {
	for _, c := range []struct {
		extra map[string]string
		want  string
	}{
		{map[string]string{"slo": ""}, "slo"},
		{map[string]string{"slo": "throughput>=5"}, "slo: throughput>=5: capacity finds the throughput"},
		{map[string]string{"target": "100"}, "target"},
		{map[string]string{"capacity.start": "0"}, "capacity.start"},
		{map[string]string{"capacity.start": "0.4"}, "capacity.start"},
		{map[string]string{"capacity.start": "1500.5", "capacity.max": "1500.5"}, "capacity.max: 1500.5 is below capacity.start rounded to whole ops/s (1501)"},
		{map[string]string{"client.count": "3", "client.index": "0", "client.rendezvous": "127.0.0.1:7070", "capacity.start": "1500.5", "capacity.max": "1500.5"}, "capacity.max"},
		{map[string]string{"capacity.start": "5000", "capacity.max": "100"}, "capacity.max"},
		{map[string]string{"capacity.growth": "1"}, "capacity.growth"},
		{map[string]string{"capacity.resolution": "2"}, "capacity.resolution"},
		{map[string]string{"capacity.maxthreads": "0"}, "capacity.maxthreads"},
		{map[string]string{"capacity.steptime": "0.1"}, "capacity.steptime"},
		{map[string]string{"capacity.cooldown": "-1"}, "capacity.cooldown"},
		{map[string]string{"capacity.cooldown": "3601"}, "capacity.cooldown"},
		{map[string]string{"capacity.cooldown": "soon"}, "capacity.cooldown"},
		{map[string]string{"client.count": "2", "client.index": "0"}, "client.count: a fleet's capacity runs a fixed ladder of steps on a schedule every client shares: give starttime or client.rendezvous"},
		{map[string]string{"client.count": "3", "client.index": "0", "client.rendezvous": "127.0.0.1:7070", "capacity.start": "2"}, "capacity.start: 2 is less than client.count=3"},
		{map[string]string{"client.count": "3", "client.index": "0", "client.rendezvous": "127.0.0.1:7070", "capacity.resolution": "0.1"}, "capacity.resolution: a fleet"},
		{map[string]string{"status": "true"}, "status"},
		// Checked before prepare prints "Data integrity is enabled.".
		{map[string]string{"dataintegrity": "true", "capacity.growth": "1"}, "capacity.growth"},
	} {
		out, _, err := capacityBasic(t, c.extra)
		if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want bad input naming %s", c.extra, err, c.want)
		}
		if out != "" {
			t.Errorf("%v: stdout %q before the error", c.extra, out)
		}
		if slo.IsUnmet(err) {
			t.Errorf("%v: unmet", c.extra)
		}
	}
}

// cancelOn cancels when a line with its text is written (Ctrl-C at a
// known point of the search).
type cancelOn struct {
	text   string
	cancel context.CancelFunc
}

func (c cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.text) {
		c.cancel()
	}
	return len(p), nil
}

// TestCapacityInterrupted: Ctrl-C as the first step ends (it passed)
// ends the search;
// the report says it was interrupted and how far it got, not that the
// bracket closed or capacity.max passed.
func TestCapacityInterrupted(t *testing.T) {
	report := filepath.Join(t.TempDir(), "c.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, stderr, err := capacityBasicOn(ctx, t, map[string]string{"threadcount": "4", "capacity.start": "500", "report.json": report},
		cancelOn{text: "capacity: step 1:", cancel: cancel})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	c := readReport(t, report).Capacity
	if c.Limit != "interrupted" || len(c.Steps) != 1 {
		t.Fatalf("report: limit %q, %d steps", c.Limit, len(c.Steps))
	}
	// What the step served: its achieved rate, at most the 500 asked.
	if served := measurement.Served(500, c.Steps[0].AchievedOpsSec); c.MaxOpsSec != served ||
		row(t, out, "CAPACITY", "Limit") != fmt.Sprintf("interrupted after 1 step; the system served at least %.1f ops/s", served) {
		t.Errorf("Limit %q, max %v, want what step 1 served (%v)\n%s", row(t, out, "CAPACITY", "Limit"), c.MaxOpsSec, served, out)
	}
}

// TestCapacityLinger: prometheus.linger keeps /metrics served after the
// search's report, as after a run (ended here by the cancel its line
// triggers).
func TestCapacityLinger(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// One second's step (capacity.maxsteptime): the rows, not their trust,
	// are what the linger follows.
	out, stderr, err := capacityBasicOn(ctx, t, map[string]string{"threadcount": "2", "capacity.start": "200", "capacity.max": "200",
		"capacity.maxsteptime": "1", "prometheus.addr": ycsbtest.FreeAddr(t), "prometheus.linger": "3600"}, cancelOn{text: "prometheus.linger", cancel: cancel})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "Prometheus metrics stay at") || !strings.Contains(out, "[CAPACITY], Limit") {
		t.Errorf("no linger after the report:\n%s\n%s", out, stderr)
	}
}

// TestCapacityUntrusted: steps capped by capacity.maxsteptime below the
// operations their p99 needs to be trusted (but enough to judge it) make
// an answer that says it is not to be trusted, in the rows and the report.
func TestCapacityUntrusted(t *testing.T) {
	report := filepath.Join(t.TempDir(), "c.json")
	out, stderr, err := capacityBasic(t, map[string]string{"threadcount": "4", "capacity.start": "1500", "capacity.max": "3000",
		"capacity.maxsteptime": "1", "slo": "READ.p99<=100ms", "report.json": report})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// Step 2, or later when a step was confirmed on a busy machine.
	want := regexp.MustCompile(`^step [0-9]+ \(3000 ops/s, PASS\): too few operations to trust the percentiles \(capacity.maxsteptime\)$`)
	v, why := row(t, out, "CAPACITY", "Trusted"), row(t, out, "CAPACITY", "Untrusted")
	if v != "false" || !want.MatchString(why) {
		t.Errorf("Trusted %q, Untrusted %q, want false, %v\n%s", v, why, want, out)
	}
	if c := readReport(t, report).Capacity; c.Untrusted != why || c.Limit != "max" {
		t.Errorf("report: untrusted %q, limit %q", c.Untrusted, c.Limit)
	}
}

// TestCapacityUnjudged: a step too short for its objective's percentile
// to be judged at all (NO DATA) ends the search there: a lower rate runs
// fewer operations, and the answer says no rate was judged.
func TestCapacityUnjudged(t *testing.T) {
	report := filepath.Join(t.TempDir(), "c.json")
	out, stderr, err := capacityBasic(t, map[string]string{"threadcount": "4", "capacity.start": "1000", "capacity.max": "2000",
		"capacity.maxsteptime": "1", "slo": "READ.p99.9<=100ms", "report.json": report})
	var unmet *slo.Unmet
	if !errors.As(err, &unmet) || !strings.Contains(err.Error(), "no rate was judged: step 1 at 1000 ops/s could not be judged") {
		t.Fatalf("error %v, want no rate judged\n%s", err, stderr)
	}
	if n := strings.Count(stderr, "capacity: step "); n != 1 {
		t.Errorf("%d steps, want the one that could not be judged\n%s", n, stderr)
	}
	if l := row(t, out, "CAPACITY", "Limit"); !strings.HasPrefix(l, "step 1 at 1000 ops/s could not be judged") {
		t.Errorf("Limit %q", l)
	}
	if c := readReport(t, report).Capacity; c.Limit != capacity.LimitUnjudged {
		t.Errorf("report: limit %q", c.Limit)
	}
}

// TestCapacityTellsBindingItsThreads: a binding sizes what its sessions
// share (jdbc's connection pool, threadcount+16) from threadcount, and a
// search opens up to capacity.maxthreads sessions a step: the binding is
// told that many (issue 48: sessions beyond the pool waited for a
// connection the whole step, and the steps passed at a third of their
// rate).
func TestCapacityTellsBindingItsThreads(t *testing.T) {
	d := &testDriver{}
	m := map[string]string{"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "10", "readproportion": "1",
		"threadcount": "2", "capacity.maxthreads": "40", "capacity.start": "2000", "capacity.max": "2000",
		"capacity.steptime": "0.3", "capacity.warmup": "0", "capacity.cooldown": "0", "slo": "READ.p90<=100ms"}
	var out, errb syncBuffer
	if err := Capacity(context.Background(), Options{Props: props.FromMap(m), Driver: d, Binding: "test", Stdout: &out, Stderr: &errb}); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if d.threadcount != "40" {
		t.Errorf("the binding was opened with threadcount %q, want capacity.maxthreads (40)", d.threadcount)
	}
}
