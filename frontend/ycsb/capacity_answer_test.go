package ycsb

import (
	"testing"

	"github.com/goycsb/ycsb/report"
	jsonreport "github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run/capacity"
)

// TestCapacityObjectAnswer (issue 48): the report's answer, in the JSON
// and the text summary, is what the best passing step served: its
// achieved rate, at most its asked one.
func TestCapacityObjectAnswer(t *testing.T) {
	type st struct {
		asked, achieved float64
		v               capacity.Verdict
	}
	for _, c := range []struct {
		name                 string
		steps                []st
		max, achieved, above float64
	}{
		{"short of the rate", []st{{1000, 990, capacity.Pass}, {2000, 1900, capacity.Pass}, {4000, 2500, capacity.Fail}}, 1900, 1900, 4000},
		{"ahead of the rate", []st{{1000, 1010, capacity.Pass}, {2000, 2004, capacity.Pass}, {4000, 2500, capacity.Fail}}, 2000, 2004, 4000},
		{"none passed", []st{{1000, 400, capacity.Fail}}, 0, 0, 1000},
	} {
		var steps []capacity.Step
		for _, s := range c.steps {
			steps = append(steps, capacity.Step{Asked: s.asked, Achieved: s.achieved, Verdict: s.v,
				Detail: &jsonreport.CapacityStep{AskedOpsSec: s.asked, AchievedOpsSec: s.achieved, Verdict: s.v.String(), Trusted: true}})
		}
		cs := &capacitySettings{search: capacity.Config{Start: 1000, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 30}}
		o := capacityObject(capacity.LadderAnswer(steps), cs, &settings{})
		if o.MaxOpsSec != c.max || o.AchievedOpsSec != c.achieved || o.FirstFailingOpsSec != c.above {
			t.Errorf("%s: max %v achieved %v above %v, want %v %v %v", c.name, o.MaxOpsSec, o.AchievedOpsSec, o.FirstFailingOpsSec, c.max, c.achieved, c.above)
		}
		for _, r := range report.CapacityRows(o, nil) {
			if r.Name == "MaxThroughput(ops/sec)" && r.Value.F != c.max {
				t.Errorf("%s: MaxThroughput row %v, want %v", c.name, r.Value.F, c.max)
			}
		}
	}
}
