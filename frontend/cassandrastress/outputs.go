package stress

import (
	"fmt"
	"os"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/oserr"
	"github.com/goycsb/ycsb/internal/outfile"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/report/block"
	"github.com/goycsb/ycsb/report/json"
	"github.com/goycsb/ycsb/run"
)

// runOutputs are the files one measured run writes besides its lines:
// -log json= (or, for -graph alone, a temporary report), -log hdrfile= and
// -graph file=, the predefined commands' and user's alike.
type runOutputs struct {
	r        *stressRun
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
	// stats, when set, are the client's counters for the JSON report's
	// sections ([CASSANDRA] SpeculativeRequests, SpeculativeWins)
	stats func() []db.Stat
}

// openOutputs opens the run's JSON report and creates the -log hdrfile=
// log. Each run opens the log anew, as the original's StressMetrics does:
// after a ramp it holds the last thread count's run. A warm-up writes none
// of them. The caller releases what it returns.
func (r *stressRun) openOutputs(threads int, warmup bool) (*runOutputs, error) {
	o := &runOutputs{r: r, threads: threads}
	s := r.s
	if warmup {
		return o, nil
	}
	o.jsonPath = s.Log.JSONFile
	if o.jsonPath == "-" || s.Graph.File != "" && o.jsonPath == "" {
		// -graph draws the run's JSON report, and json=- prints it at
		// the end: a temporary one.
		f, err := os.CreateTemp("", "ycsb-stress-*.json")
		if err != nil {
			return nil, fmt.Errorf("%s: %v", o.reportOpt(), err)
		}
		f.Close()
		o.block = o.jsonPath == "-"
		o.jsonPath, o.temp = f.Name(), true
	}
	if s.Graph.File != "" && !o.temp && outfile.WrittenThrough(o.jsonPath) {
		f, err := os.CreateTemp("", "ycsb-stress-*.json")
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.Option("-graph", "file=", s.Graph.File), err)
		}
		f.Close()
		o.graphCopy = f.Name()
	}
	if o.jsonPath != "" {
		o.json = report.NewIntervals(0)
	}
	if s.Log.HDRFile != "" {
		now := time.Now().UnixMilli()
		hdr, err := measurement.CreateTaggedHdrLog(s.Log.HDRFile, hdrComment, now-now%1000)
		if err != nil {
			o.release()
			return nil, fmt.Errorf("%s: %v", s.Option("-log", "hdrfile=", s.Log.HDRFile), oserr.Reason(err))
		}
		o.hdr = hdr
	}
	return o, nil
}

// checkOutputs refuses, before anything is connected or created, an
// output the run could not write at its end, by outfile's rule: -log
// file=, hdrfile= and json= and -graph file= in a directory that does not
// exist or cannot be written, naming a directory or a socket, or a file
// that cannot be written; two of them naming the same file; and a -graph
// file= that exists and is not a page of -graph, which is not overwritten.
// A device, a FIFO or a descriptor (/dev/null, /dev/stdout) may be named
// by more than one: what is written there is not replaced.
func (r *stressRun) checkOutputs() error {
	s := r.s
	type output struct {
		group, name, path string
		whole             bool // replaced whole at the end (a report, a page), not written as it goes (a log)
	}
	var outs []outfile.Output
	for _, o := range []output{{"-log", "file=", s.Log.File, false}, {"-log", "hdrfile=", s.Log.HDRFile, false},
		{"-log", "json=", s.Log.JSONFile, true}, {"-graph", "file=", s.Graph.File, true}} {
		if o.path == "" || o.path == "-" && o.name == "json=" {
			continue
		}
		opt := s.Option(o.group, o.name, o.path)
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
	if s.Graph.File != "" {
		if _, _, err := r.readGraph(); err != nil {
			return err
		}
	}
	return nil
}

// outputs are the engine outputs of the files: the JSON report's
// intervals.
func (o *runOutputs) outputs() []run.Output {
	if o.json == nil {
		return nil
	}
	return []run.Output{o.json}
}

// writeReport writes the JSON report of the run of plan, whose result is
// res, around summarise, which prints the Results block.
// in marks a run a signal interrupted (report.Interruption).
func (o *runOutputs) writeReport(plan *run.Plan, res *run.Result, j *slo.Judgement, in *jsonreport.Interrupted, summarise func()) error {
	if o.json == nil {
		summarise()
		return nil
	}
	run := &report.Run{Binding: "cassandra-stress", Settings: reportSettings(plan, o.jsonPath), Seed: plan.Seed, SLO: j, Terms: clientTerms, Interrupted: in}
	var stats []db.Stat
	if o.stats != nil {
		stats = o.stats()
	}
	rows := jsonreport.MarkInterrupted(report.Rows(res, plan.Measurement, stats), in)
	if j != nil {
		rows = append(rows, j.Rows()...)
		run.Settings["slo"] = o.r.s.SLO.Text
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
			return fmt.Errorf("%s: %v", o.r.s.Option("-graph", "file=", o.r.s.Graph.File), err)
		}
	}
	return nil
}

// waits says whether the run logs wait times (-log hdrfile= under a rate):
// the workload then records them, as the engine does not.
func (o *runOutputs) waits() bool { return o.hdr != nil && o.r.s.Rate.OpsPerSecond > 0 }

// reportOpt is the option the run's report is written for, as typed.
func (o *runOutputs) reportOpt() string {
	s := o.r.s
	if f := s.Log.JSONFile; f != "" {
		return s.Option("-log", "json=", f)
	}
	return s.Option("-graph", "file=", s.Graph.File)
}

// done closes the log after the run, whose error is err, and, when the run
// wrote its report, for json=-, writes it to the output as the block
// ycsb merge finds in a log (as the runner's report.json=- does).
func (o *runOutputs) done(err error) error {
	if o.hdr != nil {
		if cerr := o.hdr.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("%s: %v", o.r.s.Option("-log", "hdrfile=", o.r.s.Log.HDRFile), oserr.Reason(cerr))
		}
		o.hdr = nil
	}
	if err != nil || o.jsonPath == "" {
		return err
	}
	if o.block {
		b, err := os.ReadFile(o.jsonPath)
		if err == nil {
			err = reportblock.Write(o.r.out, b)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", o.reportOpt(), err)
		}
	}
	return nil
}

// graph draws -graph file= from the run's report, after a run that did
// not fail. Each thread count of a ramp is a revision of its own, named as
// the original's StressGraph names it.
func (o *runOutputs) graph() error {
	g := o.r.s.Graph
	if g.File == "" || o.jsonPath == "" {
		return nil
	}
	revision := g.Revision
	if o.r.s.Rate.Ramp() {
		revision = fmt.Sprintf("%s - %d threads", revision, o.threads)
	}
	report := o.jsonPath
	if o.graphCopy != "" {
		report = o.graphCopy
	}
	return o.r.writeGraph(report, revision)
}

// release removes the temporary report.
func (o *runOutputs) release() {
	if o.temp {
		os.Remove(o.jsonPath)
	}
	if o.graphCopy != "" {
		os.Remove(o.graphCopy)
	}
}
