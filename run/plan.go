// Package run runs a typed plan: its workers with their pacing, the
// warm-up, the time limit, the interval outputs and the stop on Ctrl-C,
// and returns what was measured. It reads no properties and no command
// line: the YCSB front end (frontend/ycsb) and the cassandra-stress mode (stress)
// are its two front ends, each building plans from its own settings.
package run

import (
	"runtime"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/hostcpu"
	"github.com/goycsb/ycsb/internal/procs"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// Plan is one run, checked and typed by a front end.
type Plan struct {
	// Threads is the workers asked for; never more are started than
	// OpCount (see Workers), but the target is shared among Threads, as
	// the reference does.
	Threads int
	// OpCount is the operations of all workers, shared among them; 0 runs
	// until stopped.
	OpCount int64
	// Target is the rate of all workers (ops/sec); 0 is unthrottled.
	Target int64
	// Spin busy-waits for an operation's due time instead of sleeping.
	Spin bool
	// Load runs the workload's inserts (a load phase) rather than its
	// transactions.
	Load bool
	// Warmup is the first part of the run, whose operations are not
	// measured; 0 for none.
	Warmup time.Duration
	// TimeLimit stops the run after it; 0 for none. Its two lines go to
	// Say.
	TimeLimit time.Duration
	Say       func(line string)
	// Interval is how often Outputs see the collector's harvest, unless
	// Ticker ticks it; 0: only once, at the end.
	Interval time.Duration

	Workload workload.Workload
	// Sessions are a binding's session per worker (Workers of them at
	// least): required, New refuses a plan without them. A workload that
	// runs its own statements finds them on a capability of the session
	// (db/cassandra's CQL).
	Sessions []db.Session
	// Measurement is how the workers' operations are measured.
	Measurement *measurement.Config
	// Ops names the operations the run measures; nil is YCSB's table.
	Ops *measurement.Ops
	// Causes, when set, is shown every failed operation's error.
	Causes *measurement.Causes
	// Seed is the base of the workers' seeds.
	Seed uint64
	// AdaptProcs starts the run on one processor and adds processors while
	// the process keeps those it has busy (internal/procs): for workers
	// that mostly wait on a server, unless the user set GOMAXPROCS.
	AdaptProcs bool
	// Embedded says the database is an engine in this process
	// (db.Embedded): the client's CPU figures include the engine's work,
	// and its verdict says so (Client.Embedded).
	Embedded bool

	// Outputs see every interval while the run goes (after grafana/k6's
	// outputs), warm-up included, when nothing is recorded, and the last,
	// partial one after the workers have joined.
	Outputs []Output
	// Ticker, when set, ticks the collector on a schedule of its own (the
	// YCSB status lines) in place of the engine's ticks every Interval.
	Ticker Ticker
}

// Workers is how many workers run: Threads, but no more than OpCount.
func (p *Plan) Workers() int {
	if p.OpCount > 0 && int64(p.Threads) > p.OpCount {
		return int(p.OpCount)
	}
	return p.Threads
}

// Result is what a run measured, in the measured window: after the
// warm-up, up to the join of the workers.
type Result struct {
	Start, End time.Time
	// Warmup is how long the warm-up ran, within the run; 0 without one.
	Warmup   time.Duration
	WarmedUp bool // the run had a warm-up
	// WarmupCut says the run ended during the warm-up: nothing was
	// measured.
	WarmupCut bool
	Ops       int64 // operations done in the window
	Succeeded int64 // of them, those that succeeded (no failed operation)
	Inserted  int64 // records inserted, warm-up included
	Total     *measurement.Snapshot
	Schedule  *Schedule // nil without a target

	// Unknown is, of the failed operations (Ops - Succeeded), those that
	// met a write whose outcome is unknown: the server may have applied
	// it (db.UnknownOutcomeError). UnknownAll is the same with the
	// warm-up, beside Inserted: a load put at least Inserted records in
	// the table, and at most UnknownAll more.
	Unknown, UnknownAll int64

	// GC is the runtime's figures at both ends of the window.
	GC GCWindow
	// Client is the client itself over the window: what it used of its
	// machine, and its workers and target.
	Client  Client
	Stopped bool // by Ctrl-C, the time limit or an output, not by the end of the work
	// Interrupted says the end of the run's context (Ctrl-C, SIGTERM)
	// stopped it before its work was done; not the time limit or an
	// output, which end a run as planned.
	Interrupted bool
	// Done is the operations done, the warm-up's included: what the
	// plan's OpCount counts.
	Done int64
	// Halted is why an output stopped the run (a Halter); "" otherwise.
	Halted string
	// CloseErrs are the workers' failed session closes, by worker.
	CloseErrs []WorkerError
}

// Client is what a report needs to say whether the client kept up: its
// CPU over the measured window (hostcpu), and the workers and target that
// say whether the target was reachable.
type Client struct {
	Workers int   // the workers that ran
	Target  int64 // ops/sec of all workers; 0 unthrottled
	CPU     hostcpu.Usage
	// Embedded: the database engine ran in this process (Plan.Embedded),
	// its work in CPU.
	Embedded bool
}

// clientCores is how many cores p's client may use: its affinity and
// cgroup quota, and the processor count (GOMAXPROCS) unless the run sizes
// that itself (AdaptProcs: it grows to the others' count under load).
func clientCores(p *Plan) (float64, bool) {
	limit := 0
	if !p.AdaptProcs || procs.Pinned() {
		limit = runtime.GOMAXPROCS(0)
	}
	return hostcpu.System.Cores(limit)
}

// WorkerError is a worker's error.
type WorkerError struct {
	Worker int
	Err    error
}
