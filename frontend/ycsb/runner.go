// Package ycsb is the YCSB front end of the engine: it reads the
// properties once into typed settings, opens the binding, runs a load or a
// run phase as an engine plan, and writes the reference's start-up lines,
// status lines and report.
//
// Run goes through four phases: prepare (every property and output path
// checked, nothing opened), open (the outputs opened during setup, the
// binding, a session per worker), execute (the engine runs the plan and
// returns what was measured) and report.
package ycsb

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report"
)

// SetupError is a failure before the run started: bad input, a binding that
// cannot connect. It is bad input (props.IsBadInput): the command line exits
// with code 2 for it.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }
func (e *SetupError) BadInput()     {}

// setupErr marks err as a setup failure. When ctx has ended (Ctrl-C during
// setup) the failure is the interruption's, not bad input's: the command
// line then exits 130, not 2.
func setupErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted during setup (%v)", err)
	}
	return &SetupError{Err: err}
}

// Options are what the command line hands to a run.
type Options struct {
	Props   *props.Properties // files and command line merged
	Driver  db.Driver
	Binding string // the binding's primary name
	Stdout  io.Writer
	Stderr  io.Writer
	// CommandLine is the command line as given, without the program's
	// name; when set, it heads the start-up lines on Stderr, with Version,
	// once setup has succeeded (as the reference prints its command line).
	// Passwords in it are masked.
	CommandLine []string
	Version     string
	// Complete, when set, is set true once a run or load that ended
	// complete (at its planned operations or maxexecutiontime) has
	// written its report: a signal that came after, while the report
	// waited for a FIFO's reader, interrupted no work.
	Complete *bool
	// capacity: ycsb capacity, whose steps set their own rates and times
	// (its start-up lines say so).
	capacity bool
}

// banner is the first of the start-up lines: the command line and the
// version, when Run was given a command line.
func (o *Options) banner() string {
	if o.CommandLine == nil {
		return ""
	}
	return fmt.Sprintf("Command line: %s\n%s %s, binding %s\n\n", strings.Join(secret.Args(o.CommandLine), " "), report.Tool, o.Version, o.Binding)
}

// Run runs one phase and writes its report. It returns after the report is
// written, also when ctx is cancelled (Ctrl-C): the report then covers the
// work done.
func Run(ctx context.Context, o Options) error {
	p, err := prepare(ctx, o)
	if err != nil {
		return setupErr(ctx, err)
	}
	defer p.release()
	b, err := p.open(ctx)
	if err != nil {
		return setupErr(ctx, err)
	}
	defer b.stopProfile()
	b.writeStartLines()
	if err := b.countStart(ctx); err != nil {
		return b.abandon(ctx, setupErr(ctx, err))
	}
	if err := b.waitForStart(ctx); err != nil {
		return b.abandon(ctx, err)
	}
	b.settleStart()
	err = b.report(ctx, b.execute(ctx))
	if perr := b.stopProfile(); err == nil {
		err = perr
	}
	b.linger(ctx)
	return err
}

// syncWriter serializes writes from several goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
