package export

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/goycsb/ycsb/internal/javafmt"
)

// Row is one line of the report: "[Metric], Name, Value" in the text
// exporter's form. Metric is the section (OVERALL, READ, Intended-READ, ...),
// which the reference's exporters call the metric; Name is the measurement
// within it. run and merge build these rows, every exporter writes them,
// and the JSON report keeps them as its sections.
type Row struct {
	Metric string
	Name   string
	Value  Value
}

// Value is an int64 or a float64, which Java prints differently, or a
// text (the verdict rows of our [SLO] and [CLIENT] sections, which the
// reference has not).
type Value struct {
	I      int64
	F      float64
	Float  bool
	Text   string
	IsText bool
}

// Int returns an integer value, printed as Java prints an int or a long.
func Int(v int64) Value { return Value{I: v} }

// Float returns a floating-point value, printed as Java's Double.toString.
func Float(v float64) Value { return Value{F: v, Float: true} }

// Str returns a text value.
func Str(s string) Value { return Value{Text: s, IsText: true} }

// String returns v as the text exporter prints it.
func (v Value) String() string { return string(v.append(nil)) }

func (v Value) append(dst []byte) []byte {
	if v.IsText {
		return append(dst, v.Text...)
	}
	if v.Float {
		return javafmt.AppendDouble(dst, v.F)
	}
	return strconv.AppendInt(dst, v.I, 10)
}

// rowJSON is a row as the JSON report (report/jsonreport) keeps it. Unlike
// the reference's exporters the value is a JSON number in Go's notation, or
// a string for NaN and infinities, and "float" marks a Java double.
type rowJSON struct {
	Metric string          `json:"metric"`
	Name   string          `json:"name"`
	Value  json.RawMessage `json:"value"`
	Float  bool            `json:"float,omitempty"`
	Text   bool            `json:"text,omitempty"`
}

// MarshalJSON writes the JSON report's form of r.
func (r Row) MarshalJSON() ([]byte, error) {
	var v []byte
	switch {
	case r.Value.IsText:
		v, _ = json.Marshal(r.Value.Text)
	case !r.Value.Float:
		v = strconv.AppendInt(nil, r.Value.I, 10)
	case math.IsNaN(r.Value.F):
		v = []byte(`"NaN"`)
	case math.IsInf(r.Value.F, 1):
		v = []byte(`"Infinity"`)
	case math.IsInf(r.Value.F, -1):
		v = []byte(`"-Infinity"`)
	default:
		v, _ = json.Marshal(r.Value.F)
	}
	return json.Marshal(rowJSON{Metric: r.Metric, Name: r.Name, Value: v, Float: r.Value.Float, Text: r.Value.IsText})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Row) UnmarshalJSON(b []byte) error {
	var j rowJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	r.Metric, r.Name = j.Metric, j.Name
	var s string
	if json.Unmarshal(j.Value, &s) == nil {
		if j.Text {
			r.Value = Str(s)
			return nil
		}
		switch s {
		case "NaN":
			r.Value = Float(math.NaN())
		case "Infinity":
			r.Value = Float(math.Inf(1))
		case "-Infinity":
			r.Value = Float(math.Inf(-1))
		default:
			return fmt.Errorf("section %s %s: bad value %q", j.Metric, j.Name, s)
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(j.Value, &f); err != nil {
		return err
	}
	if j.Float {
		r.Value = Float(f)
		return nil
	}
	// An integer row holds an int64, which a float64 may not carry exactly.
	if i, err := strconv.ParseInt(string(j.Value), 10, 64); err == nil {
		r.Value = Int(i)
	} else {
		r.Value = Int(int64(f))
	}
	return nil
}
