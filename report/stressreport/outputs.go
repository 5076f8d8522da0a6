package stressreport

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/oserr"
	"github.com/goycsb/ycsb/internal/outfile"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/reportblock"
	"github.com/goycsb/ycsb/run"
)

// HdrComment opens the -log hdrfile= log, as in the original.
const HdrComment = "Logging op latencies for Cassandra Stress"

// Files are the files the stress mode writes besides its lines, as its
// command line names them ("" for none).
type Files struct {
	Log, HDR, JSON string // -log file=, hdrfile=, json= ("-": the report to the output, as a block)
	Graph          Graph
	// Option is an option as the user typed it (or would have):
	// Option("-log", "json=", path).
	Option func(group, name, value string) string
}

// Graph is -graph.
type Graph struct {
	File     string // the HTML file; "" when -graph is not given
	Revision string
	Title    string // "" when not given
	Op       string
}

// BadInput is an error of the files the command line names, found
// before anything is connected or created: the front end reports it as
// its bad input.
type BadInput struct{ Err error }

func (e *BadInput) Error() string { return e.Err.Error() }
func (e *BadInput) Unwrap() error { return e.Err }

func bad(format string, args ...any) error { return &BadInput{Err: fmt.Errorf(format, args...)} }

// Outputs are the files one measured run writes besides its lines:
// -log json= (or, for -graph alone, a temporary report), -log hdrfile= and
// -graph file=, the predefined commands' and user's alike.
type Outputs struct {
	f        *Files
	out      io.Writer         // the run's output, where json=- writes its block
	jsonPath string            // the run's JSON report, "" for none
	json     *report.Intervals // its intervals
	temp     bool              // jsonPath is a temporary report: for -graph, or json=-
	block    bool              // json=-: the report goes to the output as a block
	// graphCopy is a temporary copy of the report for -graph to read back
	// when json= is written through (a device, a FIFO, /dev/stdout),
	// which gives nothing back; "" otherwise.
	graphCopy string
	hdr       *measurement.TaggedHdrLog
	threads   int // the run's thread count, which names a ramp's revisions
	// Stats, when set, are the client's counters for the JSON report's
	// sections ([CASSANDRA] SpeculativeRequests, SpeculativeWins)
	Stats func() []db.Stat
}

// Open opens the JSON report of a run on threads workers, whose lines go
// to out, and creates the -log hdrfile= log. Each run opens the log anew,
// as the original's StressMetrics does: after a ramp it holds the last
// thread count's run. A warm-up writes none of them. The caller releases
// what it returns.
func (f *Files) Open(out io.Writer, threads int, warmup bool) (*Outputs, error) {
	o := &Outputs{f: f, out: out, threads: threads}
	if warmup {
		return o, nil
	}
	o.jsonPath = f.JSON
	if o.jsonPath == "-" || f.Graph.File != "" && o.jsonPath == "" {
		// -graph draws the run's JSON report, and json=- prints it at
		// the end: a temporary one.
		tmp, err := tempReport()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", o.reportOpt(), err)
		}
		o.block = o.jsonPath == "-"
		o.jsonPath, o.temp = tmp, true
	}
	if f.Graph.File != "" && !o.temp && outfile.WrittenThrough(o.jsonPath) {
		tmp, err := tempReport()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.Option("-graph", "file=", f.Graph.File), err)
		}
		o.graphCopy = tmp
	}
	if o.jsonPath != "" {
		o.json = report.NewIntervals(0)
	}
	if f.HDR != "" {
		now := time.Now().UnixMilli()
		hdr, err := measurement.CreateTaggedHdrLog(f.HDR, HdrComment, now-now%1000)
		if err != nil {
			o.Release()
			return nil, fmt.Errorf("%s: %v", f.Option("-log", "hdrfile=", f.HDR), oserr.Reason(err))
		}
		o.hdr = hdr
	}
	return o, nil
}

// tempReport creates an empty temporary file for a run's report and
// returns its path.
func tempReport() (string, error) {
	f, err := os.CreateTemp("", "ycsb-stress-*.json")
	if err != nil {
		return "", err
	}
	f.Close()
	return f.Name(), nil
}

// Check refuses, before anything is connected or created, an
// output the run could not write at its end, by outfile's rule: -log
// file=, hdrfile= and json= and -graph file= in a directory that does not
// exist or cannot be written, naming a directory or a socket, or a file
// that cannot be written; two of them naming the same file; and a -graph
// file= that exists and is not a page of -graph, which is not overwritten.
// A device, a FIFO or a descriptor (/dev/null, /dev/stdout) may be named
// by more than one: what is written there is not replaced.
func (f *Files) Check(ctx context.Context) error {
	type output struct {
		group, name, path string
		whole             bool // replaced whole at the end (a report, a page), not written as it goes (a log)
	}
	var outs []outfile.Output
	for _, o := range []output{{"-log", "file=", f.Log, false}, {"-log", "hdrfile=", f.HDR, false},
		{"-log", "json=", f.JSON, true}, {"-graph", "file=", f.Graph.File, true}} {
		if o.path == "" || o.path == "-" && o.name == "json=" {
			continue
		}
		opt := f.Option(o.group, o.name, o.path)
		check := outfile.CheckInPlace
		if o.whole {
			check = outfile.Check
		}
		if err := check(o.path); err != nil {
			return bad("%s: %v", opt, err)
		}
		outs = append(outs, outfile.Output{Name: opt, Path: o.path})
	}
	if err := outfile.Distinct(outs); err != nil {
		return bad("%v", err)
	}
	if f.Graph.File != "" {
		if _, _, err := f.readGraph(ctx); err != nil {
			return err
		}
	}
	return nil
}

// EngineOutputs are the engine outputs of the files: the JSON report's
// intervals.
func (o *Outputs) EngineOutputs() []run.Output {
	if o.json == nil {
		return nil
	}
	return []run.Output{o.json}
}

// WriteReport writes the JSON report of the run of plan, whose result is
// res, around summarise, which prints the Results block. j is the run's
// -slo verdict (nil: none), given as sloText; in marks a run a signal
// interrupted (report.Interruption).
func (o *Outputs) WriteReport(plan *run.Plan, res *run.Result, j *slo.Judgement, sloText string, in *jsonreport.Interrupted, summarise func()) error {
	if o.json == nil {
		summarise()
		return nil
	}
	run := &report.Run{Binding: "cassandra-stress", Settings: Settings(plan, o.jsonPath), Seed: plan.Seed, SLO: j, Terms: ClientTerms, Interrupted: in}
	var stats []db.Stat
	if o.Stats != nil {
		stats = o.Stats()
	}
	rows := jsonreport.MarkInterrupted(report.Rows(res, plan.Measurement, stats), in)
	if j != nil {
		rows = append(rows, j.Rows()...)
		run.Settings["slo"] = sloText
	}
	doc, err := report.Document(run, plan.Measurement, res, rows, o.json.List())
	if err != nil {
		return err
	}
	summarise()
	if err := outfile.WriteBytes(o.jsonPath, doc); err != nil {
		return fmt.Errorf("%s: %v", o.reportOpt(), err)
	}
	if o.graphCopy != "" {
		if err := os.WriteFile(o.graphCopy, doc, 0o600); err != nil {
			return fmt.Errorf("%s: %v", o.f.Option("-graph", "file=", o.f.Graph.File), err)
		}
	}
	return nil
}

// HDR is the run's -log hdrfile= log, nil for none.
func (o *Outputs) HDR() *measurement.TaggedHdrLog { return o.hdr }

// reportOpt is the option the run's report is written for, as typed.
func (o *Outputs) reportOpt() string {
	if p := o.f.JSON; p != "" {
		return o.f.Option("-log", "json=", p)
	}
	return o.f.Option("-graph", "file=", o.f.Graph.File)
}

// Done closes the log after the run, whose error is err, and, when the run
// wrote its report, for json=-, writes it to the output as the block
// ycsb merge finds in a log (as the YCSB front end's report.json=- does).
func (o *Outputs) Done(err error) error {
	if o.hdr != nil {
		if cerr := o.hdr.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("%s: %v", o.f.Option("-log", "hdrfile=", o.f.HDR), oserr.Reason(cerr))
		}
		o.hdr = nil
	}
	if err != nil || o.jsonPath == "" {
		return err
	}
	if o.block {
		b, err := os.ReadFile(o.jsonPath)
		if err == nil {
			err = reportblock.Write(o.out, b)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", o.reportOpt(), err)
		}
	}
	return nil
}

// Graph draws -graph file= from the run's report, after a run that did
// not fail. Each thread count of a ramp is a revision of its own, named as
// the original's StressGraph names it.
func (o *Outputs) Graph(ctx context.Context, ramp bool) error {
	g := o.f.Graph
	if g.File == "" || o.jsonPath == "" {
		return nil
	}
	revision := g.Revision
	if ramp {
		revision = fmt.Sprintf("%s - %d threads", revision, o.threads)
	}
	report := o.jsonPath
	if o.graphCopy != "" {
		report = o.graphCopy
	}
	return o.f.writeGraph(ctx, report, revision)
}

// Release removes the temporary report.
func (o *Outputs) Release() {
	if o.temp {
		os.Remove(o.jsonPath)
	}
	if o.graphCopy != "" {
		os.Remove(o.graphCopy)
	}
}

// Settings are the settings the JSON report of a run of plan
// records, under the YCSB names earlier reports of the stress mode have
// (ycsb merge compares measurement.interval); jsonPath is the report's.
func Settings(plan *run.Plan, jsonPath string) map[string]string {
	m := map[string]string{
		"threadcount":      strconv.Itoa(plan.Threads),
		"measurement.type": string(measurement.HdrHistogram),
		"progress":         "false",
		"report.interval":  strconv.FormatFloat(plan.Interval.Seconds(), 'f', -1, 64),
		"report.json":      jsonPath,
	}
	if plan.OpCount > 0 {
		m["operationcount"] = strconv.FormatInt(plan.OpCount, 10)
	}
	var tracked []string
	for st, on := range plan.Measurement.Tracked {
		if on {
			tracked = append(tracked, db.Status(st).String())
		}
	}
	if tracked != nil {
		m["latencytrackederrors"] = strings.Join(tracked, ",")
	}
	if plan.Target > 0 {
		m["target"] = strconv.FormatInt(plan.Target, 10)
		m["measurement.interval"] = "both"
	}
	return m
}
