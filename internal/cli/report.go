package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/htmlreport"
	"github.com/goycsb/ycsb/internal/results"
	"github.com/goycsb/ycsb/measurement/report"
)

func init() {
	AddCommand(Command{Name: "report", Summary: "draw JSON reports as one self-contained HTML page (--html), runs overlaid", Run: runReport})
}

const reportUsage = "ycsb report --html [-o report.html] [-title text] <[name=]report.json ...>"

// runReport is ycsb report --html: the reports are drawn on the same
// charts, each under its name (name=file.json, or "<binding> <phase>").
func runReport(ctx context.Context, env *Env, args []string) error {
	out, title, html := "report.html", "", false
	var files, labels []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-html", "--html":
			html = true
		case "-o", "--o", "-title", "--title":
			if i+1 >= len(args) {
				return usagef("option %s needs a value (usage: %s)", a, reportUsage)
			}
			i++
			if strings.HasSuffix(a, "o") {
				out = args[i]
			} else {
				title = args[i]
			}
		default:
			if strings.HasPrefix(a, "-") {
				return usagef("unknown option %s (usage: %s)", a, reportUsage)
			}
			label, file := "", a
			if k, v, ok := strings.Cut(a, "="); ok && !strings.HasSuffix(k, ".json") {
				label, file = k, v
			}
			labels = append(labels, label)
			files = append(files, file)
		}
	}
	if !html {
		return usagef("give --html: the HTML page is the only format (usage: %s)", reportUsage)
	}
	if len(files) == 0 {
		return usagef("no reports to draw (usage: %s)", reportUsage)
	}
	if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
		return usagef("-o: directory %s does not exist", filepath.Dir(out))
	}
	reps := make([]*report.Report, len(files))
	for i, f := range files {
		r, err := results.ReadReport(f)
		if err != nil {
			return inputError(err)
		}
		reps[i] = r
	}
	names := htmlreport.Names(labels, files, reps)
	inputs := make([]htmlreport.Input, len(reps))
	for i := range reps {
		inputs[i] = htmlreport.Input{Name: names[i], Report: reps[i]}
	}
	if title == "" {
		title = "YCSB: " + strings.Join(names, " vs ")
	}
	d, err := htmlreport.Build(title, inputs, time.Now())
	if err != nil {
		return inputError(err)
	}
	var buf bytes.Buffer
	if err := htmlreport.Write(&buf, d); err != nil {
		return err
	}
	if err := writeFileAtomic(out, buf.Bytes()); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	os.Chmod(out, 0o644) // a page to share, not a private temporary file
	fmt.Fprintf(env.Stderr, "wrote %s (%d run(s), %d bytes)\n", out, len(reps), buf.Len())
	return nil
}
