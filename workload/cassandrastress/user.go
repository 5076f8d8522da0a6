package cassandrastress

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/cassandra"
	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/backoff"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	ycsbworkload "github.com/goycsb/ycsb/workload"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
	"github.com/goycsb/ycsb/workload/cassandrastress/profile"
)

// The user command: `user profile=a.yaml[,b.yaml] ops(insert=1,q=2)`, the
// original's StressProfile with SchemaInsert and SchemaQuery
// (operations/userdefined in scylladb/cassandra-stress).

// UserSetup is the user command's workload as it is set up, from the
// command line (s): its profiles and ops(...) (Load), their keyspaces and
// tables made on the node, their statements prepared (Setup), then one
// Workload per run (NewWorkload). Its errors of bad input are BadInput.
type UserSetup struct {
	s *settings.Settings
	// stderr takes the original's warnings and the skipped columns
	stderr io.Writer
	// checkMemory refuses a run whose workers would each hold perWorker
	// bytes (what, why) and all together more than the machine's memory
	checkMemory func(perWorker float64, what, why string) error
	conn        *cassandra.Conn
	specs       []*userSpec
	ops         []*userOp
	cluster     *data.Dist
}

// NewUserSetup is the setup of s's user command; checkMemory is the
// front end's memory check of the run's workers.
func NewUserSetup(s *settings.Settings, stderr io.Writer, checkMemory func(perWorker float64, what, why string) error) *UserSetup {
	return &UserSetup{s: s, stderr: stderr, checkMemory: checkMemory}
}

// Load reads the profiles and ops(...) and checks what the profiles
// generate, before anything is created when their table_definition says
// the columns (else Setup does, once the node does).
func (r *UserSetup) Load(ctx context.Context) error {
	s := r.s
	specs, ops, err := r.loadUser(ctx)
	if err != nil {
		return err
	}
	cluster, err := data.ParseDist(s.Command.Clustering.String())
	if err != nil {
		return bad("clustering=%s: %v", s.Command.Clustering, err)
	}
	r.specs, r.ops, r.cluster = specs, ops, cluster
	return r.userChecks(specs, ops, func(sp *userSpec) ([]column, bool) { return definedColumns(sp.p, s.Errors.SkipUnsupportedColumns) }, false)
}

// Setup readies the node and the ops on conn (where names its nodes):
// the ring's token ranges if an op reads them, the profiles' keyspaces
// and tables, the bounds that need the node's columns, and each op's
// statement. setupErr makes a failure to set up the run its error.
func (r *UserSetup) Setup(ctx context.Context, conn *cassandra.Conn, where string, setupErr func(error) error) error {
	r.conn = conn
	return r.userSetup(ctx, conn.Admin(), where, r.specs, r.ops, setupErr)
}

// Open opens the driver session of each profile's keyspace, and with
// protocol v4 its lean request path, which single statements take (as
// the predefined commands'); batches, validation and token range reads
// take the session.
func (r *UserSetup) Open(ctx context.Context) error {
	for _, sp := range r.specs {
		if _, err := r.conn.Open(ctx, sp.p.Keyspace); err != nil {
			return err
		}
	}
	return nil
}

// Truncate truncates each profile's table.
func (r *UserSetup) Truncate(ctx context.Context) error {
	for _, sp := range r.specs {
		sess, err := r.conn.Open(ctx, sp.p.Keyspace) // open: Open opened it
		if err == nil {
			err = sess.Query("TRUNCATE " + quoteIdent(sp.p.Table)).ExecContext(ctx)
		}
		if err != nil {
			return fmt.Errorf("truncate %s.%s: %v", sp.p.Keyspace, sp.p.Table, err)
		}
	}
	return nil
}

// OpNames are the names of ops(...) as typed, the rows of every run's
// metrics.
func (r *UserSetup) OpNames() []string { return userOpNames(r.ops) }

// Tally is op k's partitions and rows so far (the metrics' pk/s and
// row/s).
func (r *UserSetup) Tally(k int) (int64, int64) { return r.ops[k].parts.Load(), r.ops[k].rows.Load() }

// UserWorkload is one run's workload of the user command: the weighted
// mix of its ops.
type UserWorkload = userWorkload

// NewWorkload is one run of ops (indexes into ops(...); nil: all of them)
// drawing from pop, a fresh -pop, as the original makes a SeedManager per
// run (SettingsCommandUser.getFactory); count (-1: none) is the permits,
// partitions in all, as the original's FixedWorkManager counts them. A
// warm-up runs one op at a time.
func (r *UserSetup) NewWorkload(opIdx []int, pop *data.Population, count int64, warmup bool) *UserWorkload {
	s := r.s
	ops := r.ops
	if opIdx != nil {
		ops = nil
		for _, i := range opIdx {
			ops = append(ops, r.ops[i])
		}
	}
	wl := &userWorkload{errs: s.Errors, ops: ops, seeds: data.NewSeedManager(pop, s.Insert.Visits, s.Insert.Revisit), cluster: r.cluster,
		trIters: map[*userOp]*trIterator{}, warmup: warmup, cl: Consistency(s.Command.CL)}
	for _, o := range ops {
		if o.tr != nil {
			// a TokenRangeIterator per run, as getFactory makes one
			wl.trIters[o] = &trIterator{n: len(o.tr.ranges), wrap: s.TokenRange.Wrap}
		}
	}
	for _, o := range ops {
		o.parts.Store(0)
		o.rows.Store(0)
		if o.weight > 0 || len(ops) == 1 {
			wl.sum += max(o.weight, 0)
		}
		wl.cum = append(wl.cum, wl.sum)
	}
	if count >= 0 {
		wl.limited = true
		wl.permits.Store(count)
	}
	return wl
}

// userOpNames are the names of ops as typed in ops(...).
func userOpNames(ops []*userOp) []string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = o.name
	}
	return names
}

// column is one column of the profile's table, from system_schema.
type column struct {
	name string
	kind string // partition_key, clustering, regular, static
	pos  int
	typ  data.CQLType
	spec *profile.ColumnSpec
}

// userSpec is one loaded profile with its table.
type userSpec struct {
	p           *profile.Profile
	pk, ck, vs  []column
	insertCQL   string
	insertMarks []int // insertCQL's markers (insertBinds)
	counter     bool
	partitions  *data.Dist
	sel, rowPop data.Ratio
	readRowPop  data.Ratio // a query's: -insert row-population-ratio= alone (SchemaQuery)
	batch       gocql.BatchType
	batchName   string
	insertCL    gocql.Consistency
	insertSCL   gocql.Consistency // serial consistency
	queries     map[string]*userQuery
	sorted      bool // -pop contents=sorted
	shuffled    bool // -pop contents=shuffled
}

type userQuery struct {
	q      *profile.Query
	binds  []int // index into the row: -1-i key column i, then ck, then values
	cl     gocql.Consistency
	serial gocql.Consistency
}

// userOp is one entry of ops(...).
type userOp struct {
	name   string // as typed in ops(...)
	qname  string // insert, or the query's name
	spec   *userSpec
	query  *userQuery // nil: insert (or a token range query)
	trDef  *profile.TokenRangeQuery
	tr     *userTR       // a token range query
	valid  bool          // ops(validate=...): the original's validate op
	val    *userValidate // its statements, once the table's columns are known
	weight float64
	op     measurement.Op // its row in the run's metrics
	parts  atomic.Int64
	rows   atomic.Int64
}

func quoteIdent(s string) string {
	if regexp.MustCompile(`^[a-z0-9_]+$`).MatchString(s) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func (r *UserSetup) loadUser(ctx context.Context) ([]*userSpec, []*userOp, error) {
	s := r.s
	var specs []*userSpec
	for _, f := range s.Command.Profiles {
		p, err := profile.Load(ctx, f)
		if err != nil {
			return nil, nil, badInput(fmt.Errorf("user: %w", err))
		}
		specs = append(specs, &userSpec{p: p, sorted: s.Population.Order == settings.OrderSorted, shuffled: s.Population.Order == settings.OrderShuffled})
	}
	if len(specs) == 0 {
		return nil, nil, bad("user: profile= is required")
	}
	var ops []*userOp
	for _, o := range s.Command.Ops {
		name := strings.ToLower(o.Op)
		var sp *userSpec
		opName := name
		if len(specs) == 1 {
			sp = specs[0]
			if i := strings.LastIndexByte(name, '.'); i >= 0 && strings.EqualFold(name[:i], sp.p.SpecName) {
				opName = name[i+1:]
			}
		} else {
			for _, c := range specs {
				if i := strings.LastIndexByte(name, '.'); i >= 0 && strings.EqualFold(name[:i], c.p.SpecName) {
					sp, opName = c, name[i+1:]
				}
			}
			if sp == nil {
				return nil, nil, bad("ops(%s): with several profiles, name the operation specname.op (specnames: %s)", o.Op, specNames(specs))
			}
		}
		if opName == "validate" {
			// SettingsCommandUser.getFactory: validate before the
			// profile's token range queries and queries
			ops = append(ops, &userOp{name: o.Op, qname: opName, spec: sp, weight: o.Weight, valid: true})
			continue
		}
		var trDef *profile.TokenRangeQuery
		for i, tr := range sp.p.TokenRangeQueries {
			if strings.EqualFold(tr.Name, opName) {
				trDef = &sp.p.TokenRangeQueries[i]
			}
		}
		if trDef != nil {
			ops = append(ops, &userOp{name: o.Op, qname: opName, spec: sp, weight: o.Weight, trDef: trDef})
			continue
		}
		if opName != "insert" && sp.p.Query(opName) == nil {
			return nil, nil, bad("ops(%s): no query %s in %s", o.Op, opName, sp.p.File)
		}
		ops = append(ops, &userOp{name: o.Op, qname: opName, spec: sp, weight: o.Weight})
	}
	if _, err := RowOps(userOpNames(ops)); err != nil {
		return nil, nil, bad("ops(...): %v", err)
	}
	for i, o := range ops {
		o.op = measurement.Op(i)
	}
	return specs, ops, nil
}

func specNames(specs []*userSpec) string {
	var n []string
	for _, s := range specs {
		n = append(n, s.p.SpecName)
	}
	return strings.Join(n, ", ")
}

// exec runs DDL, ignoring "already exists" as the original does.
func execDDL(ctx context.Context, sess *gocql.Session, cql string) error {
	err := sess.Query(cql).Consistency(gocql.Quorum).ExecContext(ctx)
	var ae *gocql.RequestErrAlreadyExists
	if errors.As(err, &ae) {
		return nil
	}
	return err
}

// userSchema is StressProfile.maybeCreateSchema and maybeLoadSchemaInfo:
// the keyspace, the table and the extra definitions, then the table's
// columns from system_schema.
func (r *UserSetup) userSchema(ctx context.Context, sess *gocql.Session, sp *userSpec) error {
	p := sp.p
	if p.KeyspaceDefinition != "" {
		if err := execDDL(ctx, sess, p.KeyspaceDefinition); err != nil {
			return fmt.Errorf("%s: keyspace_definition: %v", p.File, err)
		}
	}
	ks, err := r.conn.Open(ctx, p.Keyspace)
	if err != nil {
		return fmt.Errorf("%s: keyspace %s: %v", p.File, p.Keyspace, err)
	}
	if p.TableDefinition != "" {
		if err := execDDL(ctx, ks, p.TableDefinition); err != nil {
			return fmt.Errorf("%s: table_definition: %v", p.File, err)
		}
	}
	for i, x := range p.ExtraDefinitions {
		if err := execDDL(ctx, ks, x); err != nil {
			return fmt.Errorf("%s: extra_definitions[%d]: %v", p.File, i, err)
		}
	}
	if p.TableDefinition != "" || len(p.ExtraDefinitions) > 0 {
		// The original sleeps a second per node "for propagation".
		sess.AwaitSchemaAgreement(ctx)
	}
	iter := sess.Query(`SELECT column_name, kind, position, type FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?`,
		strings.ToLower(p.Keyspace), strings.ToLower(p.Table)).IterContext(ctx)
	var c column
	var typ string
	var cols []column
	var skipped []string
	for iter.Scan(&c.name, &c.kind, &c.pos, &typ) {
		t, keep, err := columnType(c.kind, typ, r.s.Errors.SkipUnsupportedColumns)
		if err != nil {
			iter.Close()
			return fmt.Errorf("%s: table %s.%s column %s: %v", p.File, p.Keyspace, p.Table, c.name, err)
		}
		if !keep {
			skipped = append(skipped, c.name+" "+typ)
			continue
		}
		c.typ = t
		c.spec = p.Column(c.name)
		cols = append(cols, c)
	}
	if err := iter.Close(); err != nil {
		return fmt.Errorf("%s: columns of %s.%s: %v", p.File, p.Keyspace, p.Table, err)
	}
	if len(skipped) > 0 {
		fmt.Fprintf(r.stderr, "%s: table %s.%s: skipping columns of types not generated (-errors skip-unsupported-columns): %s\n",
			p.File, p.Keyspace, p.Table, strings.Join(skipped, ", "))
	}
	if err := sp.setColumns(cols); err != nil {
		return err
	}
	return r.userStatements(sp, func(cql string) ([]string, error) { return preparedArgs(ctx, ks, cql) })
}

var errPrepared = errors.New("prepared")

// preparedArgs are the names of a statement's bind variables as the node
// reports them on preparing it, as the original takes them from its
// PreparedStatement's variables: the column for "col = ?" (and <, IN,
// CONTAINS, ...), "[limit]" for "LIMIT ?", "partition key token" for
// "token(k) > ?".
func preparedArgs(ctx context.Context, sess *gocql.Session, cql string) ([]string, error) {
	var names []string
	err := sess.Bind(cql, func(qi *gocql.QueryInfo) ([]any, error) {
		for _, a := range qi.Args {
			names = append(names, a.Name)
		}
		return nil, errPrepared
	}).ExecContext(ctx)
	if !errors.Is(err, errPrepared) {
		return nil, err
	}
	return names, nil
}

// setColumns sorts the table's columns as the original's PartitionGenerator
// takes them (partition key and clustering columns by position, the others
// by name) and checks that every columnspec names one of them.
func (sp *userSpec) setColumns(cols []column) error {
	p := sp.p
	if len(cols) == 0 {
		return fmt.Errorf("%s: unable to find table %s.%s", p.File, p.Keyspace, p.Table)
	}
	sort.Slice(cols, func(i, j int) bool {
		rank := map[string]int{"partition_key": 0, "clustering": 1}
		ri, ok := rank[cols[i].kind]
		if !ok {
			ri = 2
		}
		rj, ok := rank[cols[j].kind]
		if !ok {
			rj = 2
		}
		if ri != rj {
			return ri < rj
		}
		if ri < 2 {
			return cols[i].pos < cols[j].pos
		}
		return cols[i].name < cols[j].name
	})
	for _, c := range cols {
		switch c.kind {
		case "partition_key":
			sp.pk = append(sp.pk, c)
		case "clustering":
			sp.ck = append(sp.ck, c)
		default:
			sp.vs = append(sp.vs, c)
		}
	}
	for _, cs := range p.Columns {
		found := false
		for _, c := range cols {
			found = found || c.name == cs.Name
		}
		if !found {
			return fmt.Errorf("%s: columnspec: table %s.%s has no column %s", p.File, p.Keyspace, p.Table, cs.Name)
		}
	}
	return nil
}

// userStatements is StressProfile.prepareQuery and the insert settings:
// an UPDATE of every value column (counters and non-frozen collections
// added to) by the primary key, or for a key-only table an INSERT.
func (r *UserSetup) userStatements(sp *userSpec, argNames func(cql string) ([]string, error)) error {
	p := sp.p
	var b strings.Builder
	if len(sp.vs) > 0 {
		b.WriteString("UPDATE " + quoteIdent(p.Table) + " SET ")
		for i, c := range sp.vs {
			if i > 0 {
				b.WriteByte(',')
			}
			n := quoteIdent(c.name)
			if c.typ.Name == "counter" || (c.typ.Name == "list" || c.typ.Name == "set") && !c.typ.Frozen {
				b.WriteString(n + " = " + n + " + ?")
				sp.counter = sp.counter || c.typ.Name == "counter"
			} else {
				b.WriteString(n + " = ?")
			}
		}
		b.WriteString(" WHERE ")
		for i, c := range append(append([]column{}, sp.pk...), sp.ck...) {
			if i > 0 {
				b.WriteString(" AND ")
			}
			b.WriteString(quoteIdent(c.name) + " = ?")
		}
	} else {
		var names, qs []string
		for _, c := range append(append([]column{}, sp.pk...), sp.ck...) {
			names = append(names, quoteIdent(c.name))
			qs = append(qs, "?")
		}
		b.WriteString("INSERT INTO " + quoteIdent(p.Table) + " (" + strings.Join(names, ", ") + ") values(" + strings.Join(qs, ", ") + ")")
	}
	sp.insertCQL = b.String()
	sp.insertMarks = sp.insertBinds()
	if err := r.insertOptions(sp); err != nil {
		return err
	}
	if argNames == nil {
		return nil
	}
	return r.queryBinds(sp, argNames)
}

// insertOptions resolves the insert's options: -insert's, else the
// profile's, else the defaults.
func (r *UserSetup) insertOptions(sp *userSpec) error {
	p := sp.p
	in, s := p.Insert, r.s
	var err error
	sp.partitions = in.Partitions
	if s.Insert.Partitions != nil {
		if sp.partitions, err = data.ParseDist(s.Insert.Partitions.String()); err != nil {
			return bad("-insert partitions=%s: %v", s.Insert.Partitions, err)
		}
	}
	if sp.partitions == nil {
		sp.partitions = data.MustParseDist(profile.DefaultPartitions)
	}
	ratio := func(cmd *settings.RatioDist, yaml *data.Ratio, def string) (data.Ratio, error) {
		if cmd != nil {
			return data.ParseRatio(cmd.String())
		}
		if yaml != nil {
			return *yaml, nil
		}
		return data.ParseRatio(def)
	}
	if sp.sel, err = ratio(s.Insert.SelectRatio, in.Select, profile.DefaultSelect); err != nil {
		return bad("-insert select-ratio=: %v", err)
	}
	var rp *settings.RatioDist
	if s.Insert.RowPopulationRatio.String() != "FIXED(1)/1" && s.Insert.RowPopulationRatio.Divisor != 0 {
		rp = &s.Insert.RowPopulationRatio
	}
	if sp.rowPop, err = ratio(rp, in.RowPopulation, profile.DefaultRowPopulation); err != nil {
		return bad("-insert row-population-ratio=: %v", err)
	}
	if sp.readRowPop, err = data.ParseRatio(s.Insert.RowPopulationRatio.String()); err != nil {
		return bad("-insert row-population-ratio=: %v", err)
	}
	sp.batchName = in.BatchType
	if s.Insert.BatchType != settings.BatchNone {
		sp.batchName = s.Insert.BatchType.String()
	}
	if sp.batchName == "" {
		sp.batchName = "LOGGED"
	}
	sp.batch = map[string]gocql.BatchType{"LOGGED": gocql.LoggedBatch, "UNLOGGED": gocql.UnloggedBatch, "COUNTER": gocql.CounterBatch}[sp.batchName]
	if sp.counter && sp.batch != gocql.CounterBatch {
		// Cassandra refuses counter updates in other batches.
		sp.batch = gocql.CounterBatch
	}
	sp.insertCL = Consistency(s.Command.CL)
	if in.Consistency != "" {
		_ = sp.insertCL.UnmarshalText([]byte(in.Consistency))
	}
	// the profile's serialConsistencyLevel, else serial-cl= (StressProfile
	// sets one on every statement)
	sp.insertSCL = Consistency(s.Command.SerialCL)
	if in.SerialConsistency != "" {
		_ = sp.insertSCL.UnmarshalText([]byte(in.SerialConsistency))
	}
	return nil
}

// queryBinds prepares the profile's queries (argNames) to bind their
// markers to columns.
func (r *UserSetup) queryBinds(sp *userSpec, argNames func(cql string) ([]string, error)) error {
	p, s := sp.p, r.s
	sp.queries = map[string]*userQuery{}
	for i := range p.Queries {
		q := &p.Queries[i]
		uq := &userQuery{q: q, cl: Consistency(s.Command.CL), serial: Consistency(s.Command.SerialCL)}
		if q.Consistency != "" {
			_ = uq.cl.UnmarshalText([]byte(q.Consistency))
		}
		if q.SerialConsistency != "" {
			_ = uq.serial.UnmarshalText([]byte(q.SerialConsistency))
		}
		names, err := argNames(q.CQL)
		if err != nil {
			return bad("%s: queries.%s: %v", p.File, q.Name, err)
		}
		for _, name := range names {
			idx, ok := sp.index(name)
			if !ok {
				return bad("%s: queries.%s: a ? is bound to %s, which is not a column of %s.%s (the original binds only column values)", p.File, q.Name, name, p.Keyspace, p.Table)
			}
			uq.binds = append(uq.binds, idx)
		}
		sp.queries[q.Name] = uq
	}
	return nil
}

// guards are the original's checks of the batch and partition sizes;
// warn prints its warnings.
func (r *UserSetup) guards(sp *userSpec, gen *data.PartitionGen, warn bool) error {
	maxBatch := sp.sel.Max() * float64(sp.partitions.MaxValue()) * gen.MaxRows
	if gen.MaxRows > 100*1000*1000 && warn {
		fmt.Fprintf(r.stderr, "WARNING: You have defined a schema that permits very large partitions (%.0f max rows (>100M))\n", gen.MaxRows)
	}
	if sp.batch == gocql.LoggedBatch && maxBatch > 65535 {
		return bad("ERROR: You have defined a workload that generates batches with more than 65k rows (%.0f), but have required the use of LOGGED batches. There is a 65k row limit on a single batch.", maxBatch)
	}
	if maxBatch > 100000 && warn {
		fmt.Fprintf(r.stderr, "WARNING: You have defined a schema that permits very large batches (%.0f max rows (>100K)). This may OOM this stress client, or the server.\n", maxBatch)
	}
	return nil
}

// index is PartitionGenerator.indexOf, in this package's row layout.
func (sp *userSpec) index(name string) (int, bool) {
	name = strings.ToLower(strings.Trim(name, `"`))
	for i, c := range sp.pk {
		if c.name == name {
			return -1 - i, true
		}
	}
	for i, c := range sp.ck {
		if c.name == name {
			return i, true
		}
	}
	for i, c := range sp.vs {
		if c.name == name {
			return len(sp.ck) + i, true
		}
	}
	return 0, false
}

func (sp *userSpec) newGen() (*data.PartitionGen, error) {
	mk := func(cs []column) ([]*data.Generator, error) {
		var gs []*data.Generator
		for _, c := range cs {
			var size, pop, cl *data.Dist
			if c.spec != nil {
				size, pop, cl = c.spec.Size, c.spec.Population, c.spec.Cluster
			}
			g, err := data.NewGenerator(c.name, c.typ, size, pop, cl)
			if err != nil {
				return nil, err
			}
			gs = append(gs, g)
		}
		return gs, nil
	}
	pk, err := mk(sp.pk)
	if err != nil {
		return nil, err
	}
	ck, err := mk(sp.ck)
	if err != nil {
		return nil, err
	}
	vs, err := mk(sp.vs)
	if err != nil {
		return nil, err
	}
	g := data.NewPartitionGen(pk, ck, vs)
	g.Sorted, g.Shuffled = sp.sorted, sp.shuffled
	return g, nil
}

// runUser is the user command: Main's path for CmdUser.
// userSetup readies the node and the ops through admin, a session of no
// keyspace (the compression checked): the ring's token ranges if an op reads
// them, the profiles' keyspaces and tables, the bounds that need the
// node's columns, and each op's statement.
func (r *UserSetup) userSetup(ctx context.Context, admin *gocql.Session, where string, specs []*userSpec, ops []*userOp, setupErr func(error) error) error {
	var ranges []tokenRange
	for _, o := range ops {
		if o.trDef != nil && ranges == nil {
			var err error
			if ranges, err = r.tokenRanges(ctx, admin, where); err != nil {
				return setupErr(err)
			}
		}
	}
	for _, sp := range specs {
		if err := r.userSchema(ctx, admin, sp); err != nil {
			return setupErr(err)
		}
	}
	if err := r.userChecks(specs, ops, func(sp *userSpec) ([]column, bool) { return nil, true }, true); err != nil {
		return err
	}
	for _, o := range ops {
		switch {
		case o.trDef != nil:
			o.tr = o.spec.newTR(o.trDef, ranges)
		case o.valid:
			o.val = o.spec.newValidate(Consistency(r.s.Command.SerialCL))
		case o.qname != "insert":
			o.query = o.spec.queries[o.qname]
		}
	}
	return nil
}

// userChecks runs the original's guards and the bounds on every profile
// (see userLimits), and the memory check of them all. cols gives a
// profile's table columns for a spec whose own are not set yet (ok false:
// not known, the profile is not checked); the table's are the node's once
// set, and then the original's warnings are printed (warn).
func (r *UserSetup) userChecks(specs []*userSpec, ops []*userOp, cols func(*userSpec) ([]column, bool), warn bool) error {
	var perWorker float64
	var what []string
	for _, sp := range specs {
		c := sp
		if len(sp.pk) == 0 {
			cs, ok := cols(sp)
			if !ok {
				continue
			}
			c = &userSpec{p: sp.p, sorted: sp.sorted, shuffled: sp.shuffled}
			if c.setColumns(cs) != nil || r.userStatements(c, nil) != nil {
				continue // left to the node's columns
			}
		}
		g, err := c.newGen()
		if err != nil {
			if !warn {
				continue
			}
			return &BadInput{Err: fmt.Errorf("%s: %v", sp.p.File, err)}
		}
		if err := r.guards(c, g, warn); err != nil {
			return err
		}
		validate := false
		for _, o := range ops {
			validate = validate || o.valid && o.spec == sp
		}
		w, err := r.userLimits(c, g, validate)
		if err != nil {
			return err
		}
		perWorker += w
		what = append(what, sp.p.File)
	}
	if len(what) == 0 {
		return nil
	}
	return r.checkMemory(perWorker, "profile "+strings.Join(what, ", "), "the clustering values of their partitions and the rows of an insert, twice")
}

// definedColumns are the columns of p's table_definition (ok false: none,
// or not understood, or of a type not generated and not skipped).
func definedColumns(p *profile.Profile, skipUnsupported bool) ([]column, bool) {
	dcs, ok := p.DefinedColumns()
	if !ok {
		return nil, false
	}
	var cols []column
	for _, dc := range dcs {
		t, keep, err := columnType(dc.Kind, dc.Type, skipUnsupported)
		if err != nil {
			return nil, false
		}
		if keep {
			cols = append(cols, column{name: dc.Name, kind: dc.Kind, pos: dc.Position, typ: t, spec: p.Column(dc.Name)})
		}
	}
	return cols, true
}

// columnType is the type of a column of the given kind (partition_key,
// clustering, regular, static). A type that is not generated is an error,
// or, with -errors skip-unsupported-columns, leaves a column that is no
// key out of the rows generated (keep false), as the original's Scylla
// fork does with maps and nested collections. A key column is always
// generated.
func columnType(kind, typ string, skipUnsupported bool) (t data.CQLType, keep bool, err error) {
	t, err = data.ParseCQLType(typ)
	switch {
	case err == nil:
		return t, true, nil
	case skipUnsupported && (kind == "regular" || kind == "static"):
		return t, false, nil
	case kind == "regular" || kind == "static":
		return t, false, fmt.Errorf("%v (-errors skip-unsupported-columns leaves such a column out of the rows generated)", err)
	}
	return t, false, err
}

// tokenRanges are the ring's token ranges split by -tokenrange
// split-factor=, at most settings.MaxTokenRanges of them.
func (r *UserSetup) tokenRanges(ctx context.Context, admin *gocql.Session, where string) ([]tokenRange, error) {
	ranges, err := ringRanges(ctx, admin)
	if err != nil {
		return nil, fmt.Errorf("token ranges of %s: %v", where, err)
	}
	f := r.s.TokenRange.SplitFactor
	if n := int64(len(ranges)) * int64(f); n > settings.MaxTokenRanges {
		return nil, bad("%s: the ring's %d token ranges split in %d make %d; at most %d (each is kept, and read by at least one query)",
			r.s.Option("-tokenrange", "split-factor=", strconv.Itoa(f)), len(ranges), f, n, settings.MaxTokenRanges)
	}
	return splitRanges(ranges, f), nil
}

// userWorkload runs the weighted mix of ops(...).
type userWorkload struct {
	// errs is -errors: tries and what ends them
	errs    settings.ErrorSettings
	ops     []*userOp
	cum     []float64
	sum     float64
	cluster *data.Dist
	seeds   *data.SeedManager
	trIters map[*userOp]*trIterator // per token range query
	warmup  bool
	cl      gocql.Consistency // cl=, for token range queries
	RunState
	// permits: the partitions left to visit under n= (limited)
	limited bool
	permits atomic.Int64
	// runSeed is the run's seed, for contents=shuffled
	seedOnce sync.Once
	runSeed  uint64
}

// rows are the metrics' rows of the run's ops.
func (w *userWorkload) rows() []int {
	s := make([]int, len(w.ops))
	for i, o := range w.ops {
		s[i] = int(o.op)
	}
	return s
}

// take is WorkManager.takePermits: up to n partitions of those left, 0
// when none are.
func (w *userWorkload) take(n int) int {
	if !w.limited {
		return n
	}
	for {
		cur := w.permits.Load()
		if cur <= 0 {
			return 0
		}
		k := min(int64(n), cur)
		if w.permits.CompareAndSwap(cur, cur-k) {
			return int(k)
		}
	}
}

var _ ycsbworkload.Workload = (*userWorkload)(nil)

// rawArg binds a value already serialized (nil: null).
type rawArg struct{ b []byte }

func (a *rawArg) MarshalCQL(gocql.TypeInfo) ([]byte, error) { return a.b, nil }

// userGen is a worker's generators for one profile.
type userGen struct {
	gen   *data.PartitionGen
	parts []*data.Partition
}

type userWorker struct {
	w *userWorkload
	s *measured.Session
	// sessions are the driver sessions of the profiles' keyspaces, from
	// s's CQL
	sessions map[string]*gocql.Session
	r        *rand.Rand
	gens     map[*userSpec]*userGen
	args     []any
	raw      []rawArg
	// the bound values of the batch being filled, written over by the
	// next (batchRow); batchN of them are taken
	batchRaw  []rawArg
	batchArgs []any
	batchN    int
	cur       int
	left      int64
	// token range queries: the range under way, scan destinations
	trStates      map[*userOp]*trState
	trDst, trArgs []any
	waits         *workerWaits // nil: not tracked
	// the validate op: its generators, the depth of the run of
	// operations under way, and the operation's statement and bounds
	vgens    map[*userSpec]*validateGen
	vdepth   int
	vleft    int64
	vst      *valStmt
	vlo, vhi [][]byte
	// backoff spaces out the operations while no node can take them
	backoff backoff.Backoff
	// the lean path (nil: the driver's): its callers by keyspace, which
	// route each try (to another replica after a failed one), the one of
	// the last leanExec, the statements by query and by table (the
	// insert), the bound values and the routing key
	callers map[string]*cassandra.Caller
	last    *cassandra.Caller
	stmts   map[*userQuery]*cassandra.Stmt
	inserts map[*userSpec]*cassandra.Stmt
	lv      [][]byte
	rk      []byte
	rowBuf  [][]byte
	page    []byte
}

func (w *userWorkload) NewTransactor(s *measured.Session, seed uint64) ycsbworkload.Transactor {
	wk := &userWorker{w: w, s: s, r: rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909)), gens: map[*userSpec]*userGen{},
		trStates: map[*userOp]*trState{}, waits: w.Waits.newWorker(w.rows()), vgens: map[*userSpec]*validateGen{}}
	c := cqlOf(s)
	wk.sessions = map[string]*gocql.Session{}
	for _, o := range w.ops {
		ks := o.spec.p.Keyspace
		wk.sessions[ks] = c.Driver(ks)
		if l := c.Lean(ks); l != nil {
			if wk.callers == nil {
				wk.callers = map[string]*cassandra.Caller{}
				wk.stmts = map[*userQuery]*cassandra.Stmt{}
				wk.inserts = map[*userSpec]*cassandra.Stmt{}
			}
			if wk.callers[ks] == nil {
				wk.callers[ks] = l.Caller(0)
			}
		}
	}
	// The run's seed (the engine's base, its first worker's seed) seeds
	// contents=shuffled.
	w.seedOnce.Do(func() { w.runSeed = seed })
	for _, o := range w.ops {
		if wk.gens[o.spec] == nil {
			g, err := o.spec.newGen() // checked in runUser
			if err != nil {
				panic(err)
			}
			g.ShuffleSeed = w.runSeed
			wk.gens[o.spec] = &userGen{gen: g}
		}
	}
	return wk
}

func (wk *userWorker) DoInsert(ctx context.Context) bool { return wk.DoTransaction(ctx) }

func (wk *userWorker) next() *userOp {
	w := wk.w
	if len(w.ops) == 1 {
		o := w.ops[0]
		if o.val != nil {
			// its depths are ops of their own, in runs as several ops
			// are (one at a time in the warm-up, as the original's
			// each() samples them with clustering fixed(1))
			if wk.vleft <= 0 {
				wk.vdepth = wk.r.IntN(len(o.val.stmts))
				wk.vleft = 1
				if !w.warmup {
					wk.vleft = max(1, w.cluster.Next(wk.r))
				}
			}
			wk.vleft--
		}
		return o
	}
	if wk.left <= 0 {
		u := wk.r.Float64() * w.sum
		wk.cur = len(w.ops) - 1
		for i, c := range w.cum {
			if u < c {
				wk.cur = i
				break
			}
		}
		wk.left = max(1, w.cluster.Next(wk.r))
		if v := w.ops[wk.cur].val; v != nil {
			wk.vdepth = wk.r.IntN(len(v.stmts))
		}
	}
	wk.left--
	return w.ops[wk.cur]
}

// maxEmptySeeds bounds the seeds in a row an insert may find with no rows
// left to write (written whole by other workers meanwhile): a run where
// every partition is so cannot make progress, and fails.
const maxEmptySeeds = 1 << 16

func (wk *userWorker) DoTransaction(ctx context.Context) bool {
	o := wk.next()
	if o.tr != nil {
		if !wk.tokenRangeReady(o) {
			return false
		}
		return wk.timed(ctx, o, nil)
	}
	if o.val != nil {
		return wk.doValidate(ctx, o)
	}
	g := wk.gens[o.spec]
	// PartitionOperation.ready: the partitions of this operation.
	n := 1
	if o.query == nil {
		// no partitions ends the worker, as the original's nextOp
		if n = int(o.spec.partitions.Next(wk.r)); n <= 0 {
			return false
		}
	}
	if n = wk.w.take(n); n == 0 {
		return false
	}
	// the seeds, and the rows of each partition (reset): an insert's share
	// of it, or the rows a query binds
	sp, sm := o.spec, wk.w.seeds
	got, empty := 0, 0
	for got < n {
		if got == len(g.parts) {
			np := data.NewPartition(g.gen)
			np.Mark = sm.Done
			g.parts = append(g.parts, np)
		}
		p := g.parts[got]
		if o.query == nil {
			seed := sm.Next(wk.r, true)
			if seed == nil {
				break
			}
			p.Reset(seed.Index)
			if !p.Write(wk.r, seed, sp.sel.Next(wk.r), sp.rowPop.Next(wk.r)) {
				// nothing left of it: another seed, but not for ever
				if empty++; empty >= maxEmptySeeds {
					wk.w.fail(fmt.Sprintf("%s: no partition had rows left to insert in %d seeds in a row", o.name, empty))
					return false
				}
				if empty%1024 == 0 && (ctx.Err() != nil || wk.w.stop.Load()) {
					return false
				}
				continue
			}
		} else {
			idx, pos, ok := sm.NextRead(wk.r)
			if !ok {
				break
			}
			target := 1
			if o.query.q.Fields == profile.MultiRow {
				target = max(1, len(o.query.binds))
			}
			p.Reset(idx)
			p.Read(wk.r, pos, target, sp.readRowPop.Next(wk.r), target)
		}
		got++
	}
	if got == 0 {
		return false
	}
	n = got
	return wk.timed(ctx, o, g.parts[:n])
}

// timed runs an operation on parts (a token range query: its next page)
// with the retries of -errors retries= and records it.
func (wk *userWorker) timed(_ context.Context, o *userOp, parts []*data.Partition) bool {
	// The requests' context is the run's abort: Ctrl-C abandons them at
	// once (see runState).
	var nparts, rows int
	// Only the caller of the last operation can hold a failed node: an
	// operation's tries all go to its keyspace's.
	if wk.last != nil {
		wk.last.NewOperation()
	}
	t, ok := wk.w.try(&wk.backoff, &wk.w.errs, wk.w.errs.Tries(), wk.r,
		func(ctx context.Context) (err error) {
			if o.tr != nil {
				nparts, rows, err = wk.tokenRangePage(ctx, o)
			} else {
				nparts, rows, err = wk.attempt(ctx, o, parts)
			}
			return err
		},
		func(err error) bool { return err == errExpectedNull || errors.As(err, new(*validationError)) })
	if !ok {
		return false // abandoned: not counted, and the worker ends
	}
	if t.err == errExpectedNull {
		t.tries++ // the original's exception ends its tries as a try of its own
	}
	cause := t.err
	if t.err != nil {
		cause = fmt.Errorf("%s: %w", o.name, t.err)
	} else {
		o.parts.Add(int64(nparts))
		o.rows.Add(int64(rows))
	}
	return wk.w.finish(wk.s, wk.waits, &wk.backoff, &wk.w.errs, o.op, db.OK, t, cause,
		func() string { return userFailure(o.name, t.tries, parts, t.err) })
}

// userFailure is failureMessage for a profile's operation: each
// partition's key columns joined by "|", a column of printable bytes as
// text and any other in hex.
func userFailure(op string, tries int, parts []*data.Partition, err error) string {
	keys := make([]string, len(parts))
	for i, p := range parts {
		cols := make([]string, len(p.Key))
		for j, k := range p.Key {
			cols[j] = hex.EncodeToString(k)
			if printable(k) {
				cols[j] = string(k)
			}
		}
		keys[i] = strings.Join(cols, "|")
	}
	detail := "Error executing: " + err.Error()
	var ve *validationError
	if errors.As(err, &ve) {
		detail = ve.msg
	}
	return op + ": Operation x" + strconv.Itoa(tries) + " on key(s) [" + strings.Join(keys, ", ") + "]: " + detail
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return len(b) > 0
}

// bindRow fills the worker's argument buffers with a row's values in the
// order of binds (-1-i: key column i; then clustering; then values).
func (wk *userWorker) bind(binds []int, key [][]byte, row func(i int) *data.UserRow) []any {
	for len(wk.raw) < len(binds) {
		wk.raw = append(wk.raw, rawArg{})
	}
	wk.args = wk.args[:0]
	for i, b := range binds {
		wk.raw[i].b = boundValue(b, key, func() *data.UserRow { return row(i) })
		wk.args = append(wk.args, &wk.raw[i])
	}
	return wk.args
}

// boundValue is the value of bind marker b (see userQuery.binds): a key
// column's, else a column of the row row gives.
func boundValue(b int, key [][]byte, row func() *data.UserRow) []byte {
	if b < 0 {
		return key[-1-b]
	}
	return rowValue(b, key, row())
}

// rowValue is boundValue of the row r.
func rowValue(b int, key [][]byte, r *data.UserRow) []byte {
	if b < 0 {
		return key[-1-b]
	}
	if b < len(r.CK) {
		return r.CK[b]
	}
	return r.Vals[b-len(r.CK)]
}

// batchReset starts a batch: the next rows' values (batchRow) are written
// over the last batch's, which was sent.
func (wk *userWorker) batchReset() { wk.batchN = 0 }

// batchRow is the arguments of the batch's next row, the values binds
// picks from key and row, in storage the worker reuses from batch to batch
// (the batch holds them until it is sent). Storage that grows is new: the
// rows already in the batch keep theirs.
func (wk *userWorker) batchRow(binds []int, key [][]byte, row *data.UserRow) []any {
	start, end := wk.batchN, wk.batchN+len(binds)
	if end > len(wk.batchRaw) {
		n := max(end, 2*len(wk.batchRaw))
		wk.batchRaw, wk.batchArgs = make([]rawArg, n), make([]any, n)
	}
	args := wk.batchArgs[start:end:end]
	for i, b := range binds {
		a := &wk.batchRaw[start+i]
		a.b = rowValue(b, key, row)
		args[i] = a
	}
	wk.batchN = end
	return args
}

func (wk *userWorker) attempt(ctx context.Context, o *userOp, parts []*data.Partition) (int, int, error) {
	sp := o.spec
	sess := wk.sessions[sp.p.Keyspace]
	if o.val != nil {
		return wk.validateAttempt(ctx, o, parts[0])
	}
	if o.query == nil {
		return wk.insert(ctx, sess, sp, parts)
	}
	uq := o.query
	p := parts[0]
	pick := func(int) *data.UserRow {
		if uq.q.Fields == profile.SameRow {
			return p.Rows[0]
		}
		return p.Rows[wk.r.IntN(len(p.Rows))]
	}
	if wk.callers != nil {
		st := wk.stmts[uq]
		if st == nil {
			// The driver's page size (gocql's default, as the
			// original's driver's fetch size).
			st = &cassandra.Stmt{CQL: uq.q.CQL, Serial: uq.serial, PageSize: 5000}
			wk.stmts[uq] = st
		}
		n := 0
		err := wk.leanExec(ctx, sp, st, uq.cl, uq.binds, p.Key, pick)
		if err == nil {
			n, err = wk.leanRows(ctx, st, uq.cl)
		}
		clear(wk.lv)
		if err != nil {
			return 0, 0, err
		}
		return min(1, n), n, nil
	}
	args := wk.bind(uq.binds, p.Key, pick)
	q := sess.Query(uq.q.CQL, args...).Consistency(uq.cl).SerialConsistency(uq.serial).Idempotent(true)
	sc := q.IterContext(ctx).Scanner()
	n := 0
	for sc.Next() {
		n++
	}
	if err := sc.Err(); err != nil {
		return 0, 0, err
	}
	return min(1, n), n, nil
}

// insertBinds are the insert statement's markers: the value columns, then
// the key and clustering columns.
func (sp *userSpec) insertBinds() []int {
	var b []int
	for i := range sp.vs {
		b = append(b, len(sp.ck)+i)
	}
	for i := range sp.pk {
		b = append(b, -1-i)
	}
	for i := range sp.ck {
		b = append(b, i)
	}
	return b
}

// insert is SchemaInsert: the selected rows of each partition, one
// statement alone or a batch of the profile's type.
func (wk *userWorker) insert(ctx context.Context, sess *gocql.Session, sp *userSpec, parts []*data.Partition) (int, int, error) {
	binds := sp.insertMarks
	rows := 0
	for _, p := range parts {
		rows += len(p.Rows)
	}
	if rows == 1 && wk.callers != nil {
		p := parts[0]
		st := wk.inserts[sp]
		if st == nil {
			st = &cassandra.Stmt{CQL: sp.insertCQL, Serial: sp.insertSCL}
			wk.inserts[sp] = st
		}
		err := wk.leanExec(ctx, sp, st, sp.insertCL, binds, p.Key, func(int) *data.UserRow { return p.Rows[0] })
		clear(wk.lv)
		return 1, 1, err
	}
	if rows == 1 {
		p := parts[0]
		args := wk.bind(binds, p.Key, func(int) *data.UserRow { return p.Rows[0] })
		q := sess.Query(sp.insertCQL, args...).Consistency(sp.insertCL).SerialConsistency(sp.insertSCL)
		return 1, 1, q.ExecContext(ctx)
	}
	// A batch holds at most MaxBatchStatements statements (a [short] in
	// the protocol): more rows go as several batches in turn, and a last
	// one of a single row as that statement alone, as the original's
	// SchemaInsert sends them.
	var b *gocql.Batch
	var last []any
	flush := func() error {
		var err error
		if b.Size() == 1 {
			err = sess.Query(sp.insertCQL, last...).Consistency(sp.insertCL).SerialConsistency(sp.insertSCL).ExecContext(ctx)
		} else {
			err = b.ExecContext(ctx)
		}
		b = nil
		return err
	}
	for _, p := range parts {
		for _, row := range p.Rows {
			if b == nil {
				b = sess.Batch(sp.batch).Consistency(sp.insertCL).SerialConsistency(sp.insertSCL)
				wk.batchReset()
			}
			args := wk.batchRow(binds, p.Key, row)
			b.Query(sp.insertCQL, args...)
			last = args
			if b.Size() == settings.MaxBatchStatements {
				if err := flush(); err != nil {
					return len(parts), rows, err
				}
			}
		}
	}
	if b != nil {
		if err := flush(); err != nil {
			return len(parts), rows, err
		}
	}
	return len(parts), rows, nil
}

// leanExec runs st on the lean path with the values binds picks from the
// key and the rows row gives, routed by the statement's partition key.
func (wk *userWorker) leanExec(ctx context.Context, sp *userSpec, st *cassandra.Stmt, cl gocql.Consistency, binds []int, key [][]byte, row func(i int) *data.UserRow) error {
	vals := wk.lv[:0]
	for i, b := range binds {
		vals = append(vals, boundValue(b, key, func() *data.UserRow { return row(i) }))
	}
	wk.lv = vals
	wk.last = wk.callers[sp.p.Keyspace]
	// No second request: -mode speculativeDelay= is the predefined
	// commands' (docs/stress.md), and the callers have no delay.
	_, _, err := wk.last.Exec(ctx, sp.p.Table, st.RoutingKey(&wk.rk, vals), st, cl, vals, false)
	return err
}

// leanRows counts the rows of the query leanExec ran, every page of them.
func (wk *userWorker) leanRows(ctx context.Context, st *cassandra.Stmt, cl gocql.Consistency) (int, error) {
	n := 0
	for {
		var err error
		wk.rowBuf, err = wk.last.Rows(func([]string, [][]byte) bool { n++; return true }, wk.rowBuf)
		clear(wk.rowBuf)
		if err != nil {
			return n, err
		}
		ps := wk.last.PagingState()
		if ps == nil {
			return n, nil
		}
		wk.page = append(wk.page[:0], ps...)
		if err := wk.last.NextPage(ctx, st, cl, wk.lv, wk.page); err != nil {
			return n, err
		}
	}
}

// userLimits checks one profile's partitions, inserts and validate reads
// against the bounds, its table's columns being known (from
// table_definition or from the node), and returns what a worker holds
// for it at most.
func (r *UserSetup) userLimits(sp *userSpec, g *data.PartitionGen, validate bool) (float64, error) {
	s, p := r.s, sp.p
	f := g.Footprint()
	perr := func(key, format string, args ...any) error {
		return &BadInput{Err: &profile.Error{File: p.File, Key: key, Msg: fmt.Sprintf(format, args...)}}
	}
	var levels []string
	for i, c := range sp.ck {
		spec := "fixed(1)"
		if c.spec != nil && c.spec.Cluster != nil {
			spec = c.spec.Cluster.String()
		}
		levels = append(levels, fmt.Sprintf("%s cluster: %s (%d values of up to %d bytes)", c.name, spec, f.Levels[i], g.CK[i].MaxBytes()))
	}
	if f.Rows > settings.MaxPartitionRows {
		return 0, perr("columnspec", "partitions of up to %.0f rows (%s); at most %d (the original counts a partition's rows in a Java int)",
			f.Rows, strings.Join(levels, " × "), settings.MaxPartitionRows)
	}
	if f.LevelBytes > settings.MaxPartitionLevelBytes {
		return 0, perr("columnspec", "the clustering values of a partition take up to %d bytes (%s), all generated and kept while it is visited; at most %d",
			f.LevelBytes, strings.Join(levels, ", "), settings.MaxPartitionLevelBytes)
	}
	if f.RowBytes > settings.MaxFrameBytes {
		return 0, perr("columnspec", "rows of up to %d bytes; at most %d (256 MiB, the largest native-protocol frame Cassandra accepts by default: a row is written in one)",
			f.RowBytes, settings.MaxFrameBytes)
	}
	// An insert of a partition written over visits= inserts takes its
	// share of the rows (at least one), else all of them; select= of them.
	rows, per := f.Rows, "rows per partition"
	if v := data.FromSpec(s.Insert.Visits).Least(); v > 1 {
		rows, per = max(1, math.Ceil(f.Rows/float64(v))), "rows per partition over "+s.Option("-insert", "visits=", s.Insert.Visits.String())
	}
	sel := min(1, max(0, float64(sp.sel.Dist.Most())/sp.sel.Divisor))
	parts := float64(max(sp.partitions.Most(), 0))
	insertRows := math.Ceil(parts * sel * rows)
	how := fmt.Sprintf("%s × %s × %.0f %s", r.partitionsOption(sp), r.selectOption(sp), rows, per)
	// An insert of more rows than a batch holds goes as several batches
	// (userWorker.insert), so one batch bounds what travels in a frame.
	insertBytes := insertRows * float64(f.RowBytes)
	if batchBytes := min(insertRows, settings.MaxBatchStatements) * float64(f.RowBytes); batchBytes > settings.MaxFrameBytes {
		return 0, perr("insert", "batches of up to %.0f bytes (%s, of up to %d bytes each, at most %d rows a batch); at most %d (256 MiB, the largest native-protocol frame Cassandra accepts by default: a batch is one statement)",
			batchBytes, how, f.RowBytes, settings.MaxBatchStatements, settings.MaxFrameBytes)
	}
	perWorker := parts*float64(f.LevelBytes) + 2*insertBytes
	if validate {
		whole := f.Rows * float64(f.RowBytes)
		if whole > settings.MaxFrameBytes {
			return 0, perr("columnspec", "the validate op of ops(...) generates and compares whole partitions, here of up to %.0f rows of up to %d bytes (%.0f bytes); at most %d",
				f.Rows, f.RowBytes, whole, settings.MaxFrameBytes)
		}
		perWorker += whole + float64(f.LevelBytes)
	}
	return perWorker, nil
}

// partitionsOption is where the insert's partitions come from, as typed.
func (r *UserSetup) partitionsOption(sp *userSpec) string {
	if r.s.Insert.Partitions != nil {
		return r.s.Option("-insert", "partitions=", "")
	}
	if sp.p.Insert.Partitions != nil {
		return "insert partitions: " + sp.p.Insert.Partitions.String()
	}
	return "partitions " + profile.DefaultPartitions
}

// selectOption is where the insert's select ratio comes from, as typed.
func (r *UserSetup) selectOption(sp *userSpec) string {
	if r.s.Insert.SelectRatio != nil {
		return r.s.Option("-insert", "select-ratio=", "")
	}
	if sp.p.Insert.Select != nil {
		return "insert select: " + sp.p.Insert.Select.Dist.String() + "/" + strconv.FormatFloat(sp.p.Insert.Select.Divisor, 'f', -1, 64)
	}
	return "select " + profile.DefaultSelect
}

// RowOps is the table the run measures rows with: the rows, then
// CLEANUP. Its error says why the run cannot take them (a row named
// twice or CLEANUP, too many).
func RowOps(rows []string) (*measurement.Ops, error) {
	switch {
	case slices.Contains(rows, measurement.CleanupName):
		return nil, fmt.Errorf("%s names the closing of the runner's sessions; give the operation another name", measurement.CleanupName)
	case len(rows) >= measurement.MaxOps:
		return nil, fmt.Errorf("%d operations, at most %d", len(rows), measurement.MaxOps-1)
	}
	return measurement.NewOps(append(slices.Clip(rows), measurement.CleanupName)...)
}
