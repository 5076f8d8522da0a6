package report

import (
	"testing"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
)

// A measurement's retries reach the JSON report.
func TestMeasurementRetries(t *testing.T) {
	cfg, err := measurement.ParseConfig(props.FromMap(nil))
	if err != nil {
		t.Fatal(err)
	}
	snap := &measurement.Snapshot{Measurements: []measurement.Measurement{{Name: "READ-MODIFY-WRITE", Operation: "READ-MODIFY-WRITE", Retries: 7}}}
	ms, err := Measurements(snap, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Retries != 7 {
		t.Errorf("JSON measurements %+v, want retries 7", ms)
	}
}
