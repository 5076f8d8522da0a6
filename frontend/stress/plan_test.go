package stress

import (
	"reflect"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report/stressreport"
	"github.com/goycsb/ycsb/run"
)

// TestPlanAsTheRunnerReadIt: the measurement configuration and the JSON
// report's settings of a stress plan are what the run made of the
// properties the stress mode handed it before it built plans itself.
func TestPlanAsTheRunnerReadIt(t *testing.T) {
	for _, tc := range []struct {
		name       string
		plan       run.Plan
		notFound   bool
		properties map[string]string
	}{
		{"unrated user", run.Plan{Threads: 4, Interval: time.Second}, false,
			map[string]string{"threadcount": "4", "measurement.type": "hdrhistogram", "progress": "false", "report.interval": "1", "report.json": "r.json"}},
		{"rated write n=", run.Plan{Threads: 8, OpCount: 1000, Target: 500, Interval: 250 * time.Millisecond}, true,
			map[string]string{"threadcount": "8", "operationcount": "1000", "measurement.type": "hdrhistogram", "latencytrackederrors": "NOT_FOUND",
				"progress": "false", "report.interval": "0.25", "target": "500", "measurement.interval": "both", "report.json": "r.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.plan.Measurement = measurementConfig(tc.plan.Target > 0)
			if tc.notFound {
				tc.plan.Measurement.Tracked[db.NotFound] = true
			}
			want, err := measurement.ParseConfig(props.FromMap(tc.properties))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tc.plan.Measurement, want) {
				t.Errorf("measurement %+v, want %+v", tc.plan.Measurement, want)
			}
			if got := stressreport.Settings(&tc.plan, "r.json"); !reflect.DeepEqual(got, tc.properties) {
				t.Errorf("settings %v, want %v", got, tc.properties)
			}
		})
	}
}
