// Package stress runs the cassandra-stress compatible mode: `ycsb stress
// write n=1M -rate threads=50 -node h1`, or this binary invoked as
// cassandra-stress. The command line is parsed by
// frontend/stress/settings, the workload (the predefined
// commands', a user profile's) is workload/cassandrastress's, and the runs
// go on the engine (its workers, pacing and per-worker measurement), its
// sessions those of a connection through the binding (db/cassandra's
// Conn, whose CQL the workload runs its statements on); the interval lines, the Results
// block and END/FAILURE are the original's (report/StressMetrics.java and
// StressAction.java in scylladb/cassandra-stress).
package stress

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/cassandra"
	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/cql/cqlcluster"
	"github.com/goycsb/ycsb/internal/oserr"
	"github.com/goycsb/ycsb/internal/outfile"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/stressreport"
	"github.com/goycsb/ycsb/run"
	ycsbworkload "github.com/goycsb/ycsb/workload"
	"github.com/goycsb/ycsb/workload/cassandrastress"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

// BadInput is a command line or setup that cannot work: one line, exit 2
// (the workload's setup says so too).
type BadInput = cassandrastress.BadInput

func bad(format string, args ...any) error { return cassandrastress.Bad(format, args...) }

// badInput marks err as bad input, unless Ctrl-C ended the wait for an
// input (see cassandrastress.BadInputOf).
func badInput(err error) error { return cassandrastress.BadInputOf(err) }

// ErrFailure is a run that ended with FAILURE.
var ErrFailure = errors.New("stress: the run failed")

// ErrInterrupted is a run ended by Ctrl-C (its context): the report, if
// the measured run had started, covers the operations finished before it.
var ErrInterrupted = errors.New("stress: interrupted")

// setupErr is a failure to set the run up: bad input (exit 2), unless
// ctx ended (Ctrl-C), which caused it.
func setupErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w during setup: %v", ErrInterrupted, err)
	}
	return &BadInput{Err: err}
}

// pause is the original's "Sleeping 2s..." before the work, which lets the
// schema settle; tests shorten it.
var pause = 2 * time.Second

// rampPause is its sleep between the thread counts of a write ramp ("let
// the commit log flush").
var rampPause = 15 * time.Second

// Env is where a run writes.
type Env struct {
	Stdout, Stderr io.Writer
	Version        string
	// onStart, if set, is called as each measured run starts, its
	// connections open: tests look at them from the node's side. A field
	// of the run's, not a package variable, so those tests run in parallel.
	onStart func()
}

// Main runs a cassandra-stress command line (without the program name).
func Main(ctx context.Context, args []string, env Env) error {
	s, notes, err := settings.Parse(args)
	if err != nil {
		return &BadInput{Err: err}
	}
	switch s.Command.Type {
	case settings.CmdHelp:
		fmt.Fprint(env.Stdout, settings.Help(s.HelpTopic))
		return nil
	case settings.CmdVersion:
		fmt.Fprintf(env.Stdout, "Version: ycsb %s (cassandra-stress compatible mode)\n", env.Version)
		return nil
	case settings.CmdPrint:
		stressreport.PrintDistribution(env.Stdout, data.FromSpec(s.PrintDist))
		return nil
	case settings.CmdUser:
		return runUser(ctx, s, notes, env)
	}
	r, err := newRun(ctx, s, env)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(env.Stderr, n.String())
	}
	for _, n := range r.notes {
		fmt.Fprintln(env.Stderr, n)
	}
	if err := r.connect(ctx); err != nil {
		return setupErr(ctx, err)
	}
	defer r.close()
	if err := r.openLog(); err != nil {
		return &BadInput{Err: err}
	}
	return r.judged(r.closeLog(r.run(ctx)))
}

// judged is the run's error, or, after a run that ended well, the
// objectives' (-slo): exit code 3 when one failed.
func (r *stressRun) judged(err error) error {
	if err != nil || r.judgement == nil {
		return err
	}
	return r.judgement.Err()
}

// stressRun is one command line being run.
// errLine prints one line to stderr from any worker.
func (r *stressRun) errLine(line any) {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	fmt.Fprintln(r.env.Stderr, line)
}

type stressRun struct {
	// ctx is the run's: reading an input (a -graph page) honours it
	ctx context.Context
	s   *settings.Settings
	env Env
	out io.Writer // stdout, and the -log file= copy
	// errMu serializes the lines workers print to env.Stderr as they
	// happen (failures, retried tries), which a test's buffer shares
	errMu sync.Mutex
	log   *logCopy
	// conn is the connection to the nodes, through the binding: the
	// workers' sessions (Conn.Sessions) and the schema's; sess is the
	// keyspace's driver session of the predefined commands (truncate)
	conn  *cassandra.Conn
	sess  *gocql.Session
	m     *cassandrastress.Model
	kinds []cassandrastress.Kind
	// the tables the command uses
	tables []string
	// comp is -mode compression='s compressor (nil for none)
	comp *usedCompressor
	// tls is -transport's configuration (nil without truststore=)
	tls *tls.Config
	// notes are printed on stderr with the parser's
	notes []string
	// newPop makes the population of -pop afresh
	newPop func() *data.Population
	// judgement is the measured run's against -slo; nil without it
	judgement *slo.Judgement
	// step is the capacity search's step being run (-rate capacity); nil
	// otherwise. lastRes is the last measured run's result.
	step    *capStep
	lastRes *run.Result
}

// newRun checks the command line and its outputs and reads its input
// files (-node file=, the stores of -transport), before anything is opened
// or created.
func newRun(ctx context.Context, s *settings.Settings, env Env) (*stressRun, error) {
	r := &stressRun{ctx: ctx, s: s, env: env, out: env.Stdout, comp: newCompressor(s.Mode.Compression)}
	if err := s.Node.ReadNodeFile(ctx); err != nil {
		return nil, badInput(err)
	}
	// Every output is checked before anything is connected or created.
	if err := r.files().Check(ctx); err != nil {
		return nil, reportErr(err)
	}
	var err error
	// The stores are read before anything is opened: a wrong file or
	// password is one line.
	if r.tls, err = tlsConfig(ctx, s.Transport); err != nil {
		return nil, badInput(err)
	}
	m, err := cassandrastress.NewModel(s)
	if err != nil {
		return nil, &BadInput{Err: err}
	}
	p := s.Population
	r.newPop = func() *data.Population {
		pop, _ := cassandrastress.NewPopulation(p) // checked below
		return pop
	}
	if _, err := cassandrastress.NewPopulation(p); err != nil {
		return nil, &BadInput{Err: err}
	}
	m.Fresh(r.newPop(), s)
	if s.Log.JSONFile != "" && s.Rate.Ramp() {
		return nil, bad("%s: not offered with a thread ramp yet (one report per run); give -rate threads=N", s.Option("-log", "json=", s.Log.JSONFile))
	}
	if s.SLO.Objectives != nil && s.Rate.Ramp() {
		return nil, bad("-slo: a thread ramp has no one run to judge; give -rate threads=N")
	}
	if err := checkCapacity(s); err != nil {
		return nil, err
	}
	notes, err := m.Insert(s)
	if err != nil {
		return nil, &BadInput{Err: err}
	}
	r.notes = append(r.notes, notes...)
	if s.Command.Type != settings.CmdUser {
		if err := r.predefinedMemory(); err != nil {
			return nil, err
		}
	}
	m.SetCQL(s)
	if s.Command.Type == settings.CmdMixed {
		for _, cr := range s.Command.Ratios {
			if cr.Weight > 0 {
				r.kinds = append(r.kinds, cassandrastress.KindOf(cr.Command))
			}
		}
	} else {
		r.kinds = []cassandrastress.Kind{cassandrastress.KindOf(s.Command.Type)}
	}
	for _, k := range r.kinds {
		t := data.Standard1
		if k == cassandrastress.KindCounterWrite || k == cassandrastress.KindCounterRead {
			t = data.Counter1
		}
		if !strings.Contains(strings.Join(r.tables, ","), t) {
			r.tables = append(r.tables, t)
		}
	}
	r.m = m
	return r, nil
}

func (r *stressRun) schema() data.Schema {
	ss := r.s.Schema
	sc := data.Schema{Keyspace: ss.Keyspace, ReplicationStrategy: ss.ReplicationStrategy, Compression: ss.Compression,
		CompactionStrategy: ss.CompactionStrategy}
	for _, kv := range ss.ReplicationOptions {
		sc.ReplicationOptions = append(sc.ReplicationOptions, data.Option{Name: kv.Key, Value: kv.Value})
	}
	for _, kv := range ss.CompactionOptions {
		sc.CompactionOptions = append(sc.CompactionOptions, data.Option{Name: kv.Key, Value: kv.Value})
	}
	for _, kv := range ss.StorageOptions {
		if kv.Key == "type" {
			sc.Storage = kv.Value
			continue
		}
		sc.StorageOptions = append(sc.StorageOptions, data.Option{Name: kv.Key, Value: kv.Value})
	}
	return sc
}

// cluster is the driver's configuration from -node, -port and -mode.
func (r *stressRun) cluster(keyspace string) *gocql.ClusterConfig {
	return r.options(keyspace).Config()
}

// options are the connection options from -node, -port and -mode.
func (r *stressRun) options(keyspace string) cqlcluster.Options {
	s := r.s
	o := cqlcluster.Options{
		Hosts: s.Node.Nodes, Port: s.Port.Native, Keyspace: keyspace, Consistency: cassandrastress.Consistency(s.Command.CL),
		ConnectTimeout: 10 * time.Second, Timeout: s.Mode.RequestTimeout, Conns: s.Mode.ConnectionsPerHost,
		Protocol: s.Mode.Protocol(),
		Username: s.Mode.User, Password: s.Mode.Password,
		TokenAware: true, OnlyHosts: s.Node.WhiteList,
		TLS: r.tls, VerifyHost: s.Transport.HostnameVerification,
	}
	// -node loadbalance= picks the policy under token awareness; by
	// default datacenter= makes it DC-aware, and rack= with it rack-aware.
	switch s.Node.LoadBalance {
	case settings.LoadBalanceAuto, settings.LoadBalanceRackAware:
		o.LocalDC, o.LocalRack = s.Node.Datacenter, s.Node.Rack
	case settings.LoadBalanceDCAware:
		o.LocalDC = s.Node.Datacenter
	case settings.LoadBalanceRoundRobin:
	}
	if r.comp != nil {
		o.Compressor = r.comp
	}
	return o
}

// connect creates the schema as the original's maybeCreateKeyspaces does
// (the keyspace, then the command's tables, each IF NOT EXISTS) and opens
// the session the workers share.
func (r *stressRun) connect(ctx context.Context) error {
	s := r.s
	where := strings.Join(s.Node.Nodes, ",") + " port " + strconv.Itoa(s.Port.Native)
	sc := r.schema()
	conn, err := cassandra.Dial(ctx, r.options(""))
	if err != nil {
		return fmt.Errorf("connect to %s: %v", where, err)
	}
	if err := r.checkCompression(ctx, conn.Admin(), where); err != nil {
		conn.Close()
		return err
	}
	err = conn.Admin().Query(sc.CreateKeyspace()).ExecContext(ctx)
	conn.CloseAdmin()
	if err != nil {
		conn.Close()
		return fmt.Errorf("create keyspace %s: %v", sc.Keyspace, err)
	}
	o := r.options(sc.Keyspace)
	sess, err := conn.Open(ctx, sc.Keyspace)
	if err != nil {
		conn.Close()
		return fmt.Errorf("connect to %s: %v", where, err)
	}
	names := r.m.Columns()
	for _, t := range r.tables {
		// The original creates counter1 only for counter_write; counter_read
		// of a keyspace without it fails, there as here.
		var cql string
		switch {
		case t == data.Standard1:
			cql = sc.CreateStandard1(names)
		case slices.Contains(r.kinds, cassandrastress.KindCounterWrite):
			cql = sc.CreateCounter1(names)
		default:
			continue
		}
		if err := sess.Query(cql).ExecContext(ctx); err != nil {
			conn.Close()
			return fmt.Errorf("create table %s.%s: %v", sc.Keyspace, t, err)
		}
	}
	r.conn, r.sess = conn, sess
	// Protocol v4, the original's default client's: the operations take
	// the lean request path (Conn.Open opened it), the session keeps the
	// rest.
	r.m.Connected(s, sc.Keyspace, o.Protocol == 4 && o.Lean())
	return nil
}

// checkCompression makes sure, before anything is created, that the
// connections compress what -mode compression= asks for.
func (r *stressRun) checkCompression(ctx context.Context, admin *gocql.Session, where string) error {
	if r.comp == nil {
		return nil
	}
	var v string
	if err := admin.Query("SELECT release_version FROM system.local").ScanContext(ctx, &v); err != nil {
		return fmt.Errorf("connect to %s: %v", where, err)
	}
	if !r.comp.used.Load() {
		c := strings.ToLower(r.s.Mode.Compression.String())
		return fmt.Errorf("-mode compression=%s: the node at %s (Cassandra %s) did not accept %s compression", c, where, v, c)
	}
	return nil
}

// openLog opens -log file=, which gets a copy of everything printed.
func (r *stressRun) openLog() error {
	if r.s.Log.File == "" {
		return nil
	}
	f, err := outfile.Create(r.s.Log.File)
	if err != nil {
		return fmt.Errorf("%s: %v", r.s.Option("-log", "file=", r.s.Log.File), err)
	}
	r.log = &logCopy{f: f}
	r.out = io.MultiWriter(r.env.Stdout, r.log)
	return nil
}

// logCopy is -log file=. It keeps the first write error and takes no more
// after it, while the output goes on: the run fails at its end, its lines
// all printed.
type logCopy struct {
	f   *os.File
	err error
}

func (l *logCopy) Write(p []byte) (int, error) {
	if l.err == nil {
		_, l.err = l.f.Write(p)
	}
	return len(p), nil
}

// closeLog closes -log file= after the run, whose error is err, and
// returns err or, after a run that went well, why the log could not be
// written.
func (r *stressRun) closeLog(err error) error {
	l := r.log
	if l == nil {
		return err
	}
	r.log = nil
	if cerr := l.f.Close(); l.err == nil {
		l.err = cerr
	}
	if err == nil && l.err != nil {
		err = fmt.Errorf("%s: cannot write %s: %v", r.s.Option("-log", "file=", r.s.Log.File), r.s.Log.File, oserr.Reason(l.err))
	}
	return err
}

func (r *stressRun) close() {
	if r.conn != nil {
		r.conn.Close()
	}
	r.closeLog(nil)
}

func (r *stressRun) println(a ...any) { fmt.Fprintln(r.out, a...) }

// run is the original's StressAction.run.
func (r *stressRun) run(ctx context.Context) error {
	s := r.s
	if !s.Log.NoSettings {
		fmt.Fprint(r.out, s.String())
	}
	if s.Command.Stop == settings.StopCount && s.Command.Count == 0 {
		r.println("N=0: SCHEMA CREATED, NOTHING ELSE DONE.")
		return nil
	}
	r.println("Sleeping " + strconv.Itoa(int(pause/time.Second)) + "s...")
	sleep(ctx, pause)
	if !s.Command.NoWarmup {
		if err := r.warmup(ctx); err != nil || ctx.Err() != nil {
			return r.failure(ctx, err)
		}
	}
	if s.Command.Truncate == settings.TruncateOnce || !s.Rate.Ramp() && s.Command.Truncate == settings.TruncateAlways {
		if err := r.truncate(ctx); err != nil || ctx.Err() != nil {
			return r.failure(ctx, err)
		}
	}
	var err error
	switch {
	case s.Rate.Capacity != nil:
		err = r.capacitySearch(ctx, func(ctx context.Context, threads int) error {
			_, err := r.runOnce(ctx, r.kinds, threads, -1, false)
			return err
		})
	case s.Rate.Ramp():
		// The original's marker for its graphs: a ramp has no one count.
		r.println("Thread count was not specified")
		err = r.runMulti(ctx)
	default:
		_, err = r.runOnce(ctx, r.kinds, s.Rate.Threads, r.count(), false)
	}
	if err != nil || ctx.Err() != nil {
		return r.failure(ctx, err)
	}
	r.println("END")
	return nil
}

// failure ends a run that failed (err) or was interrupted (ctx) with
// FAILURE, as the original's StressAction ends a run it did not finish.
func (r *stressRun) failure(ctx context.Context, err error) error {
	r.println("FAILURE")
	switch {
	case ctx.Err() != nil:
		return ErrInterrupted
	case err == nil:
		return ErrFailure
	}
	return err
}

// sleep waits d, cut short when ctx ends.
func sleep(ctx context.Context, d time.Duration) { within.Sleep(ctx, d) }

// count is n=, or -1 without it.
func (r *stressRun) count() int64 {
	if r.s.Command.Stop == settings.StopCount {
		return r.s.Command.Count
	}
	return -1
}

func (r *stressRun) truncate(ctx context.Context) error {
	for _, t := range r.tables {
		if err := r.sess.Query("TRUNCATE " + t).ExecContext(ctx); err != nil {
			return fmt.Errorf("truncate %s: %v", t, err)
		}
	}
	return nil
}

// warmup is the original's: each op type on its own, 25% of n but at most
// 50,000 operations (50,000 without n=) per node, on at most 100 threads,
// nothing printed but its first line and nothing measured.
func (r *stressRun) warmup(ctx context.Context) error {
	it, threads := r.warmupSize()
	if it <= 0 {
		return nil
	}
	r.m.Fresh(r.newPop(), r.s) // one for all the warm-up's op types
	for _, k := range cassandrastress.SortedKinds(kindSet(r.kinds)) {
		r.println(fmt.Sprintf("Warming up %s with %d iterations...", k, it))
		if _, err := r.runOnce(ctx, []cassandrastress.Kind{k}, threads, it, true); err != nil || ctx.Err() != nil {
			return err
		}
	}
	return nil
}

// warmupSize is the warm-up's iterations and threads (StressAction.warmup).
func (r *stressRun) warmupSize() (int64, int) {
	s := r.s
	it := int64(50000)
	if c := r.count(); c >= 0 {
		it = min(50000, int64(float64(c)*0.25))
	}
	it *= int64(len(s.Node.Nodes))
	threads := 100
	if s.Rate.MaxThreads > 0 {
		threads = min(threads, s.Rate.MaxThreads)
	}
	if s.Rate.Threads > 0 {
		threads = min(threads, s.Rate.Threads)
	}
	return it, threads
}

func kindSet(ks []cassandrastress.Kind) (seen [cassandrastress.NumKinds]bool) {
	for _, k := range ks {
		seen[k] = true
	}
	return seen
}

// desc is the original's OpDistributionFactory.desc: the op type, or for
// mixed the list of weights.
func (r *stressRun) desc(kinds []cassandrastress.Kind) string {
	if len(kinds) == 1 && r.s.Command.Type != settings.CmdMixed {
		return kinds[0].String()
	}
	if len(kinds) == 1 {
		return kinds[0].String()
	}
	var parts []string
	for _, cr := range r.s.Command.Ratios {
		if cr.Weight > 0 {
			parts = append(parts, strings.ToUpper(cr.Command.String())+":"+strconv.FormatFloat(cr.Weight, 'f', 1, 64))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// stopMode is how a run of count operations (-1: none) stops, as the
// original's "Running ..." line says it.
func (r *stressRun) stopMode(count int64, warmup bool) string {
	c := r.s.Command
	switch {
	case r.step != nil && !warmup:
		return fmt.Sprintf("for %s at fixed=%d/s after %s of warm-up (capacity step %d)", r.step.dur, r.step.rate, capacityWarmup, r.step.n)
	case c.Stop == settings.StopDuration && !warmup:
		return strconv.FormatInt(int64(c.Duration/time.Second), 10) + " seconds"
	case count > 0:
		return "for " + strconv.FormatInt(count, 10) + " iteration"
	}
	return "until stderr of mean < " + strconv.FormatFloat(c.TargetUncertainty, 'f', -1, 64)
}

// runOnce is the original's StressAction.run: one run of kinds on threads
// workers for count operations (-1: until duration= or err<), on the
// engine. The warm-up prints only its first line and measures nothing.
func (r *stressRun) runOnce(ctx context.Context, kinds []cassandrastress.Kind, threads int, count int64, warmup bool) (*metrics, error) {
	s := r.s
	mode := r.stopMode(count, warmup)
	out := r.out
	if warmup {
		out = io.Discard
	}
	fmt.Fprintf(out, "Running %s with %d threads %s\n", r.desc(kinds), threads, mode)

	if !warmup {
		r.m.Fresh(r.newPop(), s)
	}
	wl := cassandrastress.NewPredefined(r.m, kinds, s)
	plan := r.plan(wl, threads, count, warmup)
	// NOT_FOUND on its own: a read of no row under skip-read-validation.
	plan.Measurement.Tracked[db.NotFound] = true
	met, err := newMetrics(out, plan.Target > 0 && (s.Rate.Fixed || r.step != nil), cassandrastress.KindRows)
	if err != nil {
		return nil, err
	}
	return r.measure(ctx, wl, &wl.RunState, plan, met, threads, count, warmup)
}

// measure runs plan, the run of wl (whose state is st) on threads workers
// for count operations (-1: until duration= or err<), measured by met:
// what the predefined commands' and user's runOnce share once each has
// its workload and its metrics.
func (r *stressRun) measure(ctx context.Context, wl ycsbworkload.Workload, st *cassandrastress.RunState, plan *run.Plan, met *metrics, threads int, count int64, warmup bool) (*metrics, error) {
	s := r.s
	outs, err := r.files().Open(r.out, threads, warmup)
	if err != nil {
		return nil, err
	}
	defer outs.Release()
	met.Stop = wl.Stop
	met.HDR = outs.HDR()
	if !warmup {
		// the failure line among the interval lines, as it happens
		st.OnFail = met.PrintLine
		if s.Log.Level != settings.LevelMinimal {
			st.OnRetry = func(err error) { r.errLine(err) }
		}
	}
	// Only the predefined commands' workers speculate (docs/stress.md).
	if _, predefined := wl.(*cassandrastress.Predefined); predefined && !warmup && r.m != nil && r.m.SpecDelay() > 0 {
		met.Spec = func() (int64, int64) { return st.SpecSent.Load(), st.SpecWon.Load() }
		outs.Stats = func() []db.Stat {
			return []db.Stat{
				{Section: "CASSANDRA", Name: "SpeculativeRequests", Value: st.SpecSent.Load()},
				{Section: "CASSANDRA", Name: "SpeculativeWins", Value: st.SpecWon.Load()},
			}
		}
	}
	if outs.HDR() != nil && s.Rate.OpsPerSecond > 0 {
		// -log hdrfile= under a rate logs wait times: the workload
		// records them, as the engine does not.
		st.Waits.Track(met.Rows())
		met.Waits = st.Waits.Harvest
	}
	if !warmup && count < 0 && s.Command.Stop == settings.StopUncertainty && r.step == nil {
		c := s.Command
		met.StopAt = func(n int, unc float64) bool {
			return unc < c.TargetUncertainty && n >= c.MinMeasurements || n >= c.MaxMeasurements
		}
	}
	if err := r.execute(ctx, plan, st, met, outs, warmup); err != nil {
		return nil, err
	}
	return met, nil
}

// population is a fresh -pop: its sequence starts again.
func (r *stressRun) population() *data.Population { return r.newPop() }
