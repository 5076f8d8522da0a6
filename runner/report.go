package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/atomicfile"
	"github.com/goycsb/ycsb/internal/reportblock"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/jsonreport"
	"github.com/goycsb/ycsb/props"
)

// checkExporter accepts the reference's exporters and ours.
func checkExporter(name string) error {
	if name == JSONReportExporter {
		return nil
	}
	if _, err := export.New(name, io.Discard); err != nil {
		return props.Errorf("exporter", "unknown exporter %q (known: %s, or the reference's class names)",
			name, JSONReportExporter+", json, jsonarray, text")
	}
	return nil
}

// reporter writes the final report: the raw samples, the rows with the
// chosen exporter, and the JSON report with the intervals it collected.
type reporter struct {
	o    Options
	s    *settings
	mcfg *measurement.Config

	jsonPath string         // report.json: a JSON report written besides the chosen exporter
	json     *jsonIntervals // the JSON report's intervals; nil when no JSON report is written
	rawOut   *os.File
}

// checkDir says which property names a file in a missing directory.
func checkDir(prop, path string) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return props.Errorf(prop, "directory %s does not exist", dir)
	}
	return nil
}

// checkWritable finds out before anything is opened, created or wiped
// whether path can be written: its directory exists and takes a new file (a
// temporary one, created and removed beside it), path is not a directory,
// and, when inPlace (the file is opened where it is rather than renamed into
// place), an existing file opens for writing. Nothing at path changes.
func checkWritable(prop, path string, inPlace bool) error {
	if err := checkDir(prop, path); err != nil {
		return err
	}
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return props.Errorf(prop, "%s is a directory, want a file name", path)
		}
		if inPlace {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return props.Errorf(prop, "cannot write %s: %v", path, err)
			}
			f.Close()
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".check*")
	if err != nil {
		return props.Errorf(prop, "cannot create a file in %s: %v", filepath.Dir(path), errors.Unwrap(err))
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// newReporter validates the report properties, and adds the interval
// outputs of the report (the JSON report's intervals, the HDR logs) to
// outs; any error is bad input.
func newReporter(o Options, s *settings, mcfg *measurement.Config, outs *intervalOutputs) (*reporter, error) {
	r := &reporter{o: o, s: s, mcfg: mcfg}
	p := o.Props
	r.jsonPath = p.String("report.json", "")
	if r.jsonPath != "" && r.jsonPath != "-" {
		if err := checkWritable("report.json", r.jsonPath, false); err != nil {
			return nil, err
		}
	}
	var err error
	if outs.every, err = p.Seconds("report.interval", 1, 0.01); err != nil {
		return nil, err
	}
	if mcfg.HdrFileOutput {
		if err := checkWritable("hdrhistogram.output.path", mcfg.HdrOutputPath+"X.hdr", false); err != nil {
			return nil, err
		}
		outs.add(hdrOutput{measurement.NewHdrLogs(mcfg, time.Now().UnixMilli())})
	}
	if mcfg.HasRaw() && mcfg.RawOutputFile != "" {
		if err := checkWritable("measurement.raw.output_file", mcfg.RawOutputFile, true); err != nil {
			return nil, err
		}
	}
	if r.jsonPath != "" || s.exporter == JSONReportExporter {
		r.json = &jsonIntervals{}
		outs.add(r.json)
	}
	return r, nil
}

// create creates the output files written during the run, once the binding
// has opened: until then a failed setup leaves nothing behind.
func (r *reporter) create() error {
	if r.mcfg.HasRaw() && r.mcfg.RawOutputFile != "" {
		f, err := os.OpenFile(r.mcfg.RawOutputFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return props.Errorf("measurement.raw.output_file", "%v", err)
		}
		r.rawOut = f
	}
	return nil
}

// release closes what create opened and finish did not.
func (r *reporter) release() {
	if r.rawOut != nil {
		r.rawOut.Close()
		r.rawOut = nil
	}
}

// finish writes the raw samples, closes the outputs that end with the
// report (the HDR logs), and writes the report with the chosen exporter and
// the JSON report.
func (r *reporter) finish(m *measured, rows []export.Row, outs *intervalOutputs) error {
	errs := r.writeRaw(m.total)
	if err := outs.closeReport(); err != nil {
		errs = append(errs, err)
	}
	var jsonDoc []byte
	if r.json != nil {
		var err error
		if jsonDoc, err = r.jsonDocument(m, rows); err != nil {
			return err
		}
	}
	if err := r.writeMain(m, rows, jsonDoc); err != nil {
		errs = append(errs, err)
	}
	if err := r.writeJSONReport(jsonDoc); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// writeRaw writes the raw measurements (measurement.raw.output_file, or
// stdout), as the reference does, before the report.
func (r *reporter) writeRaw(total *measurement.Snapshot) []error {
	if !r.mcfg.HasRaw() {
		return nil
	}
	var errs []error
	w := io.Writer(r.o.Stdout)
	if r.rawOut != nil {
		w = r.rawOut
		fmt.Fprintf(r.o.Stdout, "Raw data measurement: will output to result file: %s\n", r.mcfg.RawOutputFile)
	} else {
		fmt.Fprintln(r.o.Stdout, "Raw data measurement: will output to stdout.")
	}
	if err := total.WriteRaw(w, r.mcfg); err != nil {
		errs = append(errs, fmt.Errorf("measurement.raw.output_file: %w", err))
	}
	if r.rawOut != nil {
		if err := r.rawOut.Close(); err != nil {
			errs = append(errs, fmt.Errorf("measurement.raw.output_file: %w", err))
		}
		r.rawOut = nil
	}
	return errs
}

// jsonDocument is the JSON report, for the exporter and report.json.
func (r *reporter) jsonDocument(m *measured, rows []export.Row) ([]byte, error) {
	rep, err := buildJSONReport(&r.o, r.s, r.mcfg, m, rows, r.json.intervals())
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, rep); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeMain hands the figures to Options.Summary, or writes the report in
// the exporter's format to exportfile or stdout. When the file cannot be
// written the text report goes to stdout: the run's figures must not be
// lost with the file.
func (r *reporter) writeMain(m *measured, rows []export.Row, jsonDoc []byte) error {
	var err error
	switch {
	case r.o.Summary != nil:
		return r.o.Summary(&Summary{Start: m.start, End: m.end, Ops: m.ops, Succeeded: m.succeeded, Total: m.total, Stopped: m.stopped})
	case r.s.exporter == JSONReportExporter:
		err = writeOut(r.o.Stdout, "exportfile", r.s.exportFile, func(w io.Writer) error {
			_, err := w.Write(jsonDoc)
			return err
		})
	default:
		err = writeReport(r.o.Stdout, r.s, rows)
	}
	if err != nil && r.s.exportFile != "" {
		fmt.Fprintf(r.o.Stderr, "%v: the report follows on stdout\n", err)
		exportRows(r.o.Stdout, "text", rows)
	}
	return err
}

// writeJSONReport writes report.json: to its file, or with "-" to stdout as
// a marked block, for a client without a shared file system (a Kubernetes
// pod) that hands its report back in its log for ycsb merge to find.
func (r *reporter) writeJSONReport(jsonDoc []byte) error {
	switch r.jsonPath {
	case "":
		return nil
	case "-":
		if err := reportblock.Write(r.o.Stdout, jsonDoc); err != nil {
			return fmt.Errorf("report.json: %w", err)
		}
		return nil
	}
	return writeOut(nil, "report.json", r.jsonPath, func(w io.Writer) error {
		_, err := w.Write(jsonDoc)
		return err
	})
}

// report writes the final report of what execute measured and closes the
// binding. A load that inserted fewer records than it was to fails.
func (b *bench) report(m *measured) error {
	var stats []db.Stat
	if sr, ok := b.database.(db.StatsReporter); ok {
		stats = sr.Stats()
	}
	closeErr := b.closeDB()
	err := b.rep.finish(m, reportRows(m, b.mcfg, stats), b.outs)
	b.causes.WriteSummary(b.o.Stderr)
	if err != nil {
		return err
	}
	s := b.s
	if !s.transactions && s.opCount > 0 && m.inserted < s.opCount && !m.stopped {
		msg := fmt.Sprintf("load incomplete: %d of %d records inserted", m.inserted, s.opCount)
		if first := b.causes.First(); first != "" {
			msg += "; first error: " + first
		}
		return errors.New(msg)
	}
	return closeErr
}

// reportRows are the text report's rows, in the reference's order with
// ours in between where parsers keyed on the reference's rows still work.
func reportRows(m *measured, mcfg *measurement.Config, stats []db.Stat) []export.Row {
	elapsed := m.end.Sub(m.start)
	rows := overallRows(elapsed, m.ops, &m.gcStart, &m.gcEnd)
	if m.warmedUp {
		// After the reference's two OVERALL rows, so parsers keyed on them
		// keep working.
		rows = slices.Insert(rows, 2, export.Row{Metric: "OVERALL", Name: "Warmup(ms)", Value: export.Int(m.warmupMs)})
	}
	// Ours, after the reference's OVERALL rows: a dead cluster that fails
	// fast must not look fast.
	rows = slices.Insert(rows, overallEnd(rows), export.Row{Metric: "OVERALL", Name: "SuccessfulThroughput(ops/sec)",
		Value: export.Float(rate(m.succeeded, elapsed))})
	rows = append(rows, m.total.Rows(mcfg)...)
	if m.schedule != nil {
		rows = append(rows, m.schedule.rows()...)
	}
	for _, st := range stats {
		rows = append(rows, export.Row{Metric: st.Section, Name: st.Name, Value: statValue(st.Value)})
	}
	return rows
}

// overallEnd is the index after the last OVERALL row.
func overallEnd(rows []export.Row) int {
	i := 0
	for i < len(rows) && rows[i].Metric == "OVERALL" {
		i++
	}
	return i
}

// rate is n per second of d, 0 for an empty d.
func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

func statValue(v any) export.Value {
	switch x := v.(type) {
	case int:
		return export.Int(int64(x))
	case int64:
		return export.Int(x)
	case uint64:
		return export.Int(int64(x))
	case float64:
		return export.Float(x)
	}
	return export.Float(math.NaN())
}

func overallRows(elapsed time.Duration, ops int64, gcStart, gcEnd *runtime.MemStats) []export.Row {
	runtimeMs := elapsed.Milliseconds()
	// From the exact elapsed time rather than whole milliseconds, so a short
	// run does not report a rounded (or infinite) rate.
	throughput := float64(ops) / elapsed.Seconds()
	gcs := int64(gcEnd.NumGC - gcStart.NumGC)
	gcMs := int64(gcEnd.PauseTotalNs-gcStart.PauseTotalNs) / 1e6
	gcPct := float64(gcMs) / float64(runtimeMs) * 100
	if runtimeMs == 0 {
		gcPct = 0
	}
	if math.IsNaN(throughput) {
		throughput = 0
	}
	return []export.Row{
		{Metric: "OVERALL", Name: "RunTime(ms)", Value: export.Int(runtimeMs)},
		{Metric: "OVERALL", Name: "Throughput(ops/sec)", Value: export.Float(throughput)},
		{Metric: "TOTAL_GCs", Name: "Count", Value: export.Int(gcs)},
		{Metric: "TOTAL_GC_TIME", Name: "Time(ms)", Value: export.Int(gcMs)},
		{Metric: "TOTAL_GC_TIME_%", Name: "Time(%)", Value: export.Float(gcPct)},
	}
}

// writeReport renders the rows with the chosen exporter, to stdout or to
// the exportfile.
func writeReport(stdout io.Writer, s *settings, rows []export.Row) error {
	return writeOut(stdout, "exportfile", s.exportFile, func(w io.Writer) error {
		return exportRows(w, s.exporter, rows)
	})
}

// writeOut writes to path, or to stdout when path is empty. A file is
// written beside its final name and renamed into place, so a failed run
// never leaves half a report.
func writeOut(stdout io.Writer, prop, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("%s: %w", prop, err)
	}
	return nil
}

func exportRows(w io.Writer, name string, rows []export.Row) error {
	return export.WriteAll(w, name, rows)
}
