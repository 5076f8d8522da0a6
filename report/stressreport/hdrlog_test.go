package stressreport

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
	yresults "github.com/goycsb/ycsb/report/merge"
)

// hdrRun feeds a metrics with an hdrfile= log two intervals of a mixed run,
// with or without a rate (response and wait times), and returns the log.
func hdrRun(t *testing.T, rated bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.hdr")
	const s = int64(time.Second)
	const baseMs = 1_700_000_000_000
	lg, err := measurement.CreateTaggedHdrLog(path, HdrComment, baseMs)
	if err != nil {
		t.Fatal(err)
	}
	m := kindMetrics(t, io.Discard)
	m.HDR = lg
	m.GCSample = func() GCStats { return GCStats{} }
	m.WallMs = func(ns int64) int64 { return baseMs + ns/1e6 }
	if rated {
		m.Waits = func(into []*hdrhistogram.Histogram) {
			into[opRead].RecordValue(40)
			into[opRead].RecordValue(60)
			into[opWrite].RecordValue(5)
		}
	}
	m.StartRun(time.Unix(0, 0), 0)
	for i := int64(0); i < 2; i++ {
		ms := []measurement.Measurement{
			{Op: opRead, Kind: measurement.KindOK, Hist: hist(1800, 1900, 2500)},
			{Op: opWrite, Kind: measurement.KindOK, Hist: hist(900)},
		}
		if rated {
			ms = append(ms,
				measurement.Measurement{Op: opRead, Intended: true, Hist: hist(1850, 1950, 2600)},
				measurement.Measurement{Op: opWrite, Intended: true, Hist: hist(910)})
		}
		m.AddInterval(i*s, (i+1)*s, &measurement.Snapshot{Measurements: ms})
	}
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The project's reader of interval logs decodes it.
	if _, err := yresults.ReadHdrLog(context.Background(), path); err != nil {
		t.Fatalf("ReadHdrLog: %v", err)
	}
	return string(b)
}

// TestHdrFile: -log hdrfile= is the original's log, byte for byte in its
// header and tags, and decodes interval by interval into ns histograms.
func TestHdrFile(t *testing.T) {
	for _, c := range []struct {
		name  string
		rated bool
		tags  []string
	}{
		{"hdrfile_unrated", false, []string{"READ-st", "WRITE-st", "READ-st", "WRITE-st"}},
		{"hdrfile_rated", true, []string{"READ-st", "READ-rt", "READ-wt", "WRITE-st", "WRITE-rt", "WRITE-wt",
			"READ-st", "READ-rt", "READ-wt", "WRITE-st", "WRITE-rt", "WRITE-wt"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := hdrRun(t, c.rated)
			ycsbtest.Golden(t, "testdata/"+c.name+".golden", []byte(log))
			rd := hdrhistogram.NewHistogramLogReader(strings.NewReader(log))
			var tags []string
			for {
				h, err := rd.NextIntervalHistogram()
				if err != nil {
					t.Fatal(err)
				}
				if h == nil {
					break
				}
				tags = append(tags, h.Tag())
				switch h.Tag() {
				case "READ-st":
					if h.TotalCount() != 3 || h.Max() < 2_500_000 || h.Max() > 2_503_000 {
						t.Errorf("READ-st: %d values, max %d ns; want 3, max 2.5 ms in ns", h.TotalCount(), h.Max())
					}
				case "READ-wt":
					if h.TotalCount() != 2 || h.ValueAtQuantile(0) < 40_000 || h.ValueAtQuantile(0) > 41_000 {
						t.Errorf("READ-wt: %d values, min %d ns; want 2, min 40 µs", h.TotalCount(), h.ValueAtQuantile(0))
					}
				}
			}
			if strings.Join(tags, " ") != strings.Join(c.tags, " ") {
				t.Errorf("tags %v, want %v", tags, c.tags)
			}
		})
	}
}
