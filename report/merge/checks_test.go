package merge

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/report/jsonreport"
)

// TestReadRefusesWhatCannotBe: reports edited by hand from the goldens (a
// paced run of workload F with intended latency and verification, a merge
// of three clients, a capacity search) into figures that cannot be
// together are refused with one line naming the file, the field and what
// it should have agreed with. The goldens themselves are read.
func TestReadRefusesWhatCannotBe(t *testing.T) {
	goldens := map[string]string{
		"run":      filepath.Join("testdata", "run.json"),
		"merge":    filepath.Join("testdata", "merge.json"),
		"capacity": filepath.Join("..", "htmlreport", "testdata", "capacity.json"),
	}
	for name, path := range goldens {
		if _, err := ReadReport(path); err != nil {
			t.Fatalf("the %s golden: %v", name, err)
		}
	}
	for _, tt := range []struct {
		golden string
		edits  map[string]string // path in the document: the JSON value it gets
		want   string            // after "FILE: "
	}{
		{"run", map[string]string{"intervals.1.ops": "1000000000000"},
			"intervals: their ops add up to 1000000004001, but operations is 6000"},
		{"run", map[string]string{"failed_operations": "-7"}, "failed_operations: -7 is negative"},
		{"run", map[string]string{"failed_operations": "6001"}, "failed_operations: 6001 is above operations 6000"},
		{"run", map[string]string{"measurements": "[]"},
			"measurements: their returns add up to 0, fewer than operations 6000 (each operation returns a status)"},
		{"run", map[string]string{"measurements.0.returns.0.count": "1"},
			"measurements[0] (READ).returns: they add up to 1, but READ's measurements hold 6000 latencies (one for each return)"},
		{"run", map[string]string{"measurements.0.returns.0.status": `"MAYBE"`},
			`measurements[0] (READ).returns[0].status: "MAYBE" is not a status (OK, ERROR, NOT_FOUND, ...)`},
		{"run", map[string]string{"phase": `"banana"`}, `phase: "banana" is not load, run or capacity`},
		{"run", map[string]string{"phase": `""`}, "phase: missing (load, run or capacity), in a report of 6000 operations"},
		{"run", map[string]string{"phase": `"capacity"`}, "capacity: missing in a capacity phase"},
		{"run", map[string]string{"measurements.1.mean_us": "1e12"},
			"measurements[1] (READ-MODIFY-WRITE).mean_us: 1e+12, but the histogram's mean is 0.232845"},
		{"run", map[string]string{"measurements.1.max_us": "25"},
			"measurements[1] (READ-MODIFY-WRITE).max_us: 25, but the histogram's greatest value is 26"},
		{"run", map[string]string{"measurements.1.min_us": "3"},
			"measurements[1] (READ-MODIFY-WRITE).min_us: 3, but the histogram's least value is 0"},
		{"run", map[string]string{"measurements.1.percentiles_us.p99": "20"},
			"measurements[1] (READ-MODIFY-WRITE).percentiles_us.p99.9: 17 is below p99 20"},
		{"run", map[string]string{"measurements.1.percentiles_us.p99.99": "27"},
			"measurements[1] (READ-MODIFY-WRITE).percentiles_us.p99.99: 27 is not between the least value 0 and the greatest 26"},
		{"run", map[string]string{"start": `"not-a-date"`},
			`start: "not-a-date" is not a time in RFC 3339 form (2026-03-01T12:00:00Z)`},
		{"run", map[string]string{"throughput_ops_sec": "8001.97"},
			"throughput_ops_sec: 8001.97 is not operations 6000 over runtime_ms 1499 (4002.67)"},
		{"run", map[string]string{"intervals.0.by_op.READ": "3000"},
			"intervals[].by_op.READ: they add up to 6995, but READ's returns add up to 6000"},
		{"run", map[string]string{"intervals.0.latency.READ.max_us": "20000"},
			"intervals[0].latency.READ.max_us: 20000, but the histogram's greatest value is 2"},
		{"run", map[string]string{"intervals.0.latency.READ.count": "7", "intervals.0.latency.READ.histogram": `""`},
			"intervals[].latency.READ.count: they add up to 4002, but measurement READ counts 6000"},
		{"run", map[string]string{"schedule.target_ops_sec": "0"},
			"schedule.target_ops_sec: 0, but a schedule is kept only for a run with a target"},
		{"run", map[string]string{"schedule.wake.mean_us": "900"},
			"schedule.wake.mean_us: 900, but the histogram's mean is 92.834"},
		{"run", map[string]string{"client_verdict.verdicts": `["KEPT UP","CPU-BOUND"]`},
			"client_verdict.verdicts[0]: KEPT UP beside the limits the client ran into"},
		{"run", map[string]string{"client_verdict.verdicts": `["FAST"]`},
			`client_verdict.verdicts[0]: "FAST" is not one of KEPT UP, THREAD-BOUND, CPU-BOUND, STEAL, GC-PAUSES, CPU-WAIT, LATE-WAKEUPS`},
		{"run", map[string]string{"client_verdict.gc_pause_pct": "150"}, "client_verdict.gc_pause_pct: 150 is above 100%"},
		{"merge", map[string]string{"measurements.0.returns.1.count": "10"},
			"measurements[0] (READ).returns: they add up to 23901, but READ's measurements hold 23900 latencies (one for each return)"},
		{"merge", map[string]string{"intervals.3.ops": "1000000000000"},
			"intervals: their ops add up to 1000000021436, but operations is 23900"},
		{"capacity", map[string]string{"capacity.max_ops_sec": "1900"},
			"capacity.max_ops_sec: 1900 is what no passing step served (its achieved rate, at most its asked one)"},
		// The best passing step's rate asked, which it achieved 1914.19 of.
		{"capacity", map[string]string{"capacity.max_ops_sec": "1915"},
			"capacity.max_ops_sec: 1915 is what no passing step served (its achieved rate, at most its asked one)"},
		{"capacity", map[string]string{"capacity.first_failing_ops_sec": "1834"},
			"capacity.first_failing_ops_sec: 1834 is not above max_ops_sec 1914.1859691425932"},
		{"capacity", map[string]string{"phase": `"run"`}, `capacity: a capacity search in a "run" phase (expected phase capacity)`},
		{"capacity", map[string]string{"operations": "5"}, "capacity.steps: their operations add up to 57075, but operations is 5"},
		{"capacity", map[string]string{"capacity.steps.0.measurements.0.returns.0.count": "4000"},
			"capacity.steps[0].measurements[0] (READ).returns: they add up to 4000, but READ's measurements hold 4682 latencies (one for each return)"},
	} {
		path := writeEdited(t, goldens[tt.golden], tt.edits)
		_, err := ReadReport(path)
		if want := path + ": " + tt.want; err == nil || err.Error() != want {
			t.Errorf("%s %v:\n got %v\nwant %s", tt.golden, tt.edits, err, want)
		}
	}
}

// writeEdited writes the report at path with edits made to it (a path of
// keys and list indexes, dotted; keys may hold dots where no key matches
// a shorter part) and returns the file written.
func writeEdited(t *testing.T, path string, edits map[string]string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	for at, raw := range edits {
		var v any
		d := json.NewDecoder(strings.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		set(t, doc, strings.Split(at, "."), v)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "edited.json")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func set(t *testing.T, node any, keys []string, v any) {
	t.Helper()
	switch n := node.(type) {
	case map[string]any:
		// The longest key that matches: "p99.9" is one key.
		for k := len(keys); k > 0; k-- {
			key := strings.Join(keys[:k], ".")
			if child, ok := n[key]; ok || k == 1 {
				if k == len(keys) {
					n[key] = v
					return
				}
				set(t, child, keys[k:], v)
				return
			}
		}
	case []any:
		i, err := strconv.Atoi(keys[0])
		if err != nil || i >= len(n) {
			t.Fatalf("no element %s", keys[0])
		}
		if len(keys) == 1 {
			n[i] = v
			return
		}
		set(t, n[i], keys[1:], v)
		return
	}
	t.Fatalf("cannot set %v in %T", keys, node)
}

// TestParseHdrLogRefuses: every line of an HDR log is an interval, a
// comment, the legend or blank; the library's reader would skip a line it
// cannot match and read "-5.000" as 5.
func TestParseHdrLogRefuses(t *testing.T) {
	good := string(hdrLog(t, []int64{100, 200}, []int64{300}))
	if l, err := parseHdrLog("x.hdr", []byte(good)); err != nil || l.Hist.TotalCount() != 3 {
		t.Fatalf("the good log: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(good, "\n"), "\n")
	last := lines[len(lines)-1]
	payload := last[strings.LastIndexByte(last, ',')+1:]
	n := len(lines) + 1 // the edited line's number, appended
	for _, tt := range []struct{ line, want string }{
		{"-5.000,1.000,0.300," + payload, `StartTimestamp "-5.000" is not a number of 0 or more`},
		{"5.000,-1.000,0.300," + payload, `Interval_Length "-1.000" is not a number of 0 or more`},
		{"5.000,1.000,NaN," + payload, `Interval_Max "NaN" is not a number of 0 or more`},
		{"1e3,1.000,0.300," + payload, `StartTimestamp "1e3" is not a number of 0 or more`},
		{"garbage", "not an interval (StartTimestamp,Interval_Length,Interval_Max,Interval_Compressed_Histogram)"},
		{"5.000,1.000," + payload, "not an interval (StartTimestamp,Interval_Length,Interval_Max,Interval_Compressed_Histogram)"},
		{"Tag=READ", "a tag without an interval"},
		{"5.000,1.000,0.300,HISTFAAAAnotbase64!!", "Interval_Compressed_Histogram: "},
		{"#[BaseTime: NaN (seconds since epoch)]", `BaseTime "NaN" is not a time in seconds since the epoch (from 0 to 10000000000)`},
		{"#[StartTime: 12345678901234567890.000 (seconds since epoch), Thu Jan  1 00:00:00 UTC 1970]",
			`StartTime "12345678901234567890.000" is not a time in seconds since the epoch (from 0 to 10000000000)`},
		{"#[BaseTime: -1.0 (seconds since epoch)]", `BaseTime "-1.0" is not a time in seconds since the epoch (from 0 to 10000000000)`},
		{"0.500,1.000,0.300," + payload, "StartTimestamp 0.500 is before the interval before it (1.000000): the intervals are out of order"},
		{"1e11,1.000,0.300," + payload, `StartTimestamp "1e11" is not a number of 0 or more`},
		{"99999999999.0,1.000,0.300," + payload, "StartTimestamp 99999999999.0 is more than 10000000000 seconds"},
	} {
		_, err := parseHdrLog("x.hdr", []byte(good+tt.line+"\n"))
		want := "x.hdr: corrupt HdrHistogram log: line " + strconv.Itoa(n) + ": " + tt.want
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want %s", tt.line, err, want)
		}
	}
	// Each tag's intervals are in order, whatever the other tags'.
	tagged := good + "Tag=WRITE,0.500,1.000,0.300," + payload + "\nTag=WRITE,0.200,1.000,0.300," + payload + "\n"
	if _, err := parseHdrLog("x.hdr", []byte(tagged)); err == nil || !strings.Contains(err.Error(), "line "+strconv.Itoa(n+1)+": StartTimestamp 0.200 is before the interval before it (0.500)") {
		t.Errorf("tagged intervals out of order: %v", err)
	}
	// A tagged interval, as Java's HistogramLogWriter writes one, is read.
	if l, err := parseHdrLog("x.hdr", []byte(good+"Tag=READ,"+last+"\n")); err != nil || l.Hist.TotalCount() != 4 {
		t.Errorf("a tagged interval: %v", err)
	}
}

// TestHdrMergeReadBack: a merge of HdrHistogram logs, which has no phase,
// no operations and whichever measurements the logs held (an intended
// latency without its service latency), is read back as written.
func TestHdrMergeReadBack(t *testing.T) {
	data := bytes.Replace(hdrLog(t, []int64{100, 200}, []int64{300}), []byte("READ"), []byte("Intended-READ"), 1)
	l, err := parseHdrLog("a-Intended-READ.hdr", data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := MergeHdrLogs([]string{"a-Intended-READ.hdr"}, []*HdrLog{l}, []float64{50, 99})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	r, err := jsonreport.Read(buf.Bytes())
	if err != nil {
		t.Fatalf("the merge read back: %v", err)
	}
	if len(r.Measurements) != 1 || r.Measurements[0].Name != "Intended-READ" || !r.Measurements[0].Intended {
		t.Errorf("measurements %+v", r.Measurements)
	}
}
