package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

// rows covers each kind of value the report has, plus names that need JSON
// escaping.
var rows = []Row{
	{"OVERALL", "RunTime(ms)", Int(2471)},
	{"OVERALL", "Throughput(ops/sec)", Float(40.46944556859571)},
	{"TOTAL_GC_TIME_%", "Time(%)", Float(0)},
	{"READ", "Operations", Int(4959)},
	{"READ", "AverageLatency(us)", Float(math.NaN())},
	{"READ", "MinLatency(us)", Int(1288)},
	{"READ", "99.9PercentileLatency(us)", Int(12345678901)},
	{"READ", "Return=OK", Int(4959)},
	{"CLEANUP", "AverageLatency(us)", Float(1672)},
	{"SCAN", "AverageLatency(us)", Float(12345678.9)},
	{"SCAN", "Rate", Float(math.Inf(-1))},
	{"ODD \"q\" \\\té", "0.001", Float(0.0009)},
}

// TestGolden compares with testdata/<name>.golden. The three files were
// checked byte for byte against the reference's exporters run on Jackson
// 1.9.4 and OpenJDK 17 with the same rows.
func TestGolden(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			got := export(t, name, rows)
			ycsbtest.Golden(t, filepath.Join("testdata", name+".golden"), got)
		})
	}
}

func export(t testing.TB, name string, rows []Row) []byte {
	t.Helper()
	var buf bytes.Buffer
	e, err := New(name, &buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := e.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type object struct {
	Metric      string `json:"metric"`
	Measurement string `json:"measurement"`
	Value       any    `json:"value"`
}

// wantObject is what encoding/json reads back for r.
func wantObject(r Row) object {
	var v any
	switch {
	case !r.Value.Float:
		v = float64(r.Value.I)
	case math.IsNaN(r.Value.F) || math.IsInf(r.Value.F, 0):
		v = r.Value.String() // quoted by the exporter
	default:
		v = r.Value.F
	}
	return object{r.Metric, r.Name, v}
}

func TestJSONArrayParses(t *testing.T) {
	var got []object
	if err := json.Unmarshal(export(t, "jsonarray", rows), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rows) {
		t.Fatalf("%d objects, want %d", len(got), len(rows))
	}
	for i, r := range rows {
		if want := wantObject(r); got[i] != want {
			t.Errorf("object %d = %+v, want %+v", i, got[i], want)
		}
	}
}

func TestJSONStreamParses(t *testing.T) {
	dec := json.NewDecoder(bytes.NewReader(export(t, "json", rows)))
	for i, r := range rows {
		var got object
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		if want := wantObject(r); got != want {
			t.Errorf("object %d = %+v, want %+v", i, got, want)
		}
	}
	if err := dec.Decode(new(object)); err != io.EOF {
		t.Fatalf("after %d objects: %v, want EOF", len(rows), err)
	}
}

func TestJSONString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"READ", `"READ"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\b\t\n\f\r", `"\b\t\n\f\r"`},
		{"\x00\x01\x0b\x1a\x1f", `"\u0000\u0001\u000B\u001A\u001F"`}, // Jackson's hex is upper-case
		{"/ <>&\x7f", "\"/ <>&\x7f\""},                               // no HTML or DEL escaping
		{"é\u2028日本", "\"é\u2028日本\""},                               // non-ASCII as is
	}
	for _, tt := range tests {
		if got := string(appendJSONString(nil, tt.in)); got != tt.want {
			t.Errorf("appendJSONString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestEmpty(t *testing.T) {
	for name, want := range map[string]string{"text": "", "json": "", "jsonarray": "[ ]"} {
		if got := string(export(t, name, nil)); got != want {
			t.Errorf("%s with no rows = %q, want %q", name, got, want)
		}
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name, want string // want is the golden file the exporter matches
	}{
		{"text", "text"},
		{"json", "json"},
		{"jsonarray", "jsonarray"},
		{"site.ycsb.measurements.exporter.TextMeasurementsExporter", "text"},
		{"site.ycsb.measurements.exporter.JSONMeasurementsExporter", "json"},
		{"site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter", "jsonarray"},
		{"com.yahoo.ycsb.measurements.exporter.TextMeasurementsExporter", "text"},
		{"com.yahoo.ycsb.measurements.exporter.JSONMeasurementsExporter", "json"},
		{"com.yahoo.ycsb.measurements.exporter.JSONArrayMeasurementsExporter", "jsonarray"},
	}
	for _, tt := range tests {
		want, err := os.ReadFile(filepath.Join("testdata", tt.want+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		if got := export(t, tt.name, rows); !bytes.Equal(got, want) {
			t.Errorf("New(%q) does not write the %s format", tt.name, tt.want)
		}
	}
}

func TestNewUnknown(t *testing.T) {
	for _, name := range []string{"", "csv", "Text", "site.ycsb.measurements.exporter.CsvExporter"} {
		e, err := New(name, io.Discard)
		if err == nil {
			t.Fatalf("New(%q) = %T, want an error", name, e)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "exporter: ") || !strings.Contains(msg, "json, jsonarray, text") {
			t.Errorf("New(%q) error %q does not name the property and the known exporters", name, msg)
		}
		if !props.IsBadInput(err) {
			t.Errorf("New(%q) error is not a props error", name)
		}
	}
}

func TestNames(t *testing.T) {
	if got, want := strings.Join(Names(), ","), "json,jsonarray,text"; got != want {
		t.Errorf("Names() = %s, want %s", got, want)
	}
}

type failWriter struct{}

var errDisk = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errDisk }

func TestErrors(t *testing.T) {
	for _, name := range Names() {
		e, err := New(name, failWriter{})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Write(Row{"OVERALL", "RunTime(ms)", Int(1)}); err != nil {
			t.Fatalf("%s: buffered Write failed early: %v", name, err)
		}
		if err := e.Close(); !errors.Is(err, errDisk) {
			t.Errorf("%s: Close = %v, want %v", name, err, errDisk)
		}
		if err := e.Close(); !errors.Is(err, errDisk) {
			t.Errorf("%s: second Close = %v, want %v", name, err, errDisk)
		}
		if err := e.Write(Row{"OVERALL", "RunTime(ms)", Int(1)}); err == nil {
			t.Errorf("%s: Write after Close succeeded", name)
		}
	}
}

func TestValueString(t *testing.T) {
	for v, want := range map[Value]string{
		Int(0): "0", Int(-7): "-7", Float(0): "0.0", Float(2): "2.0", Float(1e7): "1.0E7",
		Float(math.Inf(1)): "Infinity", {I: 5}: "5",
	} {
		if got := v.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", v, got, want)
		}
	}
}

// BenchmarkWrite writes a 100-row report, about the size of a run with
// three operations and three percentiles.
func BenchmarkWrite(b *testing.B) {
	report := make([]Row, 100)
	for i := range report {
		if i%3 == 1 {
			report[i] = Row{"READ", "AverageLatency(us)", Float(1867.9526114135915 + float64(i))}
		} else {
			report[i] = Row{"UPDATE", "99thPercentileLatency(us)", Int(int64(4299 * i))}
		}
	}
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e, _ := New(name, io.Discard)
				for _, r := range report {
					e.Write(r)
				}
				e.Close()
			}
		})
	}
}
