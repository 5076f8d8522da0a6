package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goycsb/ycsb/internal/infile"
	"github.com/goycsb/ycsb/internal/outfile"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/gate"
	"github.com/goycsb/ycsb/report/htmlreport"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/merge"
	"github.com/goycsb/ycsb/workload"
)

const mergeUsage = "ycsb merge [-o merged.json] [-html merged.html] [-exporter text|json|jsonarray] [-slo objectives] [-allow-interrupted] <report.json|log|- ...> | <log.hdr ...>"

// runMerge is ycsb merge: the combined report goes to stdout in the chosen
// exporter's format and, with -o, as a JSON report to a file.
func runMerge(ctx context.Context, env *Env, args []string) error {
	out, html, exporter, objectives := "", "", "text", ""
	allowInterrupted := false
	files, opts, err := toolArgs(args, mergeUsage, map[string]*string{"o": &out, "html": &html, "exporter": &exporter, "slo": &objectives},
		map[string]*bool{"allow-interrupted": &allowInterrupted})
	if err != nil {
		return err
	}
	if opts.given("slo") {
		if _, err := slo.Parse(objectives); err != nil {
			return usagef("%s: %v", opts.name("slo"), err)
		}
	}
	if len(files) == 0 {
		return usagef("nothing to merge (usage: %s)", mergeUsage)
	}
	if _, err := export.New(exporter, &bytes.Buffer{}); err != nil {
		return usagef("-exporter: unknown exporter %q (text, json or jsonarray)", exporter)
	}
	hdr, err := hdrLogs(files, opts, html)
	if err != nil {
		return err
	}
	if err := checkOutputs(opts, map[string]string{"o": out, "html": html}); err != nil {
		return err
	}
	var merged *jsonreport.Report
	var names []string
	var reps []*jsonreport.Report
	if hdr {
		if merged, err = mergeHdrLogs(ctx, files); err != nil {
			return err
		}
	} else if merged, names, reps, err = mergeReports(ctx, env, files, allowInterrupted, objectives); err != nil {
		return err
	}

	var judgement *slo.Judgement
	if merged.Capacity == nil {
		if judgement, err = judgeFleet(objectives, merged, reps); err != nil {
			return err
		}
	}
	var text bytes.Buffer
	if err := export.WriteAll(&text, exporter, merged.Sections); err != nil {
		return err
	}
	if out != "" {
		var doc bytes.Buffer
		if err := jsonreport.Write(&doc, merged); err != nil {
			return err
		}
		if err := outfile.WriteBytes(out, doc.Bytes()); err != nil {
			return fmt.Errorf("%s %s: %w", opts.name("o"), out, err)
		}
	}
	if html != "" {
		if err := writeMergedHTML(opts.name("html"), html, merged, names, reps); err != nil {
			return err
		}
	}
	for _, w := range merge.Warnings(names, reps) {
		fmt.Fprintf(env.Stderr, "ycsb merge: warning: %s\n", w)
	}
	if in := merged.Interrupted; in != nil {
		fmt.Fprintf(env.Stderr, "ycsb merge: warning: %s: the merged report is marked interrupted\n", in)
	}
	if _, err = env.Stdout.Write(text.Bytes()); err != nil {
		return err
	}
	if v := (*workload.Validation)(merged.Validation); v != nil && v.Err() != nil {
		return v.Err()
	}
	if judgement != nil {
		return judgement.Err()
	}
	if c := merged.Capacity; c != nil && c.MaxOpsSec == 0 {
		return &slo.Unmet{Msg: "capacity: no step of the fleet's ladder met the objectives"}
	}
	return nil
}

// hdrLogs says whether merge's files are HdrHistogram logs (.hdr, .hlog)
// rather than JSON reports, and refuses a mix, and the options logs cannot
// serve.
func hdrLogs(files []string, opts toolOpts, html string) (bool, error) {
	hdr := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".hdr") || strings.HasSuffix(f, ".hlog") {
			hdr++
		}
	}
	if html != "" && hdr > 0 {
		return false, usagef("%s needs JSON reports: HdrHistogram logs have no intervals to draw", opts.name("html"))
	}
	if opts.given("slo") && hdr > 0 {
		// The logs hold latencies only: throughput and error rate
		// objectives would be judged on zeros, and which latency (service
		// or intended) the objectives read is in the reports (judgeFleet).
		return false, usagef("%s needs JSON reports: HdrHistogram logs have no operation, failure or time counts, nor say which latency (service or intended) to judge", opts.name("slo"))
	}
	if hdr != 0 && hdr != len(files) {
		return false, usagef("give either JSON reports or .hdr logs, not both")
	}
	return hdr > 0, nil
}

// mergeHdrLogs reads and merges HdrHistogram logs.
func mergeHdrLogs(ctx context.Context, files []string) (*jsonreport.Report, error) {
	logs, err := readAll(ctx, files, merge.ReadHdrLog)
	if err != nil {
		return nil, err
	}
	m, err := merge.MergeHdrLogs(files, logs, measurement.DefaultPercentiles)
	if err != nil {
		return nil, inputError(err)
	}
	return m, nil
}

// mergeReports reads and merges JSON reports (or the logs holding them):
// the merged report, and the names and reports merged.
func mergeReports(ctx context.Context, env *Env, files []string, allowInterrupted bool, objectives string) (*jsonreport.Report, []string, []*jsonreport.Report, error) {
	names, reps, err := readReports(ctx, env, files)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := merge.Distinct(names, reps); err != nil {
		return nil, nil, nil, inputError(err)
	}
	if !allowInterrupted {
		if err := merge.MixedInterrupted(names, reps); err != nil {
			return nil, nil, nil, inputError(err)
		}
	}
	combine := merge.Merge
	if merge.IsCapacity(reps) {
		combine = func(names []string, reps []*jsonreport.Report) (*jsonreport.Report, error) {
			return merge.MergeCapacity(names, reps, objectives)
		}
	}
	m, err := combine(names, reps)
	if err != nil {
		return nil, nil, nil, inputError(err)
	}
	return m, names, reps, nil
}

// judgeFleet judges the merged report against the objectives given (-slo)
// or those its clients ran with, and adds the [SLO] rows and the JSON
// report's slo to it; nil without objectives.
func judgeFleet(given string, merged *jsonreport.Report, reps []*jsonreport.Report) (*slo.Judgement, error) {
	objs, err := merge.FleetObjectives(given, reps)
	if err != nil {
		return nil, inputError(err)
	}
	if objs == nil {
		return nil, nil
	}
	j, err := merge.JudgeMerged(objs, merged, reps)
	if err != nil {
		return nil, inputError(err)
	}
	merged.SLO = j.JSON()
	merged.Sections = append(merged.Sections, j.Rows()...)
	if given == "" {
		given = reps[0].Settings["slo"]
	}
	merged.Settings["slo"] = given
	return j, nil
}

// readReports reads the JSON reports or logs with report blocks in files;
// "-" is stdin (kubectl logs ... | ycsb merge -). Each is read whole, at
// most infile.MaxReport bytes, until ctx ends.
func readReports(ctx context.Context, env *Env, files []string) (names []string, reps []*jsonreport.Report, err error) {
	if slices.Index(files, "-") >= 0 && slices.Index(files[slices.Index(files, "-")+1:], "-") >= 0 {
		return nil, nil, usagef("- (stdin) given twice")
	}
	for _, f := range files {
		var data []byte
		if f == "-" {
			data, err = infile.ReadFrom(ctx, env.Stdin, "stdin", infile.MaxReport)
		} else {
			data, err = infile.Read(ctx, f, infile.MaxReport)
		}
		if err != nil {
			return nil, nil, inputError(err)
		}
		named, err := merge.ReadReports(f, data)
		if err != nil {
			return nil, nil, inputError(err)
		}
		for _, n := range named {
			names = append(names, n.Name)
			reps = append(reps, n.Report)
		}
	}
	return names, reps, nil
}

// writeMergedHTML draws the merged run as the HTML report: the total and
// one line per client, on the merged run's time axis.
func writeMergedHTML(opt, path string, merged *jsonreport.Report, names []string, reps []*jsonreport.Report) error {
	inputs := []htmlreport.Input{{Name: fmt.Sprintf("total (%d clients)", merged.Clients), Report: merged}}
	if merged.Capacity != nil {
		// The fleet's ladder, judged: the clients' shares have no answer
		// to draw.
		title := fmt.Sprintf("YCSB: %s capacity of a fleet of %d clients", merged.Binding, merged.Clients)
		_, err := writePage(opt, path, title, inputs)
		return err
	}
	// On the clock the merge used: a rendezvous's clients on the first's.
	reps = merge.OnRendezvousClock(reps)
	for i, n := range merge.ClientNames(names, reps) {
		inputs = append(inputs, htmlreport.Input{Name: n, Report: merge.Aligned(reps[i], merged.Start)})
	}
	title := fmt.Sprintf("YCSB: %s %s, %d clients merged", merged.Binding, merged.Phase, merged.Clients)
	_, err := writePage(opt, path, title, inputs)
	return err
}

const compareUsage = "ycsb compare [-gate \"READ.p99:+10%, throughput:-5%\"] <a.json> <b.json>"

// runCompare is ycsb compare: A and B side by side and, with -gate, the
// regression gates judged (exit code 3 when one fails, else 4 when one
// could not be judged).
func runCompare(ctx context.Context, env *Env, args []string) error {
	gateText := ""
	files, opts, err := toolArgs(args, compareUsage, map[string]*string{"gate": &gateText}, nil)
	if err != nil {
		return err
	}
	var gates []gate.Gate
	if opts.given("gate") {
		if gates, err = gate.ParseGates(gateText); err != nil {
			return usagef("%s: %v", opts.name("gate"), err)
		}
	}
	if len(files) != 2 || slices.Contains(files, "-") {
		return usagef("compare needs two JSON reports (usage: %s)", compareUsage)
	}
	a, err := merge.ReadReportContext(ctx, files[0])
	if err != nil {
		return inputError(err)
	}
	b, err := merge.ReadReportContext(ctx, files[1])
	if err != nil {
		return inputError(err)
	}
	if err := gate.CheckGates(gates, files[0], files[1], a, b); err != nil {
		return usagef("%s: %v", opts.name("gate"), err)
	}
	if err := merge.Compare(env.Stdout, files[0], files[1], a, b); err != nil {
		return err
	}
	if len(gates) == 0 {
		return nil
	}
	return gate.WriteGates(env.Stdout, gate.JudgeGates(gates, a, b))
}

// inputError makes a bad input file exit with code 2; an input whose wait
// was interrupted (Ctrl-C) stays an interruption, which exits with 130.
func inputError(err error) error {
	var in *infile.Interrupted
	if errors.As(err, &in) {
		return err
	}
	return &UsageError{Msg: err.Error()}
}

// toolArgs parses the options of merge, report and compare: each name in
// values takes the next argument, each name in switches stands alone,
// either with one or two dashes; every other argument is a file. A value
// option given twice is refused, never one of its values dropped.
func toolArgs(args []string, usage string, values map[string]*string, switches map[string]*bool) (files []string, opts toolOpts, err error) {
	opts = toolOpts{typed: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" { // "-" is stdin
			files = append(files, a)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if v, ok := values[name]; ok {
			if first, ok := opts.typed[name]; ok {
				if first != a {
					return nil, toolOpts{}, usagef("option %s given twice (first as %s): give it once (usage: %s)", a, first, usage)
				}
				return nil, toolOpts{}, usagef("option %s given twice: give it once (usage: %s)", a, usage)
			}
			if i+1 >= len(args) {
				return nil, toolOpts{}, usagef("option %s needs a value (usage: %s)", a, usage)
			}
			i++
			*v = args[i]
			opts.typed[name] = a
			continue
		}
		if b, ok := switches[name]; ok {
			*b = true
			opts.typed[name] = a
			continue
		}
		return nil, toolOpts{}, usagef("unknown option %s (usage: %s)", a, usage)
	}
	return files, opts, nil
}

// toolOpts are the options toolArgs was given, each as the user typed it
// ("-o", "--html"), for error messages.
type toolOpts struct{ typed map[string]string }

// given says whether the option was on the command line.
func (o toolOpts) given(name string) bool {
	_, ok := o.typed[name]
	return ok
}

// name is the option as the user typed it, or -name when it was not given
// (an error about its default value names it so).
func (o toolOpts) name(name string) string {
	if t, ok := o.typed[name]; ok {
		return t
	}
	return "-" + name
}

// checkOutputs refuses, before any input is read, an output file (by
// option name, "" for none) that cannot be written by outfile's rule: its
// directory is missing or takes no new file, or it is a directory or a
// socket; and two that name one file (outfile.Distinct). The error names the option as typed: "-html
// /nonexistent/x.html: directory /nonexistent does not exist".
func checkOutputs(opts toolOpts, outputs map[string]string) error {
	names := slices.Sorted(maps.Keys(outputs))
	var outs []outfile.Output
	for _, name := range names {
		path := outputs[name]
		if path == "" {
			continue
		}
		if err := outfile.Check(path); err != nil {
			return usagef("%s %s: %v", opts.name(name), path, err)
		}
		outs = append(outs, outfile.Output{Name: opts.name(name) + " " + path, Path: path})
	}
	return outfile.Distinct(outs)
}

// readAll reads every file with read; the first that fails is the input
// error.
func readAll[T any](ctx context.Context, files []string, read func(context.Context, string) (T, error)) ([]T, error) {
	out := make([]T, len(files))
	for i, f := range files {
		v, err := read(ctx, f)
		if err != nil {
			return nil, inputError(err)
		}
		out[i] = v
	}
	return out, nil
}
