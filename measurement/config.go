package measurement

import (
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/props"
)

// IntervalMode is measurement.interval: which latency is recorded.
type IntervalMode uint8

const (
	// IntervalOp records service time only (the reference's default).
	IntervalOp IntervalMode = iota
	// IntervalIntended records latency from the intended start time only,
	// under the plain operation names.
	IntervalIntended
	// IntervalBoth records service time under the plain names and intended
	// latency under Intended-<OP>.
	IntervalBoth
)

// Type is measurementtype: how latencies are kept and reported (the
// reference's OneMeasurement* classes at 0.17.0; docs/compatibility.md,
// "Text report").
type Type string

const (
	HdrHistogram          Type = "hdrhistogram"
	Histogram             Type = "histogram"
	HdrHistogramHistogram Type = "hdrhistogram+histogram"
	HdrHistogramRaw       Type = "hdrhistogram+raw"
	TimeSeries            Type = "timeseries"
	Raw                   Type = "raw"
)

// measurementTypes is the closed set of measurementtype values.
var measurementTypes = []Type{HdrHistogram, Histogram, HdrHistogramHistogram, HdrHistogramRaw, TimeSeries, Raw}

// Config is the measurement part of the properties.
type Config struct {
	Type             Type
	Interval         IntervalMode
	Percentiles      []float64 // hdrhistogram.percentiles
	Verbose          bool      // measurement.histogram.verbose
	HighestLatencyUs int64     // largest latency a histogram tracks; larger values are clamped
	// Tracked[s] files failures with status s under <OP>-<STATUS> instead of <OP>-FAILED.
	Tracked [status.NumStatuses]bool

	Buckets       int    // histogram.buckets: 1-ms buckets of the histogram type
	GranularityMs int64  // timeseries.granularity
	RawOutputFile string // measurement.raw.output_file; "" is stdout
	RawNoSummary  bool   // measurement.raw.no_summary
	HdrFileOutput bool   // hdrhistogram.fileoutput
	HdrOutputPath string // hdrhistogram.output.path: a prefix of the log file names
}

// hasBuckets reports whether the type keeps 1-ms buckets.
func (c *Config) hasBuckets() bool { return c.Type == Histogram || c.Type == HdrHistogramHistogram }

// hasHdr reports whether the type prints HdrHistogram sections.
func (c *Config) hasHdr() bool {
	return c.Type == HdrHistogram || c.Type == HdrHistogramHistogram || c.Type == HdrHistogramRaw
}

// HasRaw reports whether the type keeps every sample (and prints them).
func (c *Config) HasRaw() bool { return c.Type == Raw || c.Type == HdrHistogramRaw }

// DefaultPercentiles is hdrhistogram.percentiles as YCSB 0.17.0 has it
// (site.ycsb.measurements.OneMeasurementHdrHistogram); master's 50,95,99
// is there by setting the property.
var DefaultPercentiles = []float64{95, 99}

// ParseConfig reads the measurement properties.
func ParseConfig(p *props.Properties) (*Config, error) {
	c := &Config{}
	r := props.NewReader(p)
	c.Type = props.OneOf(r, "measurementtype", HdrHistogram, measurementTypes...)
	c.Interval = map[string]IntervalMode{"op": IntervalOp, "intended": IntervalIntended, "both": IntervalBoth}[props.OneOf(r, "measurement.interval", "op", "op", "intended", "both")]
	c.Verbose = r.Bool("measurement.histogram.verbose", false)
	c.HighestLatencyUs = int64(r.Duration("hdrhistogram.highestlatency", time.Microsecond, time.Hour, 2*time.Microsecond, props.MaxDuration) / time.Microsecond)
	c.Buckets = r.Int("histogram.buckets", 1000,
		props.Range("a number of 1-ms buckets between 1 and 16777216", func(n int64) bool { return n >= 1 && n <= 1<<24 }))
	c.GranularityMs = int64(r.Duration("timeseries.granularity", time.Millisecond, time.Second, time.Millisecond, props.MaxDuration) / time.Millisecond)
	c.RawOutputFile = r.String("measurement.raw.output_file", "")
	c.RawNoSummary = r.Bool("measurement.raw.no_summary", false)
	c.HdrFileOutput = r.Bool("hdrhistogram.fileoutput", false)
	c.HdrOutputPath = r.String("hdrhistogram.output.path", "")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if c.HdrFileOutput && !c.hasHdr() {
		// The reference ignores it silently; say so, and check no path.
		p.Notef("hdrhistogram.fileoutput=true has no effect with measurementtype=%s: only the hdrhistogram types write .hdr logs", c.Type)
		c.HdrFileOutput = false
	}
	c.Percentiles = DefaultPercentiles
	if v, ok := p.Get("hdrhistogram.percentiles"); ok {
		ps, err := parsePercentiles(v)
		if err != nil {
			return nil, err
		}
		c.Percentiles = ps
	}
	each, err := p.Bool("reportlatencyforeacherror", false)
	if err != nil {
		return nil, err
	}
	if each {
		for s := status.Status(0); s < status.NumStatuses; s++ {
			c.Tracked[s] = !s.IsOK()
		}
	} else if v, ok := p.Get("latencytrackederrors"); ok && strings.TrimSpace(v) != "" {
		for _, name := range strings.Split(v, ",") {
			s, ok := status.ParseStatus(strings.TrimSpace(name))
			if !ok || s.IsOK() {
				return nil, props.Invalid("latencytrackederrors", v, "a comma-separated list of failure statuses such as ERROR,NOT_FOUND")
			}
			c.Tracked[s] = true
		}
	}
	return c, nil
}

func parsePercentiles(v string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		f, err := strconv.ParseFloat(part, 64)
		// NaN fails every comparison: it must fail this one too.
		if err != nil || !(f >= 0 && f <= 100) || strings.ContainsAny(part, "xXpP_") {
			return nil, props.Invalid("hdrhistogram.percentiles", v, "a comma-separated list of percentiles between 0 and 100")
		}
		out = append(out, f)
	}
	return out, nil
}

// KindOf returns where a sample with status s is filed.
func (c *Config) KindOf(s status.Status) Kind {
	if s.IsOK() {
		return KindOK
	}
	if c.Tracked[s] {
		return StatusKind(s)
	}
	return KindFailed
}
