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
	"sync"
	"time"

	"github.com/goycsb/ycsb/internal/atomicfile"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/prom"
	"github.com/goycsb/ycsb/measurement/report"
	"github.com/goycsb/ycsb/props"
)

// JSONReportExporter is the exporter name of our own JSON report
// (measurement/report); the reference's exporters live in
// measurement/export.
const JSONReportExporter = "jsonreport"

// toolName is written into JSON reports.
var toolName = "ycsb-go"

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

// reporter owns everything the final report needs beyond the totals: the
// JSON report's settings and per-interval throughput, the HdrHistogram
// interval logs, and the raw type's output file.
type reporter struct {
	o    Options
	s    *settings
	mcfg *measurement.Config

	jsonPath  string // report.json: a JSON report written besides the chosen exporter
	wantJSON  bool   // the JSON report is written somewhere
	rawOut    *os.File
	hdr       *measurement.HdrLogs
	collector *measurement.Collector
	interval  time.Duration // internal collector tick without -s
	prom      *prom.Exporter
	progress  *progressLine
	warmupMs  int64 // the warm-up's length, when there was one

	mu        sync.Mutex // guards intervals (OnInterval runs on the ticking goroutine)
	startNs   int64      // origin of the intervals: the start of measurement
	intervals []report.Interval

	quit, done chan struct{}
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

// newReporter validates the report properties; any error is bad input.
func newReporter(o Options, s *settings, mcfg *measurement.Config) (*reporter, error) {
	r := &reporter{o: o, s: s, mcfg: mcfg}
	p := o.Props
	r.jsonPath = p.String("report.json", "")
	if r.jsonPath != "" {
		if err := checkWritable("report.json", r.jsonPath, false); err != nil {
			return nil, err
		}
	}
	r.wantJSON = r.jsonPath != "" || s.exporter == JSONReportExporter
	var err error
	if r.interval, err = p.Seconds("report.interval", 1, 0.01); err != nil {
		return nil, err
	}
	if mcfg.HdrFileOutput {
		if err := checkWritable("hdrhistogram.output.path", mcfg.HdrOutputPath+"X.hdr", false); err != nil {
			return nil, err
		}
		r.hdr = measurement.NewHdrLogs(mcfg, time.Now().UnixMilli())
	}
	if mcfg.HasRaw() && mcfg.RawOutputFile != "" {
		if err := checkWritable("measurement.raw.output_file", mcfg.RawOutputFile, true); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// listen opens the Prometheus endpoint: the last check of the setup, as a
// port in use is found only by taking it.
func (r *reporter) listen() error {
	if r.s.promAddr == "" {
		return nil
	}
	e, err := prom.Listen(r.s.promAddr, prom.Info{Binding: r.o.Binding, Phase: map[bool]string{false: "load", true: "run"}[r.s.transactions]})
	if err != nil {
		return props.Errorf("prometheus.addr", "%v", err)
	}
	r.prom = e
	return nil
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

// close releases what newReporter, listen and create opened and finish did
// not.
func (r *reporter) close() {
	if r.prom != nil {
		r.prom.Close()
		r.prom = nil
	}
	if r.rawOut != nil {
		r.rawOut.Close()
		r.rawOut = nil
	}
}

// statusOut is where status lines go: stderr, and also stdout with the
// timeseries type, as in the reference.
func (r *reporter) statusOut() io.Writer {
	if r.mcfg.Type == "timeseries" {
		return io.MultiWriter(r.o.Stderr, r.o.Stdout)
	}
	return r.o.Stderr
}

// attach hooks the reporter to the collector's interval harvests.
func (r *reporter) attach(c *measurement.Collector) {
	r.collector = c
	if !r.wantJSON && r.hdr == nil && r.prom == nil {
		return
	}
	c.OnInterval = func(startNs, endNs int64, iv *measurement.Snapshot) {
		if r.hdr != nil {
			r.hdr.Write(startNs, endNs, iv)
		}
		if r.prom != nil {
			r.prom.Observe(iv)
		}
		if !r.wantJSON {
			return
		}
		r.mu.Lock()
		origin := r.startNs
		r.mu.Unlock()
		if endNs <= origin {
			return // an interval of the warm-up: nothing was recorded
		}
		in := report.Interval{Ops: iv.Ops(), ByOp: map[string]int64{}, Latency: intervalLatency(iv)}
		for i := range iv.Measurements {
			m := &iv.Measurements[i]
			if m.Intended || m.Kind != measurement.KindOK {
				continue
			}
			var n int64
			for _, rc := range m.Returns {
				n += rc.Count
			}
			if n > 0 {
				in.ByOp[m.Name] = n
			}
		}
		in.StartMs = max(startNs-origin, 0) / 1e6
		in.EndMs = (endNs - origin) / 1e6
		r.mu.Lock()
		r.intervals = append(r.intervals, in)
		r.mu.Unlock()
	}
}

// intervalLatency is the per-interval latency of the JSON report.
func intervalLatency(iv *measurement.Snapshot) map[string]report.IntervalLatency {
	out := map[string]report.IntervalLatency{}
	for i := range iv.Measurements {
		m := &iv.Measurements[i]
		st := measurement.StatsOf(m.Hist)
		if st.Count == 0 {
			continue
		}
		il := report.IntervalLatency{Count: st.Count, MeanUs: st.Mean, MaxUs: st.Max, Percentiles: map[string]int64{}}
		for _, p := range report.IntervalPercentiles {
			il.Percentiles[report.PercentileKey(p)] = st.Percentile(p)
		}
		out[m.Name] = il
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// start begins the internal interval ticks when the JSON report, the HDR
// logs, the Prometheus endpoint or the progress line want intervals and no
// status thread is ticking the collector. startNs is the run's start (a Now
// value); with a warm-up, the intervals start when it ends, and one extra
// tick then makes the first measured interval begin there.
func (r *reporter) start(status bool, start time.Time, startNs int64, pl *progressLine) {
	r.mu.Lock()
	r.startNs = startNs + int64(r.s.warmup)
	r.mu.Unlock()
	if r.prom != nil && r.s.warmup > 0 {
		r.prom.SetWarmupEnd(start.Add(r.s.warmup))
	}
	r.progress = pl
	if status || (!r.wantJSON && r.hdr == nil && r.prom == nil && pl == nil) {
		return
	}
	r.quit, r.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(r.done)
		t := time.NewTicker(r.interval)
		defer t.Stop()
		// The warm-up tick comes just before the workers start recording,
		// so that it harvests nothing and the first measured interval
		// starts with the measurement; a regular tick close to it is
		// dropped, so no sliver of an interval is reported.
		var warm <-chan time.Time
		warmEnd := start.Add(r.s.warmup)
		if r.s.warmup > 0 {
			early := min(5*time.Millisecond, r.s.warmup/2)
			wt := time.NewTimer(r.s.warmup - early)
			defer wt.Stop()
			warm = wt.C
		}
		if pl != nil {
			pl.draw(time.Now(), &measurement.Snapshot{})
		}
		for {
			select {
			case <-t.C:
				if warm != nil && time.Until(warmEnd) < r.interval/4 {
					continue
				}
				r.tick()
			case <-warm:
				warm = nil
				r.tick()
				t.Reset(r.interval)
			case <-r.quit:
				return
			}
		}
	}()
}

func (r *reporter) tick() {
	snap := r.collector.Tick()
	if r.progress != nil {
		r.progress.draw(time.Now(), snap)
	}
}

// stop ends the internal ticks; the runner's final Tick follows.
func (r *reporter) stop() {
	if r.quit != nil {
		close(r.quit)
		<-r.done
		r.quit = nil
	}
}

// finish writes the raw samples, the report with the chosen exporter and
// the JSON report, and closes the HDR logs.
func (r *reporter) finish(total *measurement.Snapshot, rows []export.Row, start, end time.Time, ops int64) error {
	var errs []error
	if r.mcfg.HasRaw() {
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
	}
	if r.hdr != nil {
		if err := r.hdr.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	var jsonDoc []byte
	if r.wantJSON {
		rep, err := r.build(total, rows, start, end, ops)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := report.Write(&buf, rep); err != nil {
			return err
		}
		jsonDoc = buf.Bytes()
	}
	var err error
	if r.s.exporter == JSONReportExporter {
		err = writeOut(r.o.Stdout, "exportfile", r.s.exportFile, func(w io.Writer) error {
			_, err := w.Write(jsonDoc)
			return err
		})
	} else {
		err = writeReport(r.o.Stdout, r.s, rows)
	}
	if err != nil {
		errs = append(errs, err)
		if r.s.exportFile != "" {
			// The run's figures must not be lost with the file.
			fmt.Fprintf(r.o.Stderr, "%v: the report follows on stdout\n", err)
			exportRows(r.o.Stdout, "text", rows)
		}
	}
	if r.jsonPath != "" {
		if err := writeOut(nil, "report.json", r.jsonPath, func(w io.Writer) error {
			_, err := w.Write(jsonDoc)
			return err
		}); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// build assembles the JSON report.
func (r *reporter) build(total *measurement.Snapshot, rows []export.Row, start, end time.Time, ops int64) (*report.Report, error) {
	rep := &report.Report{
		Format:          report.Format,
		Version:         report.Version,
		Tool:            toolName,
		Binding:         r.o.Binding,
		Phase:           map[bool]string{false: "load", true: "run"}[r.s.transactions],
		MeasurementType: r.mcfg.Type,
		Percentiles:     r.mcfg.Percentiles,
		Settings:        report.MaskSettings(r.o.Props.Map()),
		Clients:         1,
		Start:           start.UTC(),
		End:             end.UTC(),
		RunTimeMs:       end.Sub(start).Milliseconds(),
		WarmupMs:        r.warmupMs,
		Operations:      ops,
	}
	if d := end.Sub(start).Seconds(); d > 0 {
		rep.Throughput = float64(ops) / d
	}
	r.mu.Lock()
	rep.Intervals = slices.Clone(r.intervals)
	r.mu.Unlock()
	if rep.Intervals == nil {
		rep.Intervals = []report.Interval{}
	}
	for i := range total.Measurements {
		m := &total.Measurements[i]
		st := measurement.StatsOf(m.Hist)
		jm := report.Measurement{
			Name:      m.Name,
			Operation: m.Op.String(),
			Intended:  m.Intended,
			Count:     st.Count,
			MeanUs:    st.Mean,
			MinUs:     st.Min,
			MaxUs:     st.Max,
		}
		if st.Count > 0 {
			jm.Percentiles = map[string]int64{}
			for _, p := range []float64{50, 90, 95, 99, 99.9, 99.99, 100} {
				jm.Percentiles[report.PercentileKey(p)] = st.Percentile(p)
			}
			for _, p := range r.mcfg.Percentiles {
				jm.Percentiles[report.PercentileKey(p)] = st.Percentile(p)
			}
			enc, err := report.EncodeHistogram(m.Hist)
			if err != nil {
				return nil, fmt.Errorf("report: encode %s: %w", m.Name, err)
			}
			jm.Histogram = enc
		}
		for _, rc := range m.Returns {
			jm.Returns = append(jm.Returns, report.Return{Status: rc.Status.String(), Count: rc.Count})
		}
		rep.Measurements = append(rep.Measurements, jm)
	}
	var sched report.Schedule
	for _, row := range rows {
		v := row.Value.F
		if !row.Value.Float {
			v = float64(row.Value.I)
		}
		rep.Sections = append(rep.Sections, row)
		if row.Metric == "SCHEDULE" {
			rep.Schedule = &sched
			switch row.Name {
			case "Target(ops/sec)":
				sched.TargetOpsSec = int64(v)
			case "MeanLag(us)":
				sched.MeanLagUs = v
			case "MaxLag(us)":
				sched.MaxLagUs = int64(v)
			case "FinalLag(us)":
				sched.FinalLagUs = int64(v)
			}
		}
	}
	return rep, nil
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
