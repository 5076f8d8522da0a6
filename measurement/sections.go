package measurement

import (
	"bufio"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/internal/javafmt"
	"github.com/goycsb/ycsb/measurement/export"
)

// Rows renders the snapshot's sections for cfg's measurement type, as the
// reference's OneMeasurement classes at 0.17.0 export them. The two-in-one
// types print each measurement twice, as Hdr<NAME> (with the Return= lines)
// then Bucket<NAME> or Raw<NAME>.
func (s *Snapshot) Rows(cfg *Config) []export.Row {
	var rows []export.Row
	for i := range s.Measurements {
		m := &s.Measurements[i]
		switch cfg.Type {
		case HdrHistogram:
			rows = m.appendHdrRows(rows, cfg, m.Name, true)
		case Histogram:
			rows = m.appendBucketRows(rows, cfg, m.Name, true)
		case TimeSeries:
			rows = m.appendSeriesRows(rows, m.Name)
		case Raw:
			rows = m.appendRawRows(rows, cfg, m.Name, true)
		case HdrHistogramHistogram:
			rows = m.appendHdrRows(rows, cfg, "Hdr"+m.Name, true)
			rows = m.appendBucketRows(rows, cfg, "Bucket"+m.Name, false)
		case HdrHistogramRaw:
			rows = m.appendHdrRows(rows, cfg, "Hdr"+m.Name, true)
			rows = m.appendRawRows(rows, cfg, "Raw"+m.Name, false)
		}
	}
	return rows
}

// appendReturns appends a section's Return=<STATUS> lines.
func appendReturns(rows []export.Row, name string, returns []StatusCount) []export.Row {
	for _, r := range returns {
		rows = append(rows, export.Row{Metric: name, Name: "Return=" + r.Status.String(), Value: export.Int(r.Count)})
	}
	return rows
}

// AppendRetries appends a section's Retries line after its Return= lines:
// ours (the reference has no retries), printed only when there were any.
func AppendRetries(rows []export.Row, name string, retries int64) []export.Row {
	if retries == 0 {
		return rows
	}
	return append(rows, export.Row{Metric: name, Name: "Retries", Value: export.Int(retries)})
}

// AppendHdrSection appends the section of one measurement in the form of
// the reference's site.ycsb.measurements.OneMeasurementHdrHistogram at
// 0.17.0: operations, mean, minimum, maximum and percentiles from st, then
// returns (in the reference's order, see SortReturns). It is the one writer
// of this form, for run and for merge alike.
func AppendHdrSection(rows []export.Row, name string, st *Stats, percentiles []float64, returns []StatusCount) []export.Row {
	add := func(n string, v export.Value) { rows = append(rows, export.Row{Metric: name, Name: n, Value: v}) }
	add(export.Operations, export.Int(st.Count))
	add(export.AverageLatency, export.Float(st.Mean))
	add(export.MinLatency, export.Int(st.Min))
	add(export.MaxLatency, export.Int(st.Max))
	for _, p := range percentiles {
		add(export.PercentileLatency(p), export.Int(st.Percentile(p)))
	}
	return appendReturns(rows, name, returns)
}

func (m *Measurement) appendHdrRows(rows []export.Row, cfg *Config, name string, returns bool) []export.Row {
	st := StatsOf(m.Hist)
	var rets []StatusCount
	if returns {
		rets = m.Returns
	}
	rows = AppendHdrSection(rows, name, &st, cfg.Percentiles, rets)
	if returns {
		rows = AppendRetries(rows, name, m.Retries)
	}
	if cfg.Verbose {
		for _, b := range st.Buckets() {
			rows = append(rows, export.Row{Metric: name, Name: strconv.FormatInt(b.To, 10), Value: export.Float(float64(b.Count))})
		}
	}
	return rows
}

// appendBucketRows is OneMeasurementHistogram: exact mean and variance,
// percentiles as the lower edge of a 1-ms bucket.
func (m *Measurement) appendBucketRows(rows []export.Row, cfg *Config, name string, returns bool) []export.Row {
	add := func(n string, v export.Value) { rows = append(rows, export.Row{Metric: name, Name: n, Value: v}) }
	ops := float64(m.Count)
	mean := float64(m.Sum) / ops
	add(export.Operations, export.Int(m.Count))
	add(export.AverageLatency, export.Float(mean))
	add("LatencyVariance(us)", export.Float(m.SumSq/ops-mean*mean))
	add(export.MinLatency, export.Int(m.Min))
	add(export.MaxLatency, export.Int(m.Max))
	var cum int64
	done95 := false
	for i := 0; i < cfg.Buckets && i < len(m.Buckets); i++ {
		cum += m.Buckets[i]
		if !done95 && float64(cum)/ops >= 0.95 {
			add(export.PercentileLatency(95), export.Int(int64(i)*1000))
			done95 = true
		}
		if float64(cum)/ops >= 0.99 {
			add(export.PercentileLatency(99), export.Int(int64(i)*1000))
			break
		}
	}
	if returns {
		rows = appendReturns(rows, name, m.Returns)
		rows = AppendRetries(rows, name, m.Retries)
	}
	if cfg.Verbose {
		for i := 0; i < cfg.Buckets; i++ {
			add(strconv.Itoa(i), export.Int(m.bucket(i)))
		}
		add(">"+strconv.Itoa(cfg.Buckets), export.Int(m.bucket(cfg.Buckets)))
	}
	return rows
}

func (m *Measurement) bucket(i int) int64 {
	if i < len(m.Buckets) {
		return m.Buckets[i]
	}
	return 0
}

// appendSeriesRows is OneMeasurementTimeSeries: one average per unit.
func (m *Measurement) appendSeriesRows(rows []export.Row, name string) []export.Row {
	add := func(n string, v export.Value) { rows = append(rows, export.Row{Metric: name, Name: n, Value: v}) }
	add(export.Operations, export.Int(m.Count))
	add(export.AverageLatency, export.Float(float64(m.Sum)/float64(m.Count)))
	add(export.MinLatency, export.Int(m.Min))
	add(export.MaxLatency, export.Int(m.Max))
	rows = appendReturns(rows, name, m.Returns)
	rows = AppendRetries(rows, name, m.Retries)
	for _, u := range m.Units {
		add(strconv.FormatInt(u.Ms, 10), export.Float(u.Avg))
	}
	return rows
}

// rawQuantiles are the raw type's summary lines and their positions.
var rawQuantiles = []struct {
	name string
	q    float64
}{{"p1", 0.01}, {"p5", 0.05}, {"p50", 0.5}, {"p90", 0.9}, {"p95", 0.95}, {"p99", 0.99}, {"p99.9", 0.999}, {"p99.99", 0.9999}}

// appendRawRows is OneMeasurementRaw's summary; the samples themselves are
// written by WriteRaw.
func (m *Measurement) appendRawRows(rows []export.Row, cfg *Config, name string, returns bool) []export.Row {
	add := func(n string, v export.Value) { rows = append(rows, export.Row{Metric: name, Name: n, Value: v}) }
	n := len(m.Raw)
	add("Total Operations", export.Int(int64(n)))
	if n > 0 && !cfg.RawNoSummary {
		add("Below is a summary of latency in microseconds:", export.Int(-1))
		add("Average", export.Float(float64(m.Sum)/float64(n)))
		sorted := make([]int64, n)
		for i, r := range m.Raw {
			sorted[i] = r.Us
		}
		slicesSortInt64(sorted)
		add("Min", export.Int(sorted[0]))
		add("Max", export.Int(sorted[n-1]))
		for _, q := range rawQuantiles {
			add(q.name, export.Int(sorted[int(float64(n)*q.q)]))
		}
	}
	if returns {
		rows = appendReturns(rows, name, m.Returns)
		rows = AppendRetries(rows, name, m.Retries)
	}
	return rows
}

// WriteRaw writes the samples of the raw types as the reference does, before
// the report: a header per measurement, then "<NAME>,<epoch ms>,<µs>" lines.
func (s *Snapshot) WriteRaw(w io.Writer, cfg *Config) error {
	if !cfg.HasRaw() {
		return nil
	}
	bw := bufio.NewWriter(w)
	var line []byte
	for i := range s.Measurements {
		m := &s.Measurements[i]
		name := m.Name
		if cfg.Type == HdrHistogramRaw {
			name = "Raw" + name
		}
		bw.WriteString(name + " latency raw data: op, timestamp(ms), latency(us)\n")
		for _, r := range m.Raw {
			line = append(line[:0], name...)
			line = append(line, ',')
			line = strconv.AppendInt(line, r.EpochMs, 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, r.Us, 10)
			line = append(line, '\n')
			bw.Write(line)
		}
	}
	return bw.Flush()
}

// Summary renders the status-line summary of every measurement, each
// followed by one space, as the reference's Measurements.getSummary.
func (s *Snapshot) Summary(cfg *Config) string {
	var b strings.Builder
	for i := range s.Measurements {
		m := &s.Measurements[i]
		if m.Hist == nil {
			continue
		}
		switch cfg.Type {
		case HdrHistogram:
			m.hdrSummary(&b, cfg, m.Name)
		case Histogram, TimeSeries:
			m.avgSummary(&b, m.Name)
		case Raw:
			m.rawSummary(&b, m.Name)
		case HdrHistogramHistogram:
			m.hdrSummary(&b, cfg, "Hdr"+m.Name)
			b.WriteByte('\n')
			m.avgSummary(&b, "Bucket"+m.Name)
		case HdrHistogramRaw:
			m.hdrSummary(&b, cfg, "Hdr"+m.Name)
			b.WriteByte('\n')
			m.rawSummary(&b, "Raw"+m.Name)
		}
		if m.Retries > 0 {
			// Ours: retries are never hidden, in the status line either.
			b.WriteString(" [")
			b.WriteString(m.Name)
			b.WriteString(" Retries=")
			b.WriteString(strconv.FormatInt(m.Retries, 10))
			b.WriteByte(']')
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// summaryPercentiles are the status summary's percentiles: 0.17.0's, and
// master's 50= in front of them when hdrhistogram.percentiles asks for the
// 50th (as master's default does).
func summaryPercentiles(cfg *Config) []float64 {
	if slices.Contains(cfg.Percentiles, 50) {
		return []float64{50, 90, 99, 99.9, 99.99}
	}
	return []float64{90, 99, 99.9, 99.99}
}

func (m *Measurement) hdrSummary(b *strings.Builder, cfg *Config, name string) {
	st := StatsOf(m.Hist)
	b.WriteByte('[')
	b.WriteString(name)
	b.WriteString(": Count=")
	b.WriteString(strconv.FormatInt(st.Count, 10))
	b.WriteString(", Max=")
	b.WriteString(strconv.FormatInt(st.Max, 10))
	b.WriteString(", Min=")
	b.WriteString(strconv.FormatInt(st.Min, 10))
	b.WriteString(", Avg=")
	b.WriteString(javafmt.Decimal2(st.Mean))
	for _, p := range summaryPercentiles(cfg) {
		b.WriteString(", ")
		b.WriteString(strconv.FormatFloat(p, 'f', -1, 64))
		b.WriteByte('=')
		b.WriteString(strconv.FormatInt(st.Percentile(p), 10))
	}
	b.WriteByte(']')
}

func (m *Measurement) avgSummary(b *strings.Builder, name string) {
	if m.Count == 0 {
		return
	}
	b.WriteByte('[')
	b.WriteString(name)
	b.WriteString(" AverageLatency(us)=")
	b.WriteString(javafmt.Decimal2(float64(m.Sum) / float64(m.Count)))
	b.WriteByte(']')
}

func (m *Measurement) rawSummary(b *strings.Builder, name string) {
	if m.Count == 0 {
		return
	}
	b.WriteString(name)
	b.WriteString(" count: ")
	b.WriteString(strconv.FormatInt(m.Count, 10))
	b.WriteString(", average latency(us): ")
	b.WriteString(fixed2HalfUp(float64(m.Sum) / float64(m.Count)))
}

// fixed2HalfUp is Java's String.format("%.2f"): the exact binary value
// rounded half-up, where Go's formatting rounds exact ties to even.
func fixed2HalfUp(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return javafmt.Double(v)
	}
	exact := new(big.Float).SetPrec(0).SetFloat64(v).Text('f', 1100)
	if i := strings.IndexByte(exact, '.'); i >= 0 && len(exact) > i+3 && exact[i+3] == '5' &&
		strings.TrimRight(exact[i+4:], "0") == "" {
		// A tie: move away from zero by less than half a unit.
		v += math.Copysign(0.001, v)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// Ops returns the number of operations in the snapshot as [OVERALL] counts
// them (one per transaction or insert of a worker loop), not the database
// calls the Return= lines count.
func (s *Snapshot) Ops() int64 { return s.Operations }
