package measurement

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db/status"
)

// needPythonHdrh returns a python3 that can import hdrh, the PyPI
// hdrhistogram package: an HdrHistogram implementation independent of
// ours. Outside CI a missing one skips the test; in CI it is installed, and
// failing that the test fails.
func needPythonHdrh(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err == nil && exec.Command(py, "-c", "import hdrh.log").Run() == nil {
		return py
	}
	if os.Getenv("CI") != "true" {
		if err != nil {
			t.Skip("python3 is not installed: skipping the check of the HDR logs with an independent reader (CI runs it)")
		}
		t.Skip("the Python hdrh module is missing (pip install --user hdrhistogram): skipping the check of the HDR logs with an independent reader (CI runs it)")
	}
	if err != nil {
		t.Fatal("CI=true but python3 is not installed; the HDR log reader test needs python3 with the hdrhistogram package")
	}
	out, ierr := exec.Command(py, "-m", "pip", "install", "--user", "hdrhistogram").CombinedOutput()
	if ierr != nil || exec.Command(py, "-c", "import hdrh.log").Run() != nil {
		t.Fatalf("CI=true and the Python hdrhistogram package could not be installed: %v\n%s", ierr, out)
	}
	return py
}

const readLogs = `
import json, sys
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader
out = {}
for path in sys.argv[1:]:
    r = HistogramLogReader(path, HdrHistogram(1, 3600000000, 3))
    ivs = []
    while True:
        h = r.get_next_interval_histogram()
        if h is None:
            break
        ivs.append({"count": h.get_total_count(), "max": h.get_max_value(), "min": h.get_min_value(),
                    "p50": h.get_value_at_percentile(50), "p99": h.get_value_at_percentile(99),
                    "buckets": [[v.value_iterated_to, v.count_at_value_iterated_to] for v in h.get_recorded_iterator()],
                    "start": h.get_start_time_stamp(), "end": h.get_end_time_stamp()})
    out[path] = ivs
json.dump(out, sys.stdout)
`

type pyInterval struct {
	Count, Max, Min, P50, P99 int64
	Start, End                float64
	Buckets                   [][2]int64 // highest equivalent value, count
}

// TestHdrLogsIndependentReader writes interval logs for two measurements
// over three intervals and reads them back with the Python implementation:
// counts must match exactly, values within HdrHistogram's precision.
func TestHdrLogsIndependentReader(t *testing.T) {
	py := needPythonHdrh(t)
	dir := t.TempDir()
	cfg := config(t, map[string]string{"hdrhistogram.fileoutput": "true", "hdrhistogram.output.path": filepath.Join(dir, "run-")})
	base := time.Now().UnixMilli()
	logs := NewHdrLogs(cfg, base)
	c := NewCollector(cfg, YCSB)
	c.OnInterval = logs.Write
	r := c.NewRecorder()
	type want struct {
		count, min, max, p50, p99 int64
		buckets                   [][2]int64
	}
	wants := map[string][]want{}
	for iv := int64(0); iv < 3; iv++ {
		for i := int64(1); i <= 500*(iv+1); i++ {
			r.Done(Read, status.OK, 0, (i*(iv+1)*37%90000+1)*1000, 0)
			if i%3 == 0 {
				r.Done(Update, status.OK, 0, (i*1000+iv)*1000, 0)
			}
		}
		snap := c.Tick()
		for _, m := range snap.Measurements {
			st := StatsOf(m.Hist)
			w := want{count: st.Count, min: st.Min, max: st.Max, p50: st.Percentile(50), p99: st.Percentile(99)}
			for _, b := range st.Buckets() {
				w.buckets = append(w.buckets, [2]int64{b.To, b.Count})
			}
			wants[m.Name] = append(wants[m.Name], w)
		}
	}
	if err := logs.Close(); err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(dir, "run-READ.hdr"), filepath.Join(dir, "run-UPDATE.hdr")}
	head, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(head), "#[Logging for: READ]\n#[Histogram log format version 1.3]\n#[StartTime: ") {
		t.Errorf("log header:\n%s", head[:min(len(head), 300)])
	}
	out, err := exec.Command(py, append([]string{"-c", readLogs}, paths...)...).Output()
	if err != nil {
		t.Fatalf("python reader: %v", err)
	}
	var got map[string][]pyInterval
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("python output %s: %v", out, err)
	}
	close := func(a, b int64) bool {
		d := a - b
		if d < 0 {
			d = -d
		}
		return d <= max(a, b)/1000+1 // three significant digits
	}
	within := func(a, b int64, frac float64) bool {
		d := float64(a - b)
		return d <= frac*float64(max(a, b)) && -d <= frac*float64(max(a, b))
	}
	for i, name := range []string{"READ", "UPDATE"} {
		ivs := got[paths[i]]
		if len(ivs) != len(wants[name]) {
			t.Fatalf("%s: python read %d intervals, we wrote %d", name, len(ivs), len(wants[name]))
		}
		for j, w := range wants[name] {
			g := ivs[j]
			if g.Count != w.count {
				t.Errorf("%s interval %d: count %d, want %d", name, j, g.Count, w.count)
			}
			// Every recorded bucket, exactly: the decoded histogram is ours.
			if !slices.Equal(g.Buckets, w.buckets) {
				t.Errorf("%s interval %d: python reads %d buckets, we recorded %d, or their counts differ", name, j, len(g.Buckets), len(w.buckets))
			}
			// Percentiles within one bucket: Python's hdrh rounds the
			// percentile's rank where Java's HdrHistogram (and we) take the
			// ceiling.
			if !close(g.Max, w.max) || !close(g.Min, w.min) || !close(g.P50, w.p50) || !within(g.P99, w.p99, 0.01) {
				t.Errorf("%s interval %d: python min/p50/p99/max %d/%d/%d/%d, ours %d/%d/%d/%d",
					name, j, g.Min, g.P50, g.P99, g.Max, w.min, w.p50, w.p99, w.max)
			}
			if g.End < g.Start {
				t.Errorf("%s interval %d: ends (%v) before it starts (%v)", name, j, g.End, g.Start)
			}
		}
	}
}
