// Package cli turns the reference's command line into a run: argument
// parsing with YCSB's single-dash long options and precedence, usage text,
// and the mapping of errors to exit codes.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"strconv"
	"strings"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/frontend/ycsb"
	"github.com/goycsb/ycsb/internal/shown"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report/gate"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitFailure     = 1   // the run could not finish
	ExitBadInput    = 2   // bad arguments, properties or binding setup
	ExitUnmet       = 3   // the run finished but failed an objective (slo) or a gate (compare -gate)
	ExitNotJudged   = 4   // compare -gate: a gate could not be judged (NO DATA) and none failed
	ExitInterrupted = 130 // stopped by SIGINT/SIGTERM; the report was still written
)

// Version is printed at startup.
var Version = "0.1.0"

// Command is a subcommand: load, run, shell, and later tools.
type Command struct {
	Name    string
	Summary string
	Run     func(ctx context.Context, env *Env, args []string) error
}

// Env is the process's standard streams, injected for tests.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// commands is the closed set of subcommands, in usage order: every one is
// listed here, whichever file of this package implements it.
var commands []Command

func init() {
	commands = []Command{
		{Name: "load", Summary: "insert the data set (the reference's -load)", Run: phase(false)},
		{Name: "run", Summary: "run the transaction mix (the reference's -t)", Run: phase(true)},
		{Name: "capacity", Summary: "find the highest rate that meets -p slo=...: open-loop steps, growth then bisection (docs/results.md)", Run: runCapacity},
		{Name: "shell", Summary: "interactive read/scan/insert/update/delete against a binding", Run: runShell},
		{Name: "stress", Summary: "cassandra-stress compatible mode: stress write|read|mixed|counter_write|counter_read ... (see docs/stress.md)", Run: runStress},
		{Name: "report", Summary: "draw JSON reports as one self-contained HTML page (--html), runs overlaid", Run: runReport},
		{Name: "merge", Summary: "combine the JSON reports (or .hdr logs) of several clients into one report", Run: runMerge},
		{Name: "compare", Summary: "compare two JSON reports side by side, with a significance test; -gate \"READ.p99:+10%, throughput:-5%\" fails (exit 3) on a significant regression, exit 4 when a gate cannot be judged", Run: runCompare},
		{Name: "kube", Summary: "print the Kubernetes manifests of a run on N clients (an Indexed Job)", Run: runKube},
	}
}

// UsageError is bad command-line input.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// BadInput makes a usage error exit with code 2 (see props.BadInput).
func (e *UsageError) BadInput() {}

func usagef(format string, args ...any) error { return &UsageError{Msg: fmt.Sprintf(format, args...)} }

// Run executes the command line args (without the program name) and returns
// the process exit code.
func Run(ctx context.Context, args []string, env *Env) int {
	if len(args) == 0 {
		usage(env.Stderr)
		return ExitBadInput
	}
	switch args[0] {
	case "help", "-h", "-help", "--help", "-?":
		usage(env.Stdout)
		return ExitOK
	}
	for _, c := range commands {
		if c.Name == args[0] {
			err := c.Run(ctx, env, args[1:])
			return exitCode(ctx, env, err)
		}
	}
	fmt.Fprintf(env.Stderr, "ycsb: unknown command %s (expected one of %s; see ycsb help)\n", shown.Quote(args[0]), commandNames())
	return ExitBadInput
}

// completeRun is what a run or load returns that ended complete and wrote
// its whole report, unmarked, although a signal came while the report was
// written (to a FIFO waiting for its reader): it exits 0, as its report
// says.
type completeRun struct{}

func (completeRun) Error() string { return "the run was complete" }

func exitCode(ctx context.Context, env *Env, err error) int {
	if errors.Is(err, completeRun{}) {
		return ExitOK
	}
	if err == nil {
		if ctx.Err() != nil {
			return ExitInterrupted
		}
		return ExitOK
	}
	msg := shown.Line(strings.ReplaceAll(err.Error(), "\n", " "))
	fmt.Fprintf(env.Stderr, "ycsb: %s\n", msg)
	if props.IsBadInput(err) {
		return ExitBadInput
	}
	if ctx.Err() != nil {
		return ExitInterrupted
	}
	if slo.IsUnmet(err) {
		return ExitUnmet
	}
	if gate.IsUnjudged(err) {
		return ExitNotJudged
	}
	return ExitFailure
}

func commandNames() string {
	var n []string
	for _, c := range commands {
		n = append(n, c.Name)
	}
	return strings.Join(n, ", ")
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("Usage: ycsb <command> [binding] [options]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-8s %s\n", c.Name, c.Summary)
	}
	b.WriteString(`  help     print this text

Options (load, run and shell), as in the reference YCSB:
  -P file          load a workload/properties file (repeatable; later files win)
  -p name=value    set a property (repeatable; beats -P files)
  -s               print status lines to stderr every status.interval seconds
  -threads n       number of client threads (threadcount)
  -target n        target operations per second over all threads (target)
  -load | -t       load phase or transaction phase (set by load and run)
  -l label         prefix for status lines (label)
  -db name         binding name or the reference's class name (db)
  -table name      table to use (shell only)

Bindings:
`)
	for _, in := range db.Infos() {
		names := in.Name
		if len(in.Aliases) > 0 {
			names += " (" + strings.Join(in.Aliases, ", ") + ")"
		}
		fmt.Fprintf(&b, "  %s\n      %s\n", names, in.Summary)
	}
	b.WriteString(`
Examples:
  ycsb load pebble -P workloads/workloada -s
  ycsb run pebble -P workloads/workloada -s -threads 4
  ycsb run basic -P workloads/workloadc -p operationcount=1000000 -target 50000

Exit codes: 0 done, 1 the run failed, 2 bad input or the binding could not be
set up, 3 the run finished but failed an objective (slo) or a gate (compare
-gate), 4 compare -gate could not judge a gate and none failed (too few
intervals or operations, or an interrupted report), 130 interrupted (the report of the work done is
still printed).
`)
	io.WriteString(w, b.String())
}

// parsed is the result of argument parsing.
type parsed struct {
	files   []string
	cmdline *props.Properties // -p and the flags, later occurrence wins
	table   string
	notes   []string // options accepted but with no effect here, to say so
}

// parseArgs parses the reference's options. Unlike the reference (which
// prints usage and exits 0), any problem is an error with exit code 2.
func parseArgs(args []string, shell bool) (*parsed, error) {
	p := &parsed{cmdline: props.New()}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return nil, usagef("unexpected argument %q: options start with - (see ycsb help)", a)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		value := func() (string, error) {
			if i+1 >= len(args) {
				return "", usagef("option -%s needs a value", name)
			}
			i++
			return args[i], nil
		}
		number := func(prop string) error {
			v, err := value()
			if err != nil {
				return err
			}
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				return usagef("option -%s: expected an integer, got %q", name, v)
			}
			p.cmdline.Set(prop, v)
			return nil
		}
		var err error
		switch name {
		case "P":
			var v string
			if v, err = value(); err == nil {
				p.files = append(p.files, v)
			}
		case "p":
			var v string
			if v, err = value(); err == nil {
				var n, val string
				if n, val, err = props.ParseOverride(v); err == nil {
					p.cmdline.Set(n, val)
				}
			}
		case "threads":
			err = number("threadcount")
		case "target":
			err = number("target")
		case "s":
			p.cmdline.Set("status", "true")
		case "load":
			p.cmdline.Set("dotransactions", "false")
		case "t":
			p.cmdline.Set("dotransactions", "true")
		case "l":
			var v string
			if v, err = value(); err == nil {
				p.cmdline.Set("label", v)
			}
		case "db":
			var v string
			if v, err = value(); err == nil {
				p.cmdline.Set("db", v)
			}
		case "table":
			if !shell {
				return nil, usagef("unknown option -table (it belongs to ycsb shell; use -p table=NAME)")
			}
			p.table, err = value()
		case "cp", "jvm-args":
			// The reference's launcher options configure Java; a script
			// passing them still works, and says so.
			if _, err = value(); err == nil {
				p.notes = append(p.notes, fmt.Sprintf("ycsb: ignoring %s: it configures the reference's Java launcher", a))
			}
		default:
			return nil, usagef("unknown option %s (see ycsb help)", a)
		}
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *parsed) printNotes(w io.Writer) {
	for _, n := range p.notes {
		fmt.Fprintln(w, n)
	}
}

// properties merges the -P files in order, then the command line over them.
func (p *parsed) properties(ctx context.Context) (*props.Properties, error) {
	all, _, err := p.propertiesAndFiles(ctx)
	return all, err
}

// propertiesAndFiles is properties, with the text of each -P file, in
// order: each is read once (through infile, bounded), as a pipe can be.
func (p *parsed) propertiesAndFiles(ctx context.Context) (*props.Properties, [][]byte, error) {
	all := props.New()
	var texts [][]byte
	for _, f := range p.files {
		fp, text, err := props.LoadFileText(ctx, f)
		if err != nil {
			return nil, nil, err
		}
		all.Merge(fp)
		texts = append(texts, text)
	}
	all.Merge(p.cmdline)
	return all, texts, nil
}

// binding resolves the binding named on the command line; -db or -p db
// override the positional name, as with the reference's launcher.
func binding(positional string, all *props.Properties) (db.Driver, string, error) {
	name := all.String("db", positional)
	d, primary, err := db.Lookup(name)
	if err != nil {
		return nil, "", usagef("%v", err)
	}
	return d, primary, nil
}

func phase(transactions bool) func(ctx context.Context, env *Env, args []string) error {
	return bindingCommand(map[bool]string{false: "load", true: "run"}[transactions], transactions, ycsb.Run)
}

// runCapacity is ycsb capacity: a run phase's options, searched.
var runCapacity = bindingCommand("capacity", true, ycsb.Capacity)

// bindingCommand is a command that takes a binding and the reference's
// options, and runs them with run.
func bindingCommand(name string, transactions bool, run func(context.Context, ycsb.Options) error) func(ctx context.Context, env *Env, args []string) error {
	return func(ctx context.Context, env *Env, args []string) error {
		// The binding is the first word, or only -db (the reference's own
		// Client takes it that way).
		positional, rest := "", args
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			positional, rest = args[0], args[1:]
		}
		p, err := parseArgs(rest, false)
		if err != nil {
			return err
		}
		p.printNotes(env.Stderr)
		// The launcher appends -load/-t last, so the command wins.
		p.cmdline.Set("dotransactions", strconv.FormatBool(transactions))
		all, err := p.properties(ctx)
		if err != nil {
			return err
		}
		if positional == "" && !all.Has("db") {
			return usagef("missing binding: ycsb %s <binding> [options]; bindings: %s", name, strings.Join(db.Drivers(), ", "))
		}
		d, bname, err := binding(positional, all)
		if err != nil {
			return err
		}
		complete := false
		err = run(ctx, ycsb.Options{Props: all, Driver: d, Binding: bname, Stdout: env.Stdout, Stderr: env.Stderr,
			CommandLine: args, Version: Version, Complete: &complete})
		if err == nil && complete && ctx.Err() != nil {
			return completeRun{}
		}
		return err
	}
}
