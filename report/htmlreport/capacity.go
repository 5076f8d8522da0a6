package htmlreport

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run/capacity"
)

// CapacityChart is one latency objective of the capacity searches drawn
// (ycsb capacity): each search's steps as points at (the step's achieved
// throughput, the objective's figure at that step, as its verdict read
// it: intended latency), the objective's limit as a horizontal line, and
// each search's answer as a vertical line.
type CapacityChart struct {
	Objective  string  `json:"objective"` // as written
	Operation  string  `json:"operation"`
	Statistic  string  `json:"statistic"`
	Comparison string  `json:"comparison"`
	Limit      float64 `json:"limit"`
	Unit       string  `json:"unit"` // us
	// LogY is set when the figures and the limit span more than a
	// decade: past the knee a search's intended latency grows by orders
	// of magnitude, and a linear axis would flatten every step before the
	// knee onto the floor.
	LogY   bool             `json:"log_y"`
	Series []CapacitySeries `json:"series"`
}

// CapacitySeries is one search's steps on a chart, in order of the rate
// asked; steps that measured nothing the objective reads are left out.
type CapacitySeries struct {
	Run    int             `json:"run"` // index in Runs
	Points []CapacityPoint `json:"points"`
}

// CapacityPoint is one step on a chart.
type CapacityPoint struct {
	Step     int     `json:"step"` // 1-based, in the order the search ran the steps
	Asked    float64 `json:"asked"`
	Achieved float64 `json:"achieved"` // x
	Measured float64 `json:"measured"` // y
	Verdict  string  `json:"verdict"`  // the step's: PASS, FAIL, CLIENT-LIMITED
	// Objective is this objective's own verdict at the step (a step can
	// fail on another objective while meeting this one).
	Objective string `json:"objective"`
	Why       string `json:"why,omitempty"`
}

// CapacityRun is a search's steps (without their histograms) and its
// answer, for a run's table.
type CapacityRun struct {
	Steps  []jsonreport.CapacityStep `json:"steps"`
	Answer Answer                    `json:"answer"`
}

// Answer is a search's result as the page marks it.
type Answer struct {
	MaxOpsSec          float64 `json:"max_ops_sec"`
	AchievedOpsSec     float64 `json:"achieved_ops_sec"`
	FirstFailingOpsSec float64 `json:"first_failing_ops_sec"`
	Limit              string  `json:"limit"`
	LimitWhy           string  `json:"limit_why"`
	// X is where the answer's step lies on the charts (its achieved
	// throughput), XFailing where the first failing step lies; 0 when
	// there is none. The page draws the answer at X and the bracket
	// between the two.
	X        float64 `json:"x"`
	XFailing float64 `json:"x_failing"`
	// Headline is the answer in a line, saying what limited it.
	Headline string `json:"headline"`
}

// isCapacity says whether r is a capacity search's report.
func isCapacity(r *jsonreport.Report) bool { return r.Capacity != nil }

// checkKinds refuses a mix of capacity searches and other reports: their
// charts share no axis (latency against throughput, against time).
func checkKinds(inputs []Input) error {
	for _, a := range inputs {
		for _, b := range inputs {
			if isCapacity(a.Report) && !isCapacity(b.Report) {
				return fmt.Errorf("%q is a capacity search and %q is not: draw them on separate pages", a.Name, b.Name)
			}
		}
	}
	return nil
}

// capacityRun is the table and answer of r's search.
func capacityRun(c *jsonreport.Capacity) *CapacityRun {
	cr := &CapacityRun{Steps: make([]jsonreport.CapacityStep, len(c.Steps))}
	for i, s := range c.Steps {
		s.Measurements = nil // the page draws no step's histogram
		cr.Steps[i] = s
	}
	a := Answer{MaxOpsSec: c.MaxOpsSec, AchievedOpsSec: c.AchievedOpsSec, FirstFailingOpsSec: c.FirstFailingOpsSec,
		Limit: c.Limit, LimitWhy: c.LimitWhy}
	if s := c.AnswerStep(); s != nil {
		a.X = s.AchievedOpsSec
	}
	for _, s := range c.Steps {
		if s.AskedOpsSec == c.FirstFailingOpsSec && s.Verdict != "PASS" && c.FirstFailingOpsSec > 0 {
			a.XFailing = s.AchievedOpsSec
		}
	}
	a.Headline = headline(c)
	cr.Answer = a
	return cr
}

// headline says the answer in a line. A client-limited search is a lower
// bound set by the client: the line says so and blames no system.
func headline(c *jsonreport.Capacity) string {
	// Rounded down: the answer is never shown above what its step achieved.
	rate := func(v float64) string { return fmt.Sprintf("%.0f ops/s", math.Floor(v)) }
	achieved := ""
	switch s := c.AnswerStep(); {
	case c.AchievedOpsSec > c.MaxOpsSec:
		// The step ran ahead of its rate: the answer is the rate asked.
		achieved = fmt.Sprintf(" (%.0f achieved)", c.AchievedOpsSec)
	case s != nil && s.AskedOpsSec > c.MaxOpsSec:
		achieved = fmt.Sprintf(" achieved (%.0f asked)", s.AskedOpsSec)
	}
	switch c.Limit {
	case "client":
		// The step at the first failing rate may have achieved it: the
		// client limited it some other way (its CPU, its own timing).
		limited := rate(c.FirstFailingOpsSec) + " asked"
		for _, s := range c.Steps {
			if s.AskedOpsSec == c.FirstFailingOpsSec && s.Verdict != "PASS" {
				limited = fmt.Sprintf("%s asked (%.0f achieved)", rate(c.FirstFailingOpsSec), s.AchievedOpsSec)
			}
		}
		if c.MaxOpsSec == 0 {
			return fmt.Sprintf("no rate was judged: the client, not the system, limited the steps down to %s", limited) + untrusted(c)
		}
		return fmt.Sprintf("at least %s%s: the client, not the system, limited the step at %s, so this is a lower bound, not the system's limit",
			rate(c.MaxOpsSec), achieved, limited) + untrusted(c)
	case "none":
		if c.FirstFailingOpsSec > 0 {
			return fmt.Sprintf("no rate met the objectives (the lowest asked, %s, failed)", rate(c.FirstFailingOpsSec))
		}
		return "no rate met the objectives"
	case "max":
		return fmt.Sprintf("at least %s%s: the highest rate the search could ask passed", rate(c.MaxOpsSec), achieved) + untrusted(c)
	case "steps":
		return fmt.Sprintf("max %s%s, first failing %s: the steps ran out before the resolution", rate(c.MaxOpsSec), achieved,
			rate(c.FirstFailingOpsSec)) + untrusted(c)
	case "system":
		return fmt.Sprintf("max %s%s, first failing %s", rate(c.MaxOpsSec), achieved, rate(c.FirstFailingOpsSec)) + untrusted(c)
	case capacity.LimitUntrusted:
		return fmt.Sprintf("max %s%s, first failing %s, but that failure is not to be trusted: neither the system nor the client is shown to be the limit",
			rate(c.MaxOpsSec), achieved, rate(c.FirstFailingOpsSec)) + untrusted(c)
	case capacity.LimitFleet:
		return "not judged: one client's share of a fleet's steps; ycsb merge the clients' reports for the answer"
	}
	// A kind this page does not know: its report's sentence, no figures
	// read as an answer they may not be.
	if c.LimitWhy != "" {
		return c.LimitWhy
	}
	return fmt.Sprintf("the search ended by %q, with no answer given", c.Limit)
}

// untrusted is the headline's note of an answer whose deciding steps are
// not to be trusted (jsonreport.Capacity.Untrusted); "" otherwise.
func untrusted(c *jsonreport.Capacity) string {
	if c.Untrusted == "" {
		return ""
	}
	return "; not to be trusted: " + c.Untrusted
}

// capacityCharts gathers the searches' latency objectives, one chart per
// objective text, in the order the runs name them.
func capacityCharts(inputs []Input) []CapacityChart {
	out := []CapacityChart{}
	index := map[string]int{}
	for ri, in := range inputs {
		c := in.Report.Capacity
		if c == nil {
			continue
		}
		series := map[string]*CapacitySeries{}
		for si, s := range c.Steps {
			if s.SLO == nil {
				continue
			}
			for _, o := range s.SLO.Objectives {
				if o.Unit != "us" {
					continue // errors are in the table only
				}
				i, ok := index[o.Objective]
				if !ok {
					i = len(out)
					index[o.Objective] = i
					out = append(out, CapacityChart{Objective: o.Objective, Operation: o.Operation, Statistic: o.Statistic,
						Comparison: o.Comparison, Limit: o.Limit, Unit: o.Unit, Series: []CapacitySeries{}})
				}
				sr := series[o.Objective]
				if sr == nil {
					out[i].Series = append(out[i].Series, CapacitySeries{Run: ri, Points: []CapacityPoint{}})
					sr = &out[i].Series[len(out[i].Series)-1]
					series[o.Objective] = sr
				}
				if o.Measured == nil {
					continue
				}
				sr.Points = append(sr.Points, CapacityPoint{Step: si + 1, Asked: s.AskedOpsSec, Achieved: s.AchievedOpsSec,
					Measured: *o.Measured, Verdict: s.Verdict, Objective: o.Verdict, Why: s.Why})
			}
		}
	}
	for i := range out {
		lo, hi := out[i].Limit, out[i].Limit
		for j := range out[i].Series {
			ps := out[i].Series[j].Points
			sort.SliceStable(ps, func(a, b int) bool { return ps[a].Asked < ps[b].Asked })
			for _, p := range ps {
				if p.Measured > 0 {
					lo, hi = math.Min(lo, p.Measured), math.Max(hi, p.Measured)
				}
			}
		}
		out[i].LogY = lo > 0 && hi/lo > 10
	}
	return out
}

// buildCapacity fills d from capacity searches' reports.
func buildCapacity(d *Data, inputs []Input) {
	for _, in := range inputs {
		r := in.Report
		d.Runs = append(d.Runs, Run{Name: in.Name, Binding: r.Binding, Phase: r.Phase, Start: r.Start.UTC().Format(time.RFC3339),
			RunTimeMs: r.RunTimeMs, Operations: r.Operations, Throughput: r.Throughput, Clients: r.Clients,
			OpsSeries: [][2]float64{}, LatencySeries: map[string]map[string][][2]float64{}, Spectrum: map[string][][2]float64{},
			Summary: []Summary{}, Capacity: capacityRun(r.Capacity)})
	}
	d.Operations = []string{}
	d.Thresholds = []Threshold{}
	d.Capacity = capacityCharts(inputs)
	d.Settings = settings(inputs)
}
