package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/outfile"
	"github.com/goycsb/ycsb/report/htmlreport"
	"github.com/goycsb/ycsb/report/merge"
)

const reportUsage = "ycsb report --html [-o report.html] [-title text] [-groups] <[name=]report.json ...>"

// runReport is ycsb report --html: the reports are drawn on the same
// charts, each under its name (name=file.json, or "<binding> <phase>").
// With -groups, names are "<series> <group>": each group's runs get charts
// of their own and each series one colour (compare-engines: "pebble a").
func runReport(ctx context.Context, env *Env, args []string) error {
	out, title, html, groups := "report.html", "", false, false
	args, opts, err := toolArgs(args, reportUsage, map[string]*string{"o": &out, "title": &title}, map[string]*bool{"html": &html, "groups": &groups})
	if err != nil {
		return err
	}
	var files, labels []string
	for _, a := range args {
		label, file := "", a
		if k, v, ok := strings.Cut(a, "="); ok && !strings.HasSuffix(k, ".json") {
			label, file = k, v
		}
		labels = append(labels, label)
		files = append(files, file)
	}
	if !html {
		return usagef("give --html: the HTML page is the only format (usage: %s)", reportUsage)
	}
	if len(files) == 0 {
		return usagef("no reports to draw (usage: %s)", reportUsage)
	}
	if groups {
		for i, l := range labels {
			if l == "" {
				return usagef("-groups: name each report (\"<series> <group>\"=%s) (usage: %s)", files[i], reportUsage)
			}
			if err := htmlreport.SplitGroups([]htmlreport.Input{{Name: l}}); err != nil {
				return usagef("-groups: %v", err)
			}
		}
	}
	if err := checkOutputs(opts, map[string]string{"o": out}); err != nil {
		return err
	}
	reps, err := readAll(ctx, files, merge.ReadReportContext)
	if err != nil {
		return err
	}
	// A capacity search's charts (latency against throughput) share no
	// axis with a run's (against time).
	for i := range reps {
		for j := range reps {
			if reps[i].Capacity != nil && reps[j].Capacity == nil {
				return usagef("%s is a capacity search and %s is not: draw them on separate pages", files[i], files[j])
			}
		}
	}
	names := htmlreport.Names(labels, files, reps)
	inputs := make([]htmlreport.Input, len(reps))
	for i := range reps {
		inputs[i] = htmlreport.Input{Name: names[i], Report: reps[i]}
	}
	if groups {
		if err := htmlreport.SplitGroups(inputs); err != nil {
			return usagef("-groups: %v", err)
		}
	}
	if title == "" {
		title = "YCSB: " + strings.Join(names, " vs ")
	}
	size, err := writePage(opts.name("o"), out, title, inputs)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %s (%d run(s), %d bytes)\n", out, len(reps), size)
	return nil
}

// writePage draws inputs as the HTML report titled title into path (given
// as opt) and returns its size.
func writePage(opt, path, title string, inputs []htmlreport.Input) (int, error) {
	d, err := htmlreport.Build(title, inputs, time.Now())
	if err != nil {
		return 0, inputError(err)
	}
	var buf bytes.Buffer
	if err := htmlreport.Write(&buf, d); err != nil {
		return 0, err
	}
	if err := outfile.WriteBytes(path, buf.Bytes()); err != nil {
		return 0, fmt.Errorf("%s %s: %w", opt, path, err)
	}
	return buf.Len(), nil
}
