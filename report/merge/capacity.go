package merge

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/shown"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run/capacity"
)

// ladderKeys are the settings that make the clients' ladders one: the
// same steps, timed alike (capacity.Ladder, the run's step times).
var ladderKeys = []string{"capacity.start", "capacity.growth", "capacity.max", "capacity.steps",
	"capacity.steptime", "capacity.maxsteptime", "capacity.warmup", "capacity.cooldown", "client.count"}

// IsCapacity says whether any of reps is a capacity report (ycsb
// capacity), which MergeCapacity merges.
func IsCapacity(reps []*jsonreport.Report) bool {
	for _, r := range reps {
		if r.Phase == jsonreport.PhaseCapacity || r.Capacity != nil {
			return true
		}
	}
	return false
}

// MergeCapacity merges the reports of a fleet's capacity ladder (ycsb
// capacity with client.count): step by step, the clients' histograms are
// merged exactly and judged against the objectives (given, as ycsb merge
// -slo, or the slo setting the clients carry) on intended latency, their
// rates added up. A step any client could not offer its share of is
// CLIENT-LIMITED. The answer is the highest step that passed below the
// first that did not (capacity.LadderAnswer). Clients started by a
// rendezvous are first put on one clock (OnRendezvousClock).
func MergeCapacity(paths []string, reps []*jsonreport.Report, given string) (*jsonreport.Report, error) {
	reps = OnRendezvousClock(reps)
	if err := sameLadder(paths, reps); err != nil {
		return nil, err
	}
	objs, err := FleetObjectives(given, reps)
	if err != nil {
		return nil, err
	}
	if objs == nil {
		return nil, fmt.Errorf("no objectives to judge the fleet's steps: give them with -slo")
	}
	first := reps[0]
	out := mergedHeader(first)
	if _, _, err := addClients(out, paths, reps); err != nil {
		return nil, err
	}
	out.RunTimeMs = out.End.Sub(out.Start).Milliseconds()
	out.Intervals = []jsonreport.Interval{}
	for _, k := range ladderKeys {
		if v, ok := first.Settings[k]; ok {
			out.Settings[k] = v
		}
	}
	if given == "" {
		given = first.Settings["slo"]
	}
	out.Settings["slo"] = given
	c := &jsonreport.Capacity{Steps: []jsonreport.CapacityStep{}, Resolution: first.Capacity.Resolution}
	var steps []capacity.Step
	for k := range first.Capacity.Steps {
		s, err := mergeStep(paths, reps, k, objs, out)
		if err != nil {
			return nil, err
		}
		c.Steps = append(c.Steps, s)
		v, _ := capacity.ParseVerdict(s.Verdict)
		st := capacity.Step{Asked: s.AskedOpsSec, Achieved: s.AchievedOpsSec, Threads: s.Threads, Verdict: v, Why: s.Why}
		if !s.Trusted {
			st.Untrusted = "too few operations to trust the percentiles (capacity.maxsteptime)"
		}
		if s.Untrusted != "" {
			st.Untrusted = strings.TrimPrefix(st.Untrusted+"; "+s.Untrusted, "; ")
		}
		steps = append(steps, st)
	}
	a := capacity.LadderAnswer(steps)
	for _, r := range reps {
		// The clients' ladders were cut short alike (sameLadder).
		a.Interrupted = a.Interrupted || strings.HasPrefix(r.Capacity.LimitWhy, capacity.LimitInterrupted)
	}
	// The answer is what the best passing step served, as one process's.
	max, best := a.Max()
	c.MaxOpsSec, c.FirstFailingOpsSec = max, a.Above
	if best > 0 {
		c.AchievedOpsSec = steps[best-1].Achieved
	}
	c.Limit, c.LimitWhy = a.LadderLimit(first.Settings["capacity.growth"])
	c.Untrusted = a.Untrusted("ops/s")
	out.Capacity = c
	var texts []string
	for _, o := range objs {
		texts = append(texts, o.Text)
	}
	out.Sections = report.CapacityRows(c, texts)
	return out, nil
}

// sameLadder checks that reps are every client's report of one fleet's
// ladder, naming the first that is not.
func sameLadder(paths []string, reps []*jsonreport.Report) error {
	first := reps[0]
	for i, r := range reps {
		switch {
		case r.Phase != "capacity" || r.Capacity == nil:
			return inputErr(paths[i], "a %s phase: a fleet's capacity ladder merges with the other clients' capacity reports only", r.Phase)
		case r.Capacity.Limit != capacity.LimitFleet || r.Client == nil:
			return inputErr(paths[i], "a capacity search of one process, not a client's share of a fleet's ladder (client.count): it has its answer already")
		case r.Client.Count != len(reps):
			return inputErr(paths[i], "client %d of a fleet of %d, but %d reports are given: give every client's report once", r.Client.Index, r.Client.Count, len(reps))
		}
		if i == 0 {
			continue
		}
		if err := sameExperiment(first, r); err != nil {
			return &InputError{Path: paths[i], Err: err}
		}
		for _, k := range ladderKeys {
			if a, b := first.Settings[k], r.Settings[k]; a != b {
				return inputErr(paths[i], "a different ladder: %s=%s here, %s in %s", k, shown.Quote(b), shown.Quote(a), paths[0])
			}
		}
		if len(r.Capacity.Steps) != len(first.Capacity.Steps) {
			return inputErr(paths[i], "%d steps of the ladder, but %s has %d (was a client interrupted?)", len(r.Capacity.Steps), paths[0], len(first.Capacity.Steps))
		}
		for k, s := range r.Capacity.Steps {
			if s.AskedOpsSec != first.Capacity.Steps[k].AskedOpsSec {
				return inputErr(paths[i], "step %d asks %g ops/s of the fleet, but %s's asks %g: a different ladder", k+1, s.AskedOpsSec, paths[0], first.Capacity.Steps[k].AskedOpsSec)
			}
		}
	}
	return nil
}

// mergeStep is the fleet's step k: the clients' figures added up, their
// histograms merged, judged.
func mergeStep(paths []string, reps []*jsonreport.Report, k int, objs []slo.Objective, out *jsonreport.Report) (jsonreport.CapacityStep, error) {
	m := jsonreport.CapacityStep{AskedOpsSec: reps[0].Capacity.Steps[k].AskedOpsSec, Trusted: true, StartMs: math.MaxInt64}
	var limited, loaded []string
	ofStep := make([]*jsonreport.Report, len(reps))
	for i, r := range reps {
		s := r.Capacity.Steps[k]
		m.AchievedOpsSec += s.AchievedOpsSec
		m.Threads += s.Threads
		m.Operations += s.Operations
		m.Failed += s.Failed
		m.MeasuredMs = max(m.MeasuredMs, s.MeasuredMs)
		m.StartMs = min(m.StartMs, r.Start.Add(time.Duration(s.StartMs)*time.Millisecond).Sub(out.Start).Milliseconds())
		m.Trusted = m.Trusted && s.Trusted
		if s.Verdict == capacity.ClientLimited.String() {
			limited = append(limited, fmt.Sprintf("client %d: %s", r.Client.Index, s.Why))
		}
		if s.Client != nil && !slices.Equal(s.Client.Verdicts, []string{jsonreport.KeptUp}) && len(s.Client.Verdicts) > 0 {
			loaded = append(loaded, fmt.Sprintf("client %d: %s", r.Client.Index, strings.Join(s.Client.Verdicts, ", ")))
		}
		ofStep[i] = &jsonreport.Report{Measurements: s.Measurements}
	}
	ms, hists, err := mergeMeasurements(paths, ofStep)
	if err != nil {
		return m, err
	}
	samples := make([]slo.Sample, 0, len(ms))
	own := (&jsonreport.Report{Measurements: ms}).OwnRMW()
	for i := range ms {
		h := hists[ms[i].Name]
		if err := fill(&ms[i], h, out.Percentiles); err != nil {
			return m, err
		}
		if h != nil {
			samples = append(samples, slo.Sample{Operation: ms[i].Operation, Intended: ms[i].Intended, LeftOut: slo.LeftOut(ms[i].Operation, own), Hist: h})
		}
	}
	m.Measurements = ms
	j, err := judgeStep(objs, samples, &m)
	if err != nil {
		return m, fmt.Errorf("step %d: %w", k+1, err)
	}
	m.SLO = j.JSON()
	switch {
	case len(limited) > 0:
		// The first client's reason stands for the others': they ran
		// the same share with the same threads.
		m.Verdict = capacity.ClientLimited.String()
		m.Why = fmt.Sprintf("%d of %d clients could not offer their share; %s", len(limited), len(reps), limited[0])
	case j.Passed():
		m.Verdict = capacity.Pass.String()
	default:
		m.Verdict, m.Why = capacity.Fail.String(), capacity.FailedObjectives(j)
		if len(loaded) > 0 {
			// As one process's step (report.JudgeCapacityStep): a failure
			// with a client's machine load in it is not the system's,
			// trusted.
			m.Untrusted = fmt.Sprintf("the machine's own load is in what %d of %d clients measured (%s)", len(loaded), len(reps), strings.Join(loaded, "; "))
		}
	}
	return m, nil
}

// judgeStep judges a fleet's step on its merged histograms, on intended
// latency as every step of a capacity search is.
func judgeStep(objs []slo.Objective, samples []slo.Sample, m *jsonreport.CapacityStep) (*slo.Judgement, error) {
	f, err := slo.NewFigures(samples, slo.Intended, m.Operations, m.Failed, true, m.AchievedOpsSec)
	if err != nil {
		return nil, err
	}
	return &slo.Judgement{Results: slo.Evaluate(objs, f), Latency: slo.Intended}, nil
}
