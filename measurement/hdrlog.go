package measurement

import (
	"bufio"
	"errors"
	"fmt"
	"os"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/internal/outfile"
)

// HdrLogs writes hdrhistogram.fileoutput: one HdrHistogram interval log per
// measurement, <hdrhistogram.output.path><NAME>.hdr, in the standard log
// format (hdrhistogram-go's HistogramLogWriter, as Java's), one interval
// histogram per harvest. Files are created when a measurement first has
// samples. Write is called from the goroutine that ticks the Collector.
type HdrLogs struct {
	prefix     string
	prefixName string // "Hdr" for the two-in-one types, as their section names
	baseMs     int64
	files      map[string]*hdrLog
	err        error
}

type hdrLog struct {
	f  *os.File
	bw *bufio.Writer
	lw *hdrhistogram.HistogramLogWriter
}

// NewHdrLogs returns the logs for cfg, or nil when they are off. baseMs is
// the logs' base time (ms since the epoch): interval timestamps are
// relative to it.
func NewHdrLogs(cfg *Config, baseMs int64) *HdrLogs {
	if !cfg.HdrFileOutput {
		return nil
	}
	l := &HdrLogs{prefix: cfg.HdrOutputPath, baseMs: baseMs, files: map[string]*hdrLog{}}
	if cfg.Type != HdrHistogram && cfg.hasHdr() {
		l.prefixName = "Hdr"
	}
	if !cfg.hasHdr() {
		return nil // the reference logs HdrHistogram measurements only
	}
	return l
}

// Path returns the log file of the measurement called name.
func (l *HdrLogs) Path(name string) string { return l.prefix + l.prefixName + name + ".hdr" }

// Write logs one interval: the histograms harvested between startNs and
// endNs (Now values).
func (l *HdrLogs) Write(startNs, endNs int64, iv *Snapshot) {
	if l == nil || l.err != nil {
		return
	}
	startMs, endMs := WallTime(startNs).UnixMilli(), WallTime(endNs).UnixMilli()
	for i := range iv.Measurements {
		m := &iv.Measurements[i]
		if m.Hist == nil || m.Hist.TotalCount() == 0 {
			continue
		}
		lg, err := l.open(l.prefixName + m.Name)
		if err != nil {
			l.err = err
			return
		}
		m.Hist.SetStartTimeMs(startMs)
		m.Hist.SetEndTimeMs(endMs)
		if err := lg.lw.OutputIntervalHistogram(m.Hist); err != nil {
			l.err = fmt.Errorf("hdrhistogram.fileoutput: %s: %w", lg.f.Name(), err)
			return
		}
	}
}

func (l *HdrLogs) open(name string) (*hdrLog, error) {
	if lg := l.files[name]; lg != nil {
		return lg, nil
	}
	path := l.prefix + name + ".hdr"
	f, err := outfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("hdrhistogram.fileoutput: %w", err)
	}
	lg := &hdrLog{f: f, bw: bufio.NewWriter(f)}
	lg.lw = hdrhistogram.NewHistogramLogWriter(lg.bw)
	lg.lw.OutputComment("[Logging for: " + name + "]")
	lg.lw.OutputLogFormatVersion()
	lg.lw.OutputStartTime(l.baseMs)
	lg.lw.OutputBaseTime(l.baseMs)
	lg.lw.SetBaseTime(l.baseMs)
	lg.lw.OutputLegend()
	l.files[name] = lg
	return lg, nil
}

// Close flushes and closes every log and returns the first error.
func (l *HdrLogs) Close() error {
	if l == nil {
		return nil
	}
	errs := []error{l.err}
	for _, lg := range l.files {
		if err := lg.bw.Flush(); err != nil {
			errs = append(errs, fmt.Errorf("hdrhistogram.fileoutput: %s: %w", lg.f.Name(), err))
		}
		if err := lg.f.Close(); err != nil {
			errs = append(errs, fmt.Errorf("hdrhistogram.fileoutput: %w", err))
		}
	}
	l.files = nil
	return errors.Join(errs...)
}

// TaggedHdrLog is one HdrHistogram interval log that holds several series
// told apart by their Tag=, as cassandra-stress's -log hdrfile= writes it
// (report/StressMetrics.java in scylladb/cassandra-stress): a comment, the
// format version, the base and start times, the legend, then one tagged
// interval histogram per series and interval, with timestamps relative to
// the base time.
type TaggedHdrLog struct {
	f   *os.File
	bw  *bufio.Writer
	lw  *hdrhistogram.HistogramLogWriter
	err error
}

// CreateTaggedHdrLog creates path and writes the log's header: comment
// (without its "#"), then baseMs (ms since the epoch) as both base and
// start time.
func CreateTaggedHdrLog(path, comment string, baseMs int64) (*TaggedHdrLog, error) {
	f, err := outfile.Create(path)
	if err != nil {
		return nil, err
	}
	l := &TaggedHdrLog{f: f, bw: bufio.NewWriter(f)}
	l.lw = hdrhistogram.NewHistogramLogWriter(l.bw)
	l.lw.OutputComment(comment)
	l.lw.OutputLogFormatVersion()
	l.lw.OutputBaseTime(baseMs)
	l.lw.SetBaseTime(baseMs)
	l.lw.OutputStartTime(baseMs)
	l.lw.OutputLegend()
	return l, nil
}

// Write logs h, tagged tag, as the interval from startMs to endMs (ms since
// the epoch). It sets h's tag and timestamps. The first error is kept for
// Close.
func (l *TaggedHdrLog) Write(tag string, startMs, endMs int64, h *hdrhistogram.Histogram) {
	if l.err != nil {
		return
	}
	h.SetTag(tag)
	h.SetStartTimeMs(startMs)
	h.SetEndTimeMs(endMs)
	if err := l.lw.OutputIntervalHistogram(h); err != nil {
		l.err = fmt.Errorf("%s: %w", l.f.Name(), err)
	}
}

// Close flushes and closes the log and returns the first error.
func (l *TaggedHdrLog) Close() error {
	errs := []error{l.err}
	if err := l.bw.Flush(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", l.f.Name(), err))
	}
	if err := l.f.Close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
