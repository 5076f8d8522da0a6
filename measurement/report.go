package measurement

import (
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/internal/javafmt"
	"github.com/goycsb/ycsb/measurement/export"
)

// Row is one report line: [Metric], Name, Value.
type Row struct {
	Metric string
	Name   string
	Value  export.Value
}

// Rows renders the snapshot's sections for the hdrhistogram measurement
// type (§6.4 of the reference notes).
func (s *Snapshot) Rows(cfg *Config) []Row {
	var rows []Row
	for i := range s.Measurements {
		rows = s.Measurements[i].appendHdrRows(rows, cfg)
	}
	return rows
}

func (m *Measurement) appendHdrRows(rows []Row, cfg *Config) []Row {
	st := StatsOf(m.Hist)
	add := func(name string, v export.Value) { rows = append(rows, Row{m.Name, name, v}) }
	add("Operations", export.Int(st.Count))
	add("AverageLatency(us)", export.Float(st.Mean))
	add("MinLatency(us)", export.Int(st.Min))
	add("MaxLatency(us)", export.Int(st.Max))
	for _, p := range cfg.Percentiles {
		add(javafmt.Ordinal(p)+"PercentileLatency(us)", export.Int(st.Percentile(p)))
	}
	for _, r := range m.Returns {
		add("Return="+r.Status.String(), export.Int(r.Count))
	}
	if cfg.Verbose {
		for _, b := range st.Buckets() {
			add(strconv.FormatInt(b.To, 10), export.Float(float64(b.Count)))
		}
	}
	return rows
}

// Summary renders the status-line summary of every measurement:
// "[READ: Count=…, Max=…, …] " for each, as the reference's getSummary.
func (s *Snapshot) Summary(cfg *Config) string {
	var b strings.Builder
	for i := range s.Measurements {
		m := &s.Measurements[i]
		if m.Hist == nil {
			continue
		}
		st := StatsOf(m.Hist)
		b.WriteByte('[')
		b.WriteString(m.Name)
		b.WriteString(": Count=")
		b.WriteString(strconv.FormatInt(st.Count, 10))
		b.WriteString(", Max=")
		b.WriteString(strconv.FormatInt(st.Max, 10))
		b.WriteString(", Min=")
		b.WriteString(strconv.FormatInt(st.Min, 10))
		b.WriteString(", Avg=")
		b.WriteString(javafmt.Decimal2(st.Mean))
		for _, p := range []float64{50, 90, 99, 99.9, 99.99} {
			b.WriteString(", ")
			b.WriteString(strconv.FormatFloat(p, 'f', -1, 64))
			b.WriteByte('=')
			b.WriteString(strconv.FormatInt(st.Percentile(p), 10))
		}
		b.WriteString("] ")
	}
	return b.String()
}

// Ops returns the number of operations in the snapshot: samples of the
// database operations, successful or not.
func (s *Snapshot) Ops() int64 {
	var n int64
	for i := range s.Measurements {
		m := &s.Measurements[i]
		if m.Intended || m.Kind != KindOK {
			continue
		}
		for _, r := range m.Returns {
			n += r.Count
		}
	}
	return n
}
