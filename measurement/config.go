package measurement

import (
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/db"
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

// Config is the measurement part of the properties.
type Config struct {
	Type             string // measurementtype
	Interval         IntervalMode
	Percentiles      []float64 // hdrhistogram.percentiles
	Verbose          bool      // measurement.histogram.verbose
	HighestLatencyUs int64     // largest latency a histogram tracks; larger values are clamped
	// Tracked[s] files failures with status s under <OP>-<STATUS> instead of <OP>-FAILED.
	Tracked [db.NumStatuses]bool

	Buckets       int    // histogram.buckets: 1-ms buckets of the histogram type
	GranularityMs int64  // timeseries.granularity
	RawOutputFile string // measurement.raw.output_file; "" is stdout
	RawNoSummary  bool   // measurement.raw.no_summary
	HdrFileOutput bool   // hdrhistogram.fileoutput
	HdrOutputPath string // hdrhistogram.output.path: a prefix of the log file names
}

// hasBuckets reports whether the type keeps 1-ms buckets.
func (c *Config) hasBuckets() bool {
	return c.Type == "histogram" || c.Type == "hdrhistogram+histogram"
}

// hasHdr reports whether the type prints HdrHistogram sections.
func (c *Config) hasHdr() bool { return strings.HasPrefix(c.Type, "hdrhistogram") }

// HasRaw reports whether the type keeps every sample (and prints them).
func (c *Config) HasRaw() bool { return c.Type == "raw" || c.Type == "hdrhistogram+raw" }

// DefaultPercentiles is hdrhistogram.percentiles as YCSB 0.17.0 has it
// (site.ycsb.measurements.OneMeasurementHdrHistogram); master's 50,95,99
// is there by setting the property.
var DefaultPercentiles = []float64{95, 99}

// measurementTypes is the closed set of measurementtype values.
var measurementTypes = []string{"hdrhistogram", "histogram", "hdrhistogram+histogram", "hdrhistogram+raw", "timeseries", "raw"}

// ParseConfig reads the measurement properties.
func ParseConfig(p *props.Properties) (*Config, error) {
	c := &Config{}
	var err error
	if c.Type, err = p.OneOf("measurementtype", "hdrhistogram", measurementTypes...); err != nil {
		return nil, err
	}
	mode, err := p.OneOf("measurement.interval", "op", "op", "intended", "both")
	if err != nil {
		return nil, err
	}
	c.Interval = map[string]IntervalMode{"op": IntervalOp, "intended": IntervalIntended, "both": IntervalBoth}[mode]
	if c.Verbose, err = p.Bool("measurement.histogram.verbose", false); err != nil {
		return nil, err
	}
	if c.HighestLatencyUs, err = p.Int64("hdrhistogram.highestlatency", 3_600_000_000); err != nil {
		return nil, err
	}
	if c.HighestLatencyUs < 2 {
		return nil, props.Invalid("hdrhistogram.highestlatency", strconv.FormatInt(c.HighestLatencyUs, 10), "a latency in µs of at least 2")
	}
	if c.Buckets, err = p.Int("histogram.buckets", 1000); err != nil {
		return nil, err
	}
	if c.Buckets < 1 || c.Buckets > 1<<24 {
		return nil, props.Invalid("histogram.buckets", strconv.Itoa(c.Buckets), "a number of 1-ms buckets between 1 and 16777216")
	}
	if c.GranularityMs, err = p.Int64("timeseries.granularity", 1000); err != nil {
		return nil, err
	}
	if c.GranularityMs < 1 {
		return nil, props.Invalid("timeseries.granularity", strconv.FormatInt(c.GranularityMs, 10), "milliseconds, at least 1")
	}
	c.RawOutputFile = p.String("measurement.raw.output_file", "")
	if c.RawNoSummary, err = p.Bool("measurement.raw.no_summary", false); err != nil {
		return nil, err
	}
	if c.HdrFileOutput, err = p.Bool("hdrhistogram.fileoutput", false); err != nil {
		return nil, err
	}
	c.HdrOutputPath = p.String("hdrhistogram.output.path", "")
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
		for s := db.Status(0); s < db.NumStatuses; s++ {
			c.Tracked[s] = !s.IsOK()
		}
	} else if v, ok := p.Get("latencytrackederrors"); ok && strings.TrimSpace(v) != "" {
		for _, name := range strings.Split(v, ",") {
			s, ok := db.ParseStatus(strings.TrimSpace(name))
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
		f, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || f < 0 || f > 100 {
			return nil, props.Invalid("hdrhistogram.percentiles", v, "a comma-separated list of percentiles between 0 and 100")
		}
		out = append(out, f)
	}
	return out, nil
}

// KindOf returns where a sample with status s is filed.
func (c *Config) KindOf(s db.Status) Kind {
	if s.IsOK() {
		return KindOK
	}
	if c.Tracked[s] {
		return StatusKind(s)
	}
	return KindFailed
}
