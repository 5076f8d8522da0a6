package ycsb

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/prom"
	"github.com/goycsb/ycsb/run"
)

// execute runs the plan the properties describe after its start-up lines,
// and returns what was measured.
func (b *bench) execute(ctx context.Context) *run.Result {
	o, s := &b.o, b.s
	fmt.Fprintln(o.Stderr, "Starting test.")
	if s.warmup > 0 {
		fmt.Fprintf(o.Stderr, "Warm-up: the first %s are not measured.\n", s.warmup)
	}
	if s.maxExecution > 0 {
		// Before the status or progress output starts, which it would cut.
		fmt.Fprintf(o.Stderr, "Maximum execution time specified as: %d secs\n", int64(s.maxExecution/time.Second))
	}
	res := b.engine.Run(ctx)
	// Now that nothing else writes to stderr.
	for _, we := range res.CloseErrs {
		fmt.Fprintf(o.Stderr, "worker %d: cleanup: %v\n", we.Worker, we.Err)
	}
	if res.WarmupCut {
		fmt.Fprintln(o.Stderr, "Warning: the run ended during the warm-up: nothing was measured.")
	}
	return res
}

// enginePlan is the run the settings describe, over the sessions opened,
// with the status lines or the progress line.
func (b *bench) enginePlan() *run.Plan {
	s := b.s
	plan := &run.Plan{
		Threads:     s.threads,
		OpCount:     s.opCount,
		Target:      s.target,
		Spin:        s.spin,
		Load:        !s.transactions,
		Warmup:      s.warmup,
		TimeLimit:   s.maxExecution,
		Say:         func(line string) { fmt.Fprintln(b.o.Stderr, line) },
		Interval:    b.outs.every,
		Workload:    b.wl,
		Sessions:    b.sessions,
		Measurement: b.mcfg,
		Causes:      b.causes,
		Seed:        b.seed,
		Outputs:     b.outs.list,
	}
	_, plan.AdaptProcs = b.database.(db.Remote)
	plan.Embedded = b.embedded
	if pl := b.progressLine(); pl != nil {
		b.causes.SetSay(pl.message)
		plan.Say = pl.message
		plan.Outputs = append(plan.Outputs, pl)
	}
	if s.status {
		plan.Ticker = &statusTicker{out: statusOut(&b.o, b.mcfg), s: s}
	}
	return plan
}

// writeStartLines writes the start-up lines, once setup has worked, before
// any wait for the starttime.
func (b *bench) writeStartLines() {
	o, s := &b.o, b.s
	o.Stderr.Write(b.prelude.Bytes())
	// Every property has been read by now (the sessions are open): what is
	// left unread is most likely a typo or another program's property.
	for _, w := range o.Props.Warnings() {
		fmt.Fprintln(o.Stderr, w)
	}
	if b.prom != nil {
		fmt.Fprintf(o.Stderr, "Prometheus metrics at http://%s/metrics\n", b.prom.Addr())
		if _, port, err := net.SplitHostPort(s.promAddr); err == nil && prom.EveryInterface(s.promAddr) {
			fmt.Fprintf(o.Stderr, "warning: prometheus.addr=%s listens on every network interface: give a host, such as 127.0.0.1:%s, to serve this machine only\n", s.promAddr, port)
		}
	}
}

// waitForStart waits for the starttime, or the start the rendezvous
// announces, once the binding and its sessions are open, so that every
// client starts measuring at that instant. When ctx ends first nothing
// has run, and the error says so.
func (b *bench) waitForStart(ctx context.Context) error {
	if b.s.meet.addr != "" {
		return b.meet(ctx)
	}
	tty := terminal(b.rawStderr) >= 0 && os.Getenv("TERM") != "dumb"
	if err := waitForStart(ctx, b.o.Stderr, b.s.startTime, tty); err != nil {
		return fmt.Errorf("interrupted while waiting for starttime %s: nothing was run", b.s.startTime.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// progressLine is the live progress line, on a terminal (progress=auto) or
// anywhere (progress=true); nil when there is none or the status lines
// (-s) replace it.
func (b *bench) progressLine() *progressLine {
	if b.s.status || b.s.progress == progressOff {
		return nil
	}
	fd := terminal(b.rawStderr)
	if b.s.progress != progressOn && (fd < 0 || os.Getenv("TERM") == "dumb") {
		return nil
	}
	return newProgressLine(b.o.Stderr, fd, b.s)
}

// statusOut is where status lines go: stderr, and also stdout with the
// timeseries type, as in the reference.
func statusOut(o *Options, mcfg *measurement.Config) io.Writer {
	if mcfg.Type == measurement.TimeSeries {
		return io.MultiWriter(o.Stderr, o.Stdout)
	}
	return o.Stderr
}
