package ycsb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/oserr"
	"github.com/goycsb/ycsb/internal/outfile"
	"github.com/goycsb/ycsb/internal/stopsignal"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/reportblock"
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/workload"
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

	jsonPath string            // report.json: a JSON report written besides the chosen exporter
	json     *report.Intervals // the JSON report's intervals; nil when no JSON report is written
	rawOut   *os.File
	seed     uint64         // the base of the workers' seeds, for the JSON report
	slo      *slo.Judgement // the objectives' verdict, if the run has objectives
	// validation is the closed economy's check after the run; nil for
	// the CoreWorkload and for a load.
	validation *workload.Validation
	// interrupted marks a run a signal stopped before its work was done.
	interrupted *jsonreport.Interrupted
}

// checkWritable finds out before anything is opened, created or wiped
// whether path can be written, by outfile's rule: replaced whole (a report)
// or, when inPlace, opened where it stands (a log, a profile). Nothing at
// path is opened or changed.
func checkWritable(prop, path string, inPlace bool) error {
	check := outfile.Check
	if inPlace {
		check = outfile.CheckInPlace
	}
	if err := check(path); err != nil {
		return props.Errorf(prop, "%v", err)
	}
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
	if err := distinctOutputs(s, mcfg, r.jsonPath); err != nil {
		return nil, err
	}
	if r.jsonPath != "" || s.exporter == JSONReportExporter {
		r.json = report.NewIntervals(s.warmup)
		outs.add(r.json)
	}
	return r, nil
}

// distinctOutputs refuses two of the run's output files naming one file
// (outfile.Distinct): the last writer would keep only its own.
func distinctOutputs(s *settings, mcfg *measurement.Config, jsonPath string) error {
	named := func(prop, path string) outfile.Output { return outfile.Output{Name: prop + "=" + path, Path: path} }
	outs := []outfile.Output{named("exportfile", s.exportFile)}
	if jsonPath != "-" {
		outs = append(outs, named("report.json", jsonPath))
	}
	outs = append(outs, named("cpuprofile", s.cpuProfile))
	if mcfg.HasRaw() {
		outs = append(outs, named("measurement.raw.output_file", mcfg.RawOutputFile))
	}
	if mcfg.HdrFileOutput {
		outs = append(outs, outfile.Output{Name: "hdrhistogram.output.path=" + mcfg.HdrOutputPath, Path: mcfg.HdrOutputPath, Suffix: ".hdr"})
	}
	return outfile.Distinct(outs)
}

// create creates the output files written during the run, once the binding
// has opened: until then a failed setup leaves nothing behind.
func (r *reporter) create() error {
	if r.mcfg.HasRaw() && r.mcfg.RawOutputFile != "" {
		f, err := outfile.Append(r.mcfg.RawOutputFile)
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
func (r *reporter) finish(m *run.Result, rows []export.Row, outs *intervalOutputs) error {
	errs := r.writeRaw(m.Total)
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
		if r.rawOut != nil {
			err = fmt.Errorf("cannot write %s: %v", r.mcfg.RawOutputFile, oserr.Reason(err))
		}
		errs = append(errs, fmt.Errorf("measurement.raw.output_file: %w", err))
	}
	if r.rawOut != nil {
		if err := r.rawOut.Close(); err != nil && len(errs) == 0 {
			errs = append(errs, fmt.Errorf("measurement.raw.output_file: cannot write %s: %v", r.mcfg.RawOutputFile, oserr.Reason(err)))
		}
		r.rawOut = nil
	}
	return errs
}

// jsonDocument is the JSON report, for the exporter and report.json.
func (r *reporter) jsonDocument(m *run.Result, rows []export.Row) ([]byte, error) {
	run := &report.Run{Binding: r.o.Binding, Load: !r.s.transactions, Settings: r.o.Props.Map(),
		Seed: r.seed, Clients: r.s.clients, StartTime: r.s.startTime, SLO: r.slo, Validation: r.validation, Interrupted: r.interrupted}
	return report.Document(run, r.mcfg, m, rows, r.json.List())
}

// writeMain writes the report in the exporter's format to exportfile or
// stdout. When the file cannot be written the text report goes to stdout:
// the run's figures must not be lost with the file. The error, which says
// so, is the run's one line about it.
func (r *reporter) writeMain(m *run.Result, rows []export.Row, jsonDoc []byte) error {
	var err error
	switch {
	case r.s.exporter == JSONReportExporter:
		err = writeOut(r.o.Stdout, "exportfile", r.s.exportFile, func(w io.Writer) error {
			_, err := w.Write(jsonDoc)
			return err
		})
	default:
		err = writeReport(r.o.Stdout, r.s, rows)
	}
	if err != nil && r.s.exportFile != "" {
		return exportFailed(r.o.Stdout, rows, err)
	}
	return err
}

// exportFailed prints rows as the text report on stdout after the
// exportfile could not be written (err), and returns the error that says
// so in one line.
func exportFailed(stdout io.Writer, rows []export.Row, err error) error {
	exportRows(stdout, "text", rows)
	return fmt.Errorf("%w; the text report is on stdout", err)
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
// binding. A load that inserted fewer records than it was to fails, and
// so does a run of the closed economy whose invariant broke.
func (b *bench) report(ctx context.Context, m *run.Result) error {
	if st, ok := b.database.(db.Settler); ok {
		if err := st.Settle(ctx); err != nil {
			fmt.Fprintf(b.o.Stderr, "note: %s: settle: %v\n", b.o.Binding, err)
		}
	}
	var stats []db.Stat
	if sr, ok := b.database.(db.StatsReporter); ok {
		stats = sr.Stats()
	}
	s := b.s
	if s.transactions && b.validator != nil {
		b.rep.validation = b.validate(ctx)
	}
	closeErr := b.closeDB()
	b.rep.seed = b.seed
	// A run its time limit ended is complete; one a signal ended before
	// its work was done says so in every report.
	b.rep.interrupted = report.Interruption(m, string(stopsignal.By(ctx)), s.opCount, s.maxExecution)
	rows := jsonreport.MarkInterrupted(report.Rows(m, b.mcfg, stats), b.rep.interrupted)
	if v := b.rep.validation; v != nil {
		rows = append(rows, v.Rows()...)
	}
	if s.objectives != nil {
		j, err := report.Judge(s.objectives, s.sloLatency(b.mcfg), m, s.share())
		if err != nil {
			return err
		}
		b.rep.slo = j
		rows = append(rows, j.Rows()...)
		if b.prom != nil {
			b.prom.SetSLO(j)
		}
	}
	err := b.rep.finish(m, rows, b.outs)
	b.causes.WriteSummary(b.o.Stderr)
	report.WriteClientNote(b.o.Stderr, m, report.YCSBTerms)
	if in := b.rep.interrupted; in != nil {
		fmt.Fprintf(b.o.Stderr, "Run %s: the report covers the work done.\n", in)
	}
	if v := b.rep.validation; v != nil {
		for _, note := range v.Notes() {
			fmt.Fprintln(b.o.Stderr, note)
		}
	}
	if err != nil {
		return err
	}
	if b.rep.interrupted == nil && b.o.Complete != nil {
		*b.o.Complete = true
	}
	// A load its time limit or a signal stopped is complete as far as it
	// knows; not when inserts it cut off may yet be in the table.
	if !s.transactions && s.opCount > 0 && m.Inserted < s.opCount && (!m.Stopped || m.UnknownAll > 0) {
		msg := jsonreport.LoadIncomplete(m.Inserted, m.UnknownAll, s.opCount)
		if first := b.causes.First(); first != "" {
			msg += "; first error: " + first
		}
		return errors.New(msg)
	}
	if v := b.rep.validation; v != nil && v.Err() != nil {
		return v.Err()
	}
	if closeErr != nil {
		return closeErr
	}
	if b.rep.slo != nil {
		return b.rep.slo.Err()
	}
	return nil
}

// interruptedValidation bounds the closed economy's check after Ctrl-C,
// which must still end the run within about 2 s.
const interruptedValidation = 1500 * time.Millisecond

// validate checks the closed economy's invariant once the workers have
// joined, before the binding closes, against the balances counted at the
// start (countStart); after Ctrl-C too, within interruptedValidation,
// since the work done is what the report is about.
func (b *bench) validate(ctx context.Context) *workload.Validation {
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), interruptedValidation)
		defer cancel()
	}
	fmt.Fprintf(b.o.Stderr, "Validating the closed economy: adding up the balances %s.\n", b.countingHow())
	return b.validator.Validate(ctx, b.database, b.economyStart)
}

// countingHow says how the closed economy's balances are added up.
func (b *bench) countingHow() string {
	if b.validator.ValidationMethod(b.database) == workload.ByQuery {
		return "by one query"
	}
	return "by reading every account"
}

// countStart adds up the closed economy's balances before the run's first
// transfer, so that the run is judged on its own change and not on an
// earlier run's (the forks compare with totalcash). It comes before the
// wait for the start, so that in a fleet each client counts before any
// transfers: with client.rendezvous no client starts before every one has
// checked in, which each does after its count; with starttime a count
// that ends after it may hold the others' first transfers, and is marked
// late (settleStart), as is every count of a fleet without a common start.
// Nothing for a load or the CoreWorkload.
func (b *bench) countStart(ctx context.Context) error {
	v := b.validator
	if !b.s.transactions || v == nil {
		return nil
	}
	fmt.Fprintf(b.o.Stderr, "Counting the closed economy's balances before the run, %s.\n", b.countingHow())
	t, err := v.Count(ctx, b.database)
	if err != nil {
		return fmt.Errorf("closed economy: counting the balances before the run: %w", err)
	}
	b.economyStart = &workload.Start{Tally: t}
	b.economyCounted = time.Now()
	return nil
}

// settleStart marks the start's count late, once the start is known: see
// countStart.
func (b *bench) settleStart() {
	st, s := b.economyStart, b.s
	if st == nil || !s.clients.Split() || s.meet.addr != "" {
		return
	}
	st.Late = s.startTime.IsZero() || b.economyCounted.After(s.startTime)
}

// sloLatency is the latency the run's objectives read.
func (s *settings) sloLatency(mcfg *measurement.Config) slo.Latency {
	return report.SLOLatency(s.target, mcfg)
}

// share names this client's place in a fleet, whose objectives ycsb merge
// judges on the merged report; "" for a client on its own.
func (s *settings) share() string {
	if !s.clients.Split() {
		return ""
	}
	return fmt.Sprintf("client %d of %d", s.clients.Index, s.clients.Count)
}

// writeReport renders the rows with the chosen exporter, to stdout or to
// the exportfile.
func writeReport(stdout io.Writer, s *settings, rows []export.Row) error {
	return writeOut(stdout, "exportfile", s.exportFile, func(w io.Writer) error {
		return exportRows(w, s.exporter, rows)
	})
}

// writeOut writes to path, or to stdout when path is empty. A regular file
// is written beside its final name and renamed into place, so a failed run
// never leaves half a report; a device or a FIFO is written through
// (outfile).
func writeOut(stdout io.Writer, prop, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	if err := outfile.Write(path, write); err != nil {
		return fmt.Errorf("%s: %w", prop, err)
	}
	return nil
}

func exportRows(w io.Writer, name string, rows []export.Row) error {
	return export.WriteAll(w, name, rows)
}
