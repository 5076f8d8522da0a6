package stressreport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"time"

	"github.com/goycsb/ycsb/internal/infile"
	"github.com/goycsb/ycsb/internal/oserr"
	"github.com/goycsb/ycsb/internal/outfile"
	"github.com/goycsb/ycsb/report/htmlreport"
	yresults "github.com/goycsb/ycsb/report/merge"
)

// writeGraph is -graph file= title= revision= op=: the run's JSON report
// (at reportPath) drawn as this project's HTML report (ycsb report
// --html), named revision (revision=, and a ramp's thread count). When the file is a page an earlier -graph
// wrote, the run is added to the runs it embeds, as the original's
// StressGraph adds a revision to its file.
func (f *Files) writeGraph(ctx context.Context, reportPath, revision string) error {
	g := f.Graph
	opt := f.Option("-graph", "file=", g.File)
	rep, err := yresults.ReadReport(reportPath)
	if err != nil {
		return fmt.Errorf("%s: the run's report: %v", opt, err)
	}
	// The phase column shows op= (the command by default).
	rep.Phase = g.Op
	title, inputs, err := f.readGraph(ctx)
	if err != nil {
		return err
	}
	if g.Title != "" {
		title = g.Title
	}
	if title == "" {
		// What the original means to default to (SettingsGraph).
		title = "cassandra-stress - " + time.Now().Format("2006-01-02 15:04:05")
	}
	inputs = append(inputs, htmlreport.Input{Name: uniqueName(revision, inputs), Report: rep})
	d, err := htmlreport.Build(title, inputs, time.Now())
	if err != nil {
		return fmt.Errorf("%s: %v", opt, err)
	}
	err = outfile.Write(g.File, func(w io.Writer) error { return htmlreport.WriteWithInputs(w, d, inputs) })
	if err != nil {
		return fmt.Errorf("%s: %v", opt, oserr.Reason(err))
	}
	return nil
}

// readGraph reads back the page of -graph file=, when it exists, for its
// title and runs (none when it does not, or when the file is a device, a
// FIFO or a descriptor, which is written through). A file that is not such
// a page is an error: it is not overwritten.
func (f *Files) readGraph(ctx context.Context) (title string, inputs []htmlreport.Input, err error) {
	g := f.Graph
	opt := f.Option("-graph", "file=", g.File)
	if outfile.WrittenThrough(g.File) {
		return "", nil, nil
	}
	old, err := infile.Read(ctx, g.File, infile.MaxReport)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, nil
	case err != nil:
		var ie *infile.Error
		if errors.As(err, &ie) {
			err = ie.Err
		}
		return "", nil, bad("%s: %v", opt, err)
	}
	title, inputs, err = htmlreport.ReadInputs(old)
	if err != nil {
		return "", nil, bad("%s: exists and is not a page of -graph (it is not overwritten): %v", opt, err)
	}
	return title, inputs, nil
}

// uniqueName is name, or name (2), (3)... when a run already has it.
func uniqueName(name string, inputs []htmlreport.Input) string {
	taken := map[string]bool{}
	for _, in := range inputs {
		taken[in.Name] = true
	}
	n := name
	for i := 2; taken[n]; i++ {
		n = name + " (" + strconv.Itoa(i) + ")"
	}
	return n
}
