package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goycsb/ycsb/internal/results"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/report"
)

func init() {
	AddCommand(Command{Name: "merge", Summary: "combine the JSON reports (or .hdr logs) of several clients into one report", Run: runMerge})
	AddCommand(Command{Name: "compare", Summary: "compare two JSON reports side by side, with a significance test", Run: runCompare})
}

const mergeUsage = "ycsb merge [-o merged.json] [-exporter text|json|jsonarray] <report.json ...> | <log.hdr ...>"

// runMerge is ycsb merge: the combined report goes to stdout in the chosen
// exporter's format and, with -o, as a JSON report to a file.
func runMerge(ctx context.Context, env *Env, args []string) error {
	var out, exporter string
	exporter = "text"
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-o", "--o", "-exporter", "--exporter":
			if i+1 >= len(args) {
				return usagef("option %s needs a value (usage: %s)", a, mergeUsage)
			}
			i++
			if strings.HasSuffix(a, "o") {
				out = args[i]
			} else {
				exporter = args[i]
			}
		default:
			if strings.HasPrefix(a, "-") {
				return usagef("unknown option %s (usage: %s)", a, mergeUsage)
			}
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		return usagef("nothing to merge (usage: %s)", mergeUsage)
	}
	if _, err := export.New(exporter, &bytes.Buffer{}); err != nil {
		return usagef("-exporter: unknown exporter %q (text, json or jsonarray)", exporter)
	}
	if out != "" {
		if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
			return usagef("-o: directory %s does not exist", filepath.Dir(out))
		}
	}
	hdr := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".hdr") || strings.HasSuffix(f, ".hlog") {
			hdr++
		}
	}
	var merged *report.Report
	switch {
	case hdr == len(files):
		logs := make([]*results.HdrLog, len(files))
		for i, f := range files {
			l, err := results.ReadHdrLog(f)
			if err != nil {
				return inputError(err)
			}
			logs[i] = l
		}
		m, err := results.MergeHdrLogs(files, logs, measurement.DefaultPercentiles)
		if err != nil {
			return inputError(err)
		}
		merged = m
	case hdr == 0:
		reps := make([]*report.Report, len(files))
		for i, f := range files {
			r, err := results.ReadReport(f)
			if err != nil {
				return inputError(err)
			}
			reps[i] = r
		}
		m, err := results.Merge(files, reps)
		if err != nil {
			return inputError(err)
		}
		merged = m
	default:
		return usagef("give either JSON reports or .hdr logs, not both")
	}
	var text bytes.Buffer
	ex, _ := export.New(exporter, &text)
	for _, r := range merged.Sections {
		v := export.Float(r.Value)
		if r.Int {
			v = export.Int(int64(r.Value))
		}
		if err := ex.Write(r.Metric, r.Name, v); err != nil {
			return err
		}
	}
	if err := ex.Close(); err != nil {
		return err
	}
	if out != "" {
		var doc bytes.Buffer
		if err := report.Write(&doc, merged); err != nil {
			return err
		}
		if err := writeFileAtomic(out, doc.Bytes()); err != nil {
			return fmt.Errorf("-o: %w", err)
		}
	}
	_, err := env.Stdout.Write(text.Bytes())
	return err
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
func inputError(err error) error {
	var ie *results.InputError
	if errors.As(err, &ie) {
		return &UsageError{Msg: err.Error()}
	}
	return &UsageError{Msg: err.Error()}
}

// writeFileAtomic writes beside path and renames, so a failure leaves no
// half-written file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
