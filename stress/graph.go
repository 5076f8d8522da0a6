package stress

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/goycsb/ycsb/internal/atomicfile"
	"github.com/goycsb/ycsb/internal/htmlreport"
	yresults "github.com/goycsb/ycsb/internal/results"
)

// writeGraph is -graph file= title= revision= op=: the run's JSON report
// (at reportPath) drawn as this project's HTML report (ycsb report
// --html), named revision (revision=, and a ramp's thread count). When the file is a page an earlier -graph
// wrote, the run is added to the runs it embeds, as the original's
// StressGraph adds a revision to its file.
func (r *stressRun) writeGraph(reportPath, revision string) error {
	g := r.s.Graph
	rep, err := yresults.ReadReport(reportPath)
	if err != nil {
		return fmt.Errorf("-graph: %v", err)
	}
	// The phase column shows op= (the command by default).
	rep.Phase = g.Op
	title := g.Title
	var inputs []htmlreport.Input
	old, err := os.ReadFile(g.File)
	switch {
	case err == nil:
		t, in, err := htmlreport.ReadInputs(old)
		if err != nil {
			return fmt.Errorf("-graph file=%s: exists and is not a page of -graph: %v", g.File, err)
		}
		if title == "" {
			title = t
		}
		inputs = in
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("-graph file=%s: %v", g.File, err)
	}
	if title == "" {
		// What the original means to default to (SettingsGraph).
		title = "cassandra-stress - " + time.Now().Format("2006-01-02 15:04:05")
	}
	inputs = append(inputs, htmlreport.Input{Name: uniqueName(revision, inputs), Report: rep})
	d, err := htmlreport.Build(title, inputs, time.Now())
	if err != nil {
		return fmt.Errorf("-graph: %v", err)
	}
	err = atomicfile.Write(g.File, func(w io.Writer) error { return htmlreport.WriteWithInputs(w, d, inputs) })
	if err != nil {
		return fmt.Errorf("-graph file=%s: %v", g.File, err)
	}
	os.Chmod(g.File, 0o644) // a page to share
	return nil
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
