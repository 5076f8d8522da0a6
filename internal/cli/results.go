package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/atomicfile"
	"github.com/goycsb/ycsb/internal/htmlreport"
	"github.com/goycsb/ycsb/internal/results"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/jsonreport"
)

const mergeUsage = "ycsb merge [-o merged.json] [-html merged.html] [-exporter text|json|jsonarray] <report.json|log|- ...> | <log.hdr ...>"

// runMerge is ycsb merge: the combined report goes to stdout in the chosen
// exporter's format and, with -o, as a JSON report to a file.
func runMerge(ctx context.Context, env *Env, args []string) error {
	out, html, exporter := "", "", "text"
	files, err := toolArgs(args, mergeUsage, map[string]*string{"o": &out, "html": &html, "exporter": &exporter}, nil)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("nothing to merge (usage: %s)", mergeUsage)
	}
	if _, err := export.New(exporter, &bytes.Buffer{}); err != nil {
		return usagef("-exporter: unknown exporter %q (text, json or jsonarray)", exporter)
	}
	for _, o := range []string{out, html} {
		if o != "" {
			if err := checkOutDir(o); err != nil {
				return err
			}
		}
	}
	hdr := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".hdr") || strings.HasSuffix(f, ".hlog") {
			hdr++
		}
	}
	if html != "" && hdr > 0 {
		return usagef("-html needs JSON reports: HdrHistogram logs have no intervals to draw")
	}
	var merged *jsonreport.Report
	var names []string
	var reps []*jsonreport.Report
	switch {
	case hdr == len(files):
		logs, err := readAll(files, results.ReadHdrLog)
		if err != nil {
			return err
		}
		m, err := results.MergeHdrLogs(files, logs, measurement.DefaultPercentiles)
		if err != nil {
			return inputError(err)
		}
		merged = m
	case hdr == 0:
		if names, reps, err = readReports(env, files); err != nil {
			return err
		}
		if err := results.Distinct(names, reps); err != nil {
			return inputError(err)
		}
		m, err := results.Merge(names, reps)
		if err != nil {
			return inputError(err)
		}
		merged = m
	default:
		return usagef("give either JSON reports or .hdr logs, not both")
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
		if err := writeFileAtomic(out, doc.Bytes()); err != nil {
			return fmt.Errorf("-o: %w", err)
		}
	}
	if html != "" {
		if err := writeMergedHTML(html, merged, names, reps); err != nil {
			return err
		}
	}
	for _, w := range results.Warnings(names, reps) {
		fmt.Fprintf(env.Stderr, "ycsb merge: warning: %s\n", w)
	}
	_, err = env.Stdout.Write(text.Bytes())
	return err
}

// readReports reads the JSON reports or logs with report blocks in files;
// "-" is stdin (kubectl logs ... | ycsb merge -).
func readReports(env *Env, files []string) (names []string, reps []*jsonreport.Report, err error) {
	if slices.Index(files, "-") >= 0 && slices.Index(files[slices.Index(files, "-")+1:], "-") >= 0 {
		return nil, nil, usagef("- (stdin) given twice")
	}
	for _, f := range files {
		var data []byte
		if f == "-" {
			if data, err = io.ReadAll(env.Stdin); err != nil {
				return nil, nil, fmt.Errorf("stdin: %w", err)
			}
		} else if data, err = os.ReadFile(f); err != nil {
			return nil, nil, inputError(&results.InputError{Path: f, Err: errors.Unwrap(err)})
		}
		named, err := results.ReadReports(f, data)
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
func writeMergedHTML(path string, merged *jsonreport.Report, names []string, reps []*jsonreport.Report) error {
	inputs := []htmlreport.Input{{Name: fmt.Sprintf("total (%d clients)", merged.Clients), Report: merged}}
	for i, n := range results.ClientNames(names, reps) {
		inputs = append(inputs, htmlreport.Input{Name: n, Report: results.Aligned(reps[i], merged.Start)})
	}
	title := fmt.Sprintf("YCSB: %s %s, %d clients merged", merged.Binding, merged.Phase, merged.Clients)
	d, err := htmlreport.Build(title, inputs, time.Now())
	if err != nil {
		return inputError(err)
	}
	var buf bytes.Buffer
	if err := htmlreport.Write(&buf, d); err != nil {
		return err
	}
	if err := writeFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	os.Chmod(path, 0o644) // a page to share, as ycsb report writes it
	return nil
}

const compareUsage = "ycsb compare <a.json> <b.json>"

func runCompare(ctx context.Context, env *Env, args []string) error {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return usagef("unknown option %s (usage: %s)", a, compareUsage)
		}
	}
	if len(args) != 2 {
		return usagef("compare needs two JSON reports (usage: %s)", compareUsage)
	}
	a, err := results.ReadReport(args[0])
	if err != nil {
		return inputError(err)
	}
	b, err := results.ReadReport(args[1])
	if err != nil {
		return inputError(err)
	}
	return results.Compare(env.Stdout, args[0], args[1], a, b)
}

// inputError makes a bad input file exit with code 2.
func inputError(err error) error { return &UsageError{Msg: err.Error()} }

// toolArgs parses the options of merge and report: each name in values
// takes the next argument, each name in switches stands alone, either with
// one or two dashes; every other argument is a file.
func toolArgs(args []string, usage string, values map[string]*string, switches map[string]*bool) (files []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" { // "-" is stdin
			files = append(files, a)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if v, ok := values[name]; ok {
			if i+1 >= len(args) {
				return nil, usagef("option %s needs a value (usage: %s)", a, usage)
			}
			i++
			*v = args[i]
			continue
		}
		if b, ok := switches[name]; ok {
			*b = true
			continue
		}
		return nil, usagef("unknown option %s (usage: %s)", a, usage)
	}
	return files, nil
}

// checkOutDir refuses an output file in a directory that does not exist,
// before any work is done.
func checkOutDir(path string) error {
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return usagef("-o: directory %s does not exist", filepath.Dir(path))
	}
	return nil
}

// writeFileAtomic writes data beside path and renames it into place.
func writeFileAtomic(path string, data []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// readAll reads every file with read; the first that fails is the input
// error.
func readAll[T any](files []string, read func(string) (T, error)) ([]T, error) {
	out := make([]T, len(files))
	for i, f := range files {
		v, err := read(f)
		if err != nil {
			return nil, inputError(err)
		}
		out[i] = v
	}
	return out, nil
}
