package stress

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/run/capacity"
)

// TestCapacityStepTrust: a step capped at capacityMaxStep before its
// percentiles had the operations capacity.OpsToTrust asks says so in its
// Why, as the YCSB mode's steps do; a step long enough does not.
func TestCapacityStepTrust(t *testing.T) {
	for _, tc := range []struct {
		slo, start string
		untrusted  bool
	}{
		{"write.p99.99<=1s", "start=1/s", true},
		{"write.p50<=1s", "start=1000/s", false},
		{"write.mean<=1s", "start=1/s", false},
	} {
		s, _, err := settings.Parse([]string{"write", "-rate", "capacity", tc.start, "step=1s", "threads<=8", "-slo", tc.slo})
		if err != nil {
			t.Fatal(err)
		}
		r := &stressRun{s: s, out: &bytes.Buffer{}}
		run := func(context.Context, int) error {
			now := time.Unix(0, 0)
			// The step kept its schedule: its rate's operations in a second.
			ops := int64(s.Rate.Capacity.Start)
			r.lastRes = &run.Result{Start: now, End: now.Add(time.Second), Ops: ops, Succeeded: ops, Total: &measurement.Snapshot{}}
			r.judgement = &slo.Judgement{}
			return nil
		}
		st := &capStepper{r: r, run: run, threads: s.Rate.MinThreads}
		step, err := st.Step(context.Background(), capacity.Ask{Rate: s.Rate.Capacity.Start, N: 1, Shortfall: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		if step.Verdict != capacity.Pass {
			t.Errorf("%s: verdict %s, want PASS", tc.slo, step.Verdict)
		}
		if got := strings.Contains(step.Why, "too few operations to trust the percentiles"); got != tc.untrusted {
			t.Errorf("%s at %s: Why %q: untrusted note %t, want %t", tc.slo, tc.start, step.Why, got, tc.untrusted)
		}
		if (step.Untrusted != "") != tc.untrusted {
			t.Errorf("%s at %s: Untrusted %q, want %t", tc.slo, tc.start, step.Untrusted, tc.untrusted)
		}
	}
}

// TestCapacityStepShort (issue 48): a step that passed its objectives on a
// third of the operations its rate asks did not keep its schedule: it is
// CLIENT-LIMITED, by the YCSB mode's rule.
func TestCapacityStepShort(t *testing.T) {
	s, _, err := settings.Parse([]string{"write", "-rate", "capacity", "start=900/s", "step=1s", "threads<=8", "-slo", "write.p50<=1s"})
	if err != nil {
		t.Fatal(err)
	}
	r := &stressRun{s: s, out: &bytes.Buffer{}}
	run := func(context.Context, int) error {
		now := time.Unix(0, 0)
		r.lastRes = &run.Result{Start: now, End: now.Add(time.Second), Ops: 300, Succeeded: 300, Total: &measurement.Snapshot{}}
		r.judgement = &slo.Judgement{}
		return nil
	}
	st := &capStepper{r: r, run: run, threads: s.Rate.MinThreads}
	step, err := st.Step(context.Background(), capacity.Ask{Rate: 900, N: 1, Shortfall: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if step.Verdict != capacity.ClientLimited || !strings.Contains(step.Why, "did not keep its schedule") {
		t.Errorf("verdict %s — %q, want CLIENT-LIMITED: the schedule not kept", step.Verdict, step.Why)
	}
}
