// Package cassandra is the reference's cassandra-cql binding for Apache
// Cassandra (and CQL-compatible servers), on the Apache Cassandra Go driver.
//
// It registers cassandra-cql, with the aliases cassandra, cassandra2-cql and
// the reference's class names. The properties are the reference's (hosts,
// port, cassandra.keyspace, credentials, consistency levels, connection
// counts and timeouts, tracing), plus a useSSL that stands on its own with
// CA, certificate and key files, token-aware and DC-aware routing, the
// protocol version and an opt-in schema creation. docs/cassandra.md lists
// them all with their defaults.
//
// Statements are prepared once per field set and per Session (the driver
// keeps the server-side prepared ids); the values are bound through reused
// argument slices whose elements marshal themselves, and rows are scanned
// straight into the caller's Record, so the binding adds no allocation of
// its own per operation.
package cassandra

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/cassandra/cqltls"
	"github.com/goycsb/ycsb/internal/cql/cqlcluster"
	"github.com/goycsb/ycsb/internal/cql/cqlwire"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
)

func init() {
	db.Register("cassandra-cql", "Apache Cassandra over CQL (prepared statements, token-aware routing)",
		db.CheckedDriver{OpenFunc: open, CheckFunc: check}, "cassandra", "cassandra2-cql",
		"site.ycsb.db.CassandraCQLClient", "com.yahoo.ycsb.db.CassandraCQLClient")
}

// Property names. The first group is the reference's (CassandraCQLClient.java
// at 0.17.0; docs/compatibility.md, "cassandra-cql binding").
const (
	propHosts            = "hosts"
	propPort             = "port"
	propKeyspace         = "cassandra.keyspace"
	propUsername         = "cassandra.username"
	propPassword         = "cassandra.password"
	propReadCL           = "cassandra.readconsistencylevel"
	propWriteCL          = "cassandra.writeconsistencylevel"
	propMaxConns         = "cassandra.maxconnections"
	propCoreConns        = "cassandra.coreconnections"
	propConnectTimeout   = "cassandra.connecttimeoutmillis"
	propReadTimeout      = "cassandra.readtimeoutmillis"
	propUseSSL           = "cassandra.useSSL"
	propTracing          = "cassandra.tracing"
	propDebug            = "debug"
	propSSLCA            = "cassandra.ssl.ca"
	propSSLCert          = "cassandra.ssl.cert"
	propSSLKey           = "cassandra.ssl.key"
	propSSLVerify        = "cassandra.ssl.verifyhost"
	propTokenAware       = "cassandra.tokenaware"
	propLocalDC          = "cassandra.localdc"
	propProtocol         = "cassandra.protocolversion"
	propCreateSchema     = "cassandra.createschema"
	propReplication      = "cassandra.replicationfactor"
	propReconnect        = "cassandra.reconnectintervalmillis"
	propCoalesce         = "cassandra.writecoalescemicros"
	propRetries          = "cassandra.retries"
	propSpeculative      = "cassandra.speculativedelaymillis"
	defaultKeyspace      = "ycsb"
	defaultConsistency   = "ONE" // 0.17.0's (QUORUM in the reference's later master)
	keyColumn            = "y_id"
	defaultReconnectMS   = 1000
	defaultReplication   = 1
	defaultProtocol      = 0 // negotiate
	defaultCoalesceMicro = 0 // coalescing delays each request by up to its window
	maxRetries           = 100
)

// config is the parsed property set.
type config struct {
	hosts          []string
	port           int
	keyspace       string
	table          string
	fieldCount     int
	fieldPrefix    string
	username       string
	password       string
	readCL         gocql.Consistency
	writeCL        gocql.Consistency
	conns          int // connections per host
	connectTimeout time.Duration
	readTimeout    time.Duration
	useSSL         bool
	sslCA          string
	sslCert        string
	sslKey         string
	sslVerify      bool
	tokenAware     bool
	localDC        string
	protocol       int
	createSchema   bool
	replication    int
	reconnect      time.Duration
	coalesce       time.Duration
	// retries bounds the retries of an operation on another node
	// (cqlwire.Retryable); specDelay is the wait before a second request
	// to another replica, 0 for none
	retries   int
	specDelay time.Duration
	tracing   bool
	debug     bool
}

// parseConfig reads and validates every property; its errors are props
// errors (bad input, exit code 2).
func parseConfig(p *props.Properties) (*config, error) {
	c := &config{}
	raw, ok := p.Get(propHosts)
	if !ok || strings.TrimSpace(raw) == "" {
		return nil, props.Errorf(propHosts, "required property missing for cassandra-cql: a comma-separated list of contact points, e.g. -p hosts=127.0.0.1")
	}
	for _, h := range strings.Split(raw, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			return nil, props.Invalid(propHosts, raw, "a comma-separated list of host names or addresses without empty entries")
		}
		c.hosts = append(c.hosts, h)
	}
	r := props.NewReader(p)
	c.port = r.Int(propPort, 9042, props.Range("a TCP port in 1..65535", func(n int64) bool { return n >= 1 && n <= 65535 }))
	c.keyspace = r.String(propKeyspace, defaultKeyspace)
	if !isIdent(c.keyspace) {
		r.Fail(props.Invalid(propKeyspace, c.keyspace, "a CQL identifier (letters, digits and _, not starting with a digit)"))
	}
	c.table = r.String("table", "usertable")
	if !isIdent(c.table) {
		r.Fail(props.Invalid("table", c.table, "a CQL identifier (letters, digits and _, not starting with a digit)"))
	}
	c.fieldCount = r.Int("fieldcount", 10, props.NonNegative)
	c.fieldPrefix = r.String("fieldnameprefix", "field")
	if c.fieldCount > 0 && !isIdent(c.fieldPrefix+"0") {
		r.Fail(props.Invalid("fieldnameprefix", c.fieldPrefix, "a prefix that makes CQL column names"))
	}
	c.username = r.String(propUsername, "")
	c.password = r.String(propPassword, "")
	c.readCL = consistency(r, propReadCL)
	c.writeCL = consistency(r, propWriteCL)
	if err := r.Err(); err != nil {
		return nil, err
	}
	if c.readCL == gocql.Any {
		reads, err := db.PhaseReads(p)
		if err != nil {
			return nil, err
		}
		if reads {
			return nil, props.Invalid(propReadCL, p.String(propReadCL, ""), "a level Cassandra accepts for reads (ANY is for writes only): ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, EACH_QUORUM, LOCAL_ONE, SERIAL or LOCAL_SERIAL")
		}
	}
	// The Go driver keeps a fixed number of connections per host: the
	// larger of the two bounds, when either is set. Otherwise one, the
	// reference's driver default for local hosts with protocol v3 and
	// later: each connection multiplexes thousands of requests, and one
	// connection puts more of them in each system call.
	c.conns = max(r.Int(propMaxConns, 0, props.NonNegative), r.Int(propCoreConns, 0, props.NonNegative), 1)
	// The reference's driver (DataStax 3.0) connects within 5 s and waits
	// 12 s for a response (SocketOptions.DEFAULT_*_TIMEOUT_MILLIS). Zero is
	// refused rather than taken for "none" or "the default": every request
	// has a deadline.
	c.connectTimeout = r.Duration(propConnectTimeout, time.Millisecond, 5*time.Second, time.Millisecond, props.MaxDuration)
	c.readTimeout = r.Duration(propReadTimeout, time.Millisecond, 12*time.Second, time.Millisecond, props.MaxDuration)
	c.useSSL = r.Bool(propUseSSL, false)
	c.sslCA = r.String(propSSLCA, "")
	c.sslCert = r.String(propSSLCert, "")
	c.sslKey = r.String(propSSLKey, "")
	c.sslVerify = r.Bool(propSSLVerify, true)
	if !c.useSSL && (c.sslCA != "" || c.sslCert != "" || c.sslKey != "") {
		r.Errorf(propUseSSL, "%s, %s and %s need %s=true", propSSLCA, propSSLCert, propSSLKey, propUseSSL)
	}
	if (c.sslCert == "") != (c.sslKey == "") {
		r.Errorf(propSSLCert, "%s and %s go together (a client certificate and its key)", propSSLCert, propSSLKey)
	}
	c.tokenAware = r.Bool(propTokenAware, true)
	c.localDC = r.String(propLocalDC, "")
	c.protocol = r.Int(propProtocol, defaultProtocol, props.Range("3, 4 or 5 (0 negotiates the highest both sides speak)",
		func(n int64) bool { return n == 0 || n >= 3 && n <= 5 }))
	c.createSchema = r.Bool(propCreateSchema, false)
	c.replication = r.Int(propReplication, defaultReplication, props.Range("a replication factor of at least 1", func(n int64) bool { return n >= 1 }))
	c.reconnect = r.Duration(propReconnect, time.Millisecond, defaultReconnectMS*time.Millisecond, time.Millisecond, props.MaxDuration)
	// A window delays every request by up to its length: a second is
	// already far beyond any use.
	c.coalesce = r.Duration(propCoalesce, time.Microsecond, defaultCoalesceMicro*time.Microsecond, 0, time.Second)
	c.retries = r.Int(propRetries, cqlwire.MaxRetries, props.Range(fmt.Sprintf("an integer from 0 to %d", maxRetries),
		func(n int64) bool { return n >= 0 && n <= maxRetries }))
	// Off by default: a second request adds load to the cluster exactly
	// when a node is slow, and the reference sends none.
	c.specDelay = r.Duration(propSpeculative, time.Millisecond, 0, 0, time.Minute)
	if r.Err() == nil && c.specDelay > 0 && c.specDelay >= c.readTimeout {
		// The request would have timed out before its second was sent
		// (the stress mode refuses speculativeDelay= alike).
		r.Errorf(propSpeculative, "%d ms, expected below %s (%d ms)", c.specDelay.Milliseconds(), propReadTimeout, c.readTimeout.Milliseconds())
	}
	c.tracing = r.Bool(propTracing, false)
	c.debug = r.Bool(propDebug, false)
	if err := r.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// check is parseConfig for db.Checker: the CA, certificate and key files
// are read only by Open.
func check(p *props.Properties) error {
	_, err := parseConfig(p)
	return err
}

// consistency reads a consistency level name as the reference's driver
// enum spells it (ONE, LOCAL_QUORUM, ...); the case does not matter.
func consistency(r *props.Reader, name string) gocql.Consistency {
	v := r.String(name, defaultConsistency)
	cl, err := gocql.ParseConsistencyWrapper(strings.TrimSpace(v))
	if err != nil {
		r.Fail(props.Invalid(name, v, "a consistency level: ANY, ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, EACH_QUORUM, LOCAL_ONE, SERIAL or LOCAL_SERIAL"))
	}
	return cl
}

func isIdent(s string) bool {
	if s == "" || len(s) > 48 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// cluster is the driver's configuration of options.
func (c *config) cluster(ctx context.Context) (*gocql.ClusterConfig, error) {
	o, err := c.options(ctx)
	if err != nil {
		return nil, err
	}
	return o.Config(), nil
}

// options builds the connection options; it reads the CA, certificate and
// key files, before anything connects.
func (c *config) options(ctx context.Context) (cqlcluster.Options, error) {
	o := cqlcluster.Options{
		Hosts: c.hosts, Port: c.port, Consistency: c.readCL,
		ConnectTimeout: c.connectTimeout, Timeout: c.readTimeout, Conns: c.conns, Protocol: c.protocol,
		Reconnect: c.reconnect, Coalesce: c.coalesce,
		Username: c.username, Password: c.password,
		LocalDC: c.localDC, TokenAware: c.tokenAware, VerifyHost: c.sslVerify,
	}
	if c.useSSL {
		tc, err := c.tlsConfig(ctx)
		if err != nil {
			return o, err
		}
		o.TLS = tc
	}
	return o, nil
}

// tlsConfig reads the PEM files of cassandra.ssl.ca, .cert and .key, each a
// regular file or a pipe of at most infile.MaxText bytes, read until ctx
// ends; a file that cannot be read is named as the property is given
// ("cassandra.ssl.ca=/dev/zero: ...").
func (c *config) tlsConfig(ctx context.Context) (*tls.Config, error) {
	tc := cqltls.Config{CA: cqltls.PEMFile{Prop: propSSLCA, Path: c.sslCA}, Cert: cqltls.PEMFile{Prop: propSSLCert, Path: c.sslCert},
		Key: cqltls.PEMFile{Prop: propSSLKey, Path: c.sslKey}, VerifyHost: c.sslVerify}
	return tc.Load(ctx)
}

// cassDB is the opened binding: one driver session shared by all workers,
// as the reference shares one Cluster and Session between its threads.
type cassDB struct {
	cfg     *config
	session *gocql.Session
	out     io.Writer

	// wire is the lean request path (nil: the driver's throughout), with
	// the driver's host selection policy to route its requests.
	wire   *cqlwire.Pool
	policy gocql.HostSelectionPolicy

	// Statement texts, built once.
	qualified string // keyspace.table

	tracer *countTracer

	// speculative requests sent and those that answered first
	specSent, specWon atomic.Int64
}

func open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, err := parseConfig(p)
	if err != nil {
		return nil, err
	}
	o, err := cfg.options(ctx)
	if err != nil {
		return nil, err
	}
	cc := o.Config()
	d := &cassDB{cfg: cfg, out: out, qualified: cfg.keyspace + "." + cfg.table}
	if cfg.tracing {
		d.tracer = &countTracer{}
	}
	where := strings.Join(cfg.hosts, ",") + " port " + strconv.Itoa(cfg.port)
	// Connect and the schema check end with ctx (Ctrl-C), and a failed
	// open closes within cqlcluster.CloseWait: against a node that stopped
	// answering, the driver's own connect runs to its timeout and its
	// close to the requests' (3 s and 24 s measured).
	s, err := cqlcluster.Connect(ctx, cc)
	if err != nil {
		return nil, d.clean(fmt.Errorf("cassandra: connect to %s: %w", where, err))
	}
	d.session = s
	if err := d.checkSchema(ctx); err != nil {
		cqlcluster.Close(s)
		return nil, d.clean(err)
	}
	if _, err := s.KeyspaceMetadata(cfg.keyspace); err != nil {
		// A session reads the keyspaces' replication when it starts
		// (cqlcluster.Options.Config): the routing needs one started
		// after the keyspace was made (by the check above, or by another
		// client while this session started).
		cqlcluster.Close(s)
		cc = o.Config()
		if s, err = cqlcluster.Connect(ctx, cc); err != nil {
			return nil, d.clean(fmt.Errorf("cassandra: connect to %s: %w", where, err))
		}
		d.session = s
	}
	if o.Lean() && !cfg.tracing {
		// Reads and writes take the lean path; the driver's session keeps
		// the metadata and the routing (its policy, now initialised), the
		// schema statements and scans.
		// Statements name their keyspace: no USE.
		d.wire = cqlwire.NewPool(o.Wire())
		d.policy = cc.PoolConfig.HostSelectionPolicy
	}
	if cfg.debug {
		d.printCluster()
	}
	return d, nil
}

// clean makes err one line with any password in it masked (see
// secret.InText). The driver does not quote cassandra.password.
// WaitsOnServer implements db.Remote.
func (d *cassDB) WaitsOnServer() {}

func (d *cassDB) clean(err error) error {
	return errors.New(secret.Line(err.Error()))
}

// checkSchema makes sure the keyspace and the table exist, creating them
// with cassandra.createschema=true.
func (d *cassDB) checkSchema(ctx context.Context) error {
	cfg := d.cfg
	ks, err := d.exists(ctx, "SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?", cfg.keyspace)
	if err != nil {
		return fmt.Errorf("cassandra: look up keyspace %s: %w", cfg.keyspace, err)
	}
	if !ks {
		if !cfg.createSchema {
			return fmt.Errorf("cassandra: keyspace %s does not exist (create it, or set %s=true)", cfg.keyspace, propCreateSchema)
		}
		stmt := fmt.Sprintf("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': %d}", cfg.keyspace, cfg.replication)
		if err := d.session.Query(stmt).Consistency(gocql.All).ExecContext(ctx); err != nil {
			return fmt.Errorf("cassandra: create keyspace %s: %w", cfg.keyspace, err)
		}
		fmt.Fprintf(d.out, "cassandra: created keyspace %s (SimpleStrategy, replication_factor %d)\n", cfg.keyspace, cfg.replication)
	}
	tb, err := d.exists(ctx, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?", cfg.keyspace, cfg.table)
	if err != nil {
		return fmt.Errorf("cassandra: look up table %s: %w", d.qualified, err)
	}
	if !tb {
		if !cfg.createSchema {
			return fmt.Errorf("cassandra: table %s does not exist (create it, or set %s=true)", d.qualified, propCreateSchema)
		}
		if err := d.session.Query(createTableCQL(cfg)).Consistency(gocql.All).ExecContext(ctx); err != nil {
			return fmt.Errorf("cassandra: create table %s: %w", d.qualified, err)
		}
		fmt.Fprintf(d.out, "cassandra: created table %s (%s varchar primary key, %d varchar fields)\n", d.qualified, keyColumn, cfg.fieldCount)
	}
	return nil
}

// createTableCQL is the reference's table layout.
func createTableCQL(cfg *config) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "CREATE TABLE IF NOT EXISTS %s.%s (%s varchar PRIMARY KEY", cfg.keyspace, cfg.table, keyColumn)
	for i := 0; i < cfg.fieldCount; i++ {
		fmt.Fprintf(&sb, ", %s%d varchar", cfg.fieldPrefix, i)
	}
	sb.WriteString(")")
	return sb.String()
}

// exists runs a schema query and reports whether it returned a row.
// Identifiers without quotes are stored in lower case.
func (d *cassDB) exists(ctx context.Context, stmt string, args ...string) (bool, error) {
	vals := make([]any, len(args))
	for i, a := range args {
		vals[i] = strings.ToLower(a)
	}
	iter := d.session.Query(stmt, vals...).Consistency(gocql.One).IterContext(ctx)
	var name string
	found := iter.Scan(&name)
	if err := iter.Close(); err != nil {
		return false, err
	}
	return found, nil
}

func (d *cassDB) printCluster() {
	var sb strings.Builder
	iter := d.session.Query("SELECT cluster_name, data_center, rack, release_version FROM system.local").Consistency(gocql.One).Iter()
	var name, dc, rack, version string
	if iter.Scan(&name, &dc, &rack, &version) {
		fmt.Fprintf(&sb, "Connected to cluster: %s (Cassandra %s)\n", name, version)
		fmt.Fprintf(&sb, "Datacenter: %s; Host: %s; Rack: %s\n", dc, strings.Join(d.cfg.hosts, ","), rack)
	}
	iter.Close()
	io.WriteString(d.out, sb.String())
}

func (d *cassDB) Session(_ context.Context, worker, workers int) (db.Session, error) {
	return newSession(d), nil
}

// Close closes the driver session, waiting cqlcluster.CloseWait at most;
// the rest of its shutdown goes on in the background.
func (d *cassDB) Close() error {
	if d.session == nil {
		return nil
	}
	if d.wire != nil {
		d.wire.Close()
	}
	cqlcluster.Close(d.session)
	return nil
}

// Stats reports the traced operations when cassandra.tracing is on.
func (d *cassDB) Stats() []db.Stat {
	var stats []db.Stat
	if d.tracer != nil {
		stats = append(stats, db.Stat{Section: "CASSANDRA", Name: "TracedOperations", Value: d.tracer.n.Load()})
	}
	if d.cfg != nil && d.cfg.specDelay > 0 {
		// Ours: the second requests sent after cassandra.speculativedelaymillis,
		// and the operations they answered.
		stats = append(stats,
			db.Stat{Section: "CASSANDRA", Name: "SpeculativeRequests", Value: d.specSent.Load()},
			db.Stat{Section: "CASSANDRA", Name: "SpeculativeWins", Value: d.specWon.Load()})
	}
	return stats
}

// countTracer turns tracing on for the statements it is set on: the
// server records the traces (system_traces); the client only counts them.
type countTracer struct{ n atomic.Int64 }

func (t *countTracer) Trace([]byte) { t.n.Add(1) }
