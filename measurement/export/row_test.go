package export

import (
	"encoding/json"
	"math"
	"testing"
)

// TestRowJSON: the JSON report keeps integers exactly, marks doubles, and
// writes NaN and infinities as strings.
func TestRowJSON(t *testing.T) {
	for _, tt := range []struct {
		row  Row
		want string
	}{
		{Row{"OVERALL", "RunTime(ms)", Int(1712)}, `{"metric":"OVERALL","name":"RunTime(ms)","value":1712}`},
		{Row{"READ", "MaxLatency(us)", Int(math.MaxInt64)}, `{"metric":"READ","name":"MaxLatency(us)","value":9223372036854775807}`},
		{Row{"READ", "AverageLatency(us)", Float(2)}, `{"metric":"READ","name":"AverageLatency(us)","value":2,"float":true}`},
		{Row{"READ", "AverageLatency(us)", Float(1e21)}, `{"metric":"READ","name":"AverageLatency(us)","value":1e+21,"float":true}`},
		{Row{"READ", "AverageLatency(us)", Float(math.NaN())}, `{"metric":"READ","name":"AverageLatency(us)","value":"NaN","float":true}`},
		{Row{"SCAN", "Rate", Float(math.Inf(-1))}, `{"metric":"SCAN","name":"Rate","value":"-Infinity","float":true}`},
	} {
		b, err := json.Marshal(tt.row)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%s: %s, want %s", line(tt.row), b, tt.want)
		}
		var back Row
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if line(back) != line(tt.row) {
			t.Errorf("%s reads back as %s", b, line(back))
		}
	}
	var r Row
	if err := json.Unmarshal([]byte(`{"metric":"READ","name":"x","value":"many"}`), &r); err == nil {
		t.Error("a string value other than NaN or an infinity was accepted")
	}
}

// line is r as the text exporter prints it.
func line(r Row) string { return "[" + r.Metric + "], " + r.Name + ", " + r.Value.String() }
