package export

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
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

// A text value (our verdict rows) prints as it is, is a JSON string in the
// reference's JSON exporters, and survives the JSON report's round trip.
func TestTextValue(t *testing.T) {
	r := Row{Metric: "SLO", Name: "READ.p99<=5ms", Value: Str(`PASS "x"`)}
	if got := line(r); got != `[SLO], READ.p99<=5ms, PASS "x"` {
		t.Errorf("text: %s", got)
	}
	var buf bytes.Buffer
	if err := WriteAll(&buf, "json", []Row{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"value" : "PASS \"x\""`) {
		t.Errorf("json exporter: %s", buf.String())
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Row
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != r {
		t.Errorf("round trip: %s gave %+v", b, back)
	}
}
