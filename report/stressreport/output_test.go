package stressreport

import (
	"bytes"
	"io"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
)

// kindMetrics is the metrics of a predefined command writing to out: its
// rows READ, WRITE, COUNTER_WRITE and COUNTER_READ, then CLEANUP.
func kindMetrics(t *testing.T, out io.Writer) *Metrics {
	t.Helper()
	table, err := measurement.NewOps("READ", "WRITE", "COUNTER_WRITE", "COUNTER_READ", measurement.CleanupName)
	if err != nil {
		t.Fatal(err)
	}
	return NewMetrics(out, false, table)
}

// The predefined commands' rows of kindMetrics.
const (
	opRead  measurement.Op = 0
	opWrite measurement.Op = 1
)

// hist is a histogram of the given latencies in µs.
func hist(us ...int64) *hdrhistogram.Histogram {
	h := hdrhistogram.New(1, HistMaxUs, 3)
	for _, v := range us {
		h.RecordValue(v)
	}
	return h
}

// TestOutputShapes: the header, the interval rows (per op and total) and
// the Results block of a mixed run, from fixed numbers and a fixed clock.
func TestOutputShapes(t *testing.T) {
	var out bytes.Buffer
	m := kindMetrics(t, &out)
	m.GCSample = func() GCStats { return GCStats{count: 2, maxMs: 3, sumMs: 5, sumSqMs: 13, bytes: 3 << 20} }
	const s = int64(time.Second)
	m.StartRun(time.Unix(0, 0), 10*s)
	many := func(n int, us int64) []int64 {
		v := make([]int64, n)
		for i := range v {
			v[i] = us + int64(i%7)*100
		}
		return v
	}
	m.AddInterval(10*s, 11*s, &measurement.Snapshot{Measurements: []measurement.Measurement{
		{Op: opRead, Kind: measurement.KindOK, Hist: hist(many(2552, 1800)...)},
		{Op: opWrite, Kind: measurement.KindOK, Hist: hist(many(866, 1900)...)},
	}})
	m.AddInterval(11*s, 12*s, &measurement.Snapshot{Measurements: []measurement.Measurement{
		{Op: opRead, Kind: measurement.KindOK, Hist: hist(append(many(2615, 1700), 98000)...)},
		{Op: opRead, Kind: measurement.KindFailed, Hist: hist(12000, 15000)},
		{Op: opWrite, Kind: measurement.KindOK, Hist: hist(many(853, 2000)...)},
	}})
	// The last, partial interval after the workers joined.
	m.AddInterval(12*s, 12*s+300*int64(time.Millisecond), &measurement.Snapshot{Measurements: []measurement.Measurement{
		{Op: opRead, Kind: measurement.KindOK, Hist: hist(many(1200, 900)...)},
	}})
	m.Summarise(&out)
	out.WriteString("END\n")

	ycsbtest.Golden(t, "testdata/mixed.golden", out.Bytes())
}

func TestJavaFormat(t *testing.T) {
	for _, c := range []struct {
		v     float64
		prec  int
		group bool
		want  string
	}{
		{0.15, 1, false, "0.2"}, // HALF_UP on the shortest digits, not the binary value
		{2.5, 0, false, "3"},
		{4961.4, 0, true, "4,961"},
		{1234567.891, 1, true, "1,234,567.9"},
		{0, 5, false, "0.00000"},
		{0.000004, 5, false, "0.00000"},
		{0.000005, 5, false, "0.00001"},
		{9.96, 1, false, "10.0"},
		{-2.96095, 5, false, "-2.96095"},
	} {
		if got := jf(c.v, c.prec, c.group); got != c.want {
			t.Errorf("jf(%v, %d, %v) = %q, want %q", c.v, c.prec, c.group, got, c.want)
		}
	}
	if got := hhmmss(3723 * time.Second); got != "01:02:03" {
		t.Errorf("hhmmss = %q", got)
	}
}
