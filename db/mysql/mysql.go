// Package mysql is the binding for MySQL, MariaDB and TiDB over the MySQL
// protocol (go-sql-driver/mysql, used below database/sql: each session owns
// its connections and the statements prepared on them). It registers
// mysql, mariadb and tidb, which read go-ycsb's properties (mysql.host,
// mysql.port, mysql.user, mysql.password, mysql.db, batch.size,
// mysql.force_index, tidb.cluster_index) with go-ycsb's defaults, and
// JDBC, the driver db/jdbc dispatches the reference's jdbc binding to for
// jdbc:mysql:, jdbc:mariadb: and mysql:// URLs.
//
// A session's operations allocate nothing of their own: the arguments,
// result values and statement cache keys are reused buffers (go-sql-driver
// allocates its rows and boxes each result value; BenchmarkSession with
// -benchmem, and its memory profile, show them all inside the driver).
//
// The table is the reference's (YCSB_KEY VARCHAR(255) PRIMARY KEY,
// FIELD0..n TEXT), so data loaded by the reference's jdbc binding, by
// go-ycsb's mysql binding and by this one read back in every direction.
//
// See docs/mysql.md for every property.
package mysql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
)

func init() {
	db.Register("mysql", "MySQL (go-sql-driver), go-ycsb's mysql.* properties", driver{name: "mysql"})
	db.Register("mariadb", "MariaDB (go-sql-driver), go-ycsb's mysql.* properties", driver{name: "mariadb"})
	db.Register("tidb", "TiDB (go-sql-driver), go-ycsb's mysql.* and tidb.* properties", driver{name: "tidb"})
}

// JDBC is the reference's jdbc binding on MySQL-protocol servers: db/jdbc
// opens it for a jdbc:mysql:, jdbc:mariadb:, jdbc:tidb: or mysql:// URL.
var JDBC = driver{name: "jdbc"}

// Property names: go-ycsb's (db/mysql/db.go) and ours.
const (
	propHost         = "mysql.host"
	propPort         = "mysql.port"
	propUser         = "mysql.user"
	propPassword     = "mysql.password"
	propDB           = "mysql.db"
	propForceIndex   = "mysql.force_index"
	propClusterIndex = "tidb.cluster_index"
	propInstances    = "tidb.instances"
	propBatchSize    = "batch.size"
	propEngine       = "mysql.storage_engine"
	propSettle       = "mysql.settle"
)

// storageEngine is mysql.storage_engine: the engine of a table the binding
// creates, and the engine a table it uses must be on.
type storageEngine string

const (
	innoDB  storageEngine = "innodb"
	rocksDB storageEngine = "rocksdb"
)

// sqlName is the engine as information_schema.TABLES spells it.
func (e storageEngine) sqlName() string {
	switch e {
	case innoDB:
		return "InnoDB"
	case rocksDB:
		return "ROCKSDB"
	}
	return string(e)
}

// closeWait bounds a session's goodbye to a server that may not answer.
const closeWait = 2 * time.Second

type driver struct{ name string }

type config struct {
	sqlbind.Common
	txn        sqlbind.Txn
	name       string
	dialect    dialect
	maxRetries int
	targets    []*target
	settle     bool // mysql.settle
}

// mysqlDB is the opened binding: one connector per shard.
type mysqlDB struct {
	cfg    config
	shards []*shard

	totals sqlbind.Totals // the closed sessions' retries and reconnections
	// down counts the session connections that broke (not by the run's
	// end) and have not connected again: while any has not, the engine's
	// counters are not read for the report, lest a server that stopped
	// answering hold the report up.
	down atomic.Int64

	engine engineStats
}

func (d driver) Open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, err := d.parse(p)
	if err != nil {
		return nil, err
	}
	md := &mysqlDB{cfg: cfg}
	for _, t := range cfg.targets {
		fmt.Fprintf(out, "Adding shard node URL: %s\n", t.display)
		if len(t.unknown) > 0 {
			fmt.Fprintf(out, "%s: ignoring URL parameters this binding does not use: %s\n", d.name, strings.Join(t.unknown, ", "))
		}
		sh, err := newShard(t, &cfg)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %s", d.name, t.display, secret.Line(err.Error()))
		}
		md.shards = append(md.shards, sh)
	}
	fmt.Fprintf(out, "Using shards: %d, batchSize:%d, fetchSize: %d\n", len(md.shards), cfg.BatchSize, cfg.FetchSize)
	if err := md.check(ctx); err != nil {
		if props.IsBadInput(err) {
			return nil, err
		}
		return nil, errors.New(secret.Line(err.Error()))
	}
	return md, nil
}

// Check validates the properties as Open does, without connecting
// (db.Checker).
func (d driver) Check(p *props.Properties) error {
	_, err := d.parse(p)
	return err
}

// Transactions implements db.TxnDriver.
func (d driver) Transactions(p *props.Properties) error {
	cfg, err := d.parse(p)
	if err != nil {
		return err
	}
	return sqlbind.CheckTransactions(cfg.Autocommit, len(cfg.targets))
}

func (d driver) parse(p *props.Properties) (cfg config, err error) {
	cfg.name = d.name
	if drv, ok := p.Get("db.driver"); ok && drv != "" && !IsDriverClass(drv) {
		err = props.Invalid("db.driver", drv, "a MySQL or MariaDB driver (com.mysql.cj.jdbc.Driver, org.mariadb.jdbc.Driver) for a MySQL URL")
		return
	}
	r := props.NewReader(p)
	cfg.Common = sqlbind.ReadCommon(r)
	cfg.targets = d.targets(r)
	if d.name != "jdbc" {
		// go-ycsb creates the table (CREATE TABLE IF NOT EXISTS) on every
		// start; so do its names here, on the reference's layout.
		cfg.Create = r.Bool(sqlbind.PropCreateTable, true)
		if bs := r.Int(propBatchSize, 1, props.Positive); bs > 1 && !r.Has("db.batchsize") {
			cfg.BatchSize, cfg.BatchAPI = bs, true
		}
		cfg.dialect.forceIndex = r.Bool(propForceIndex, true)
		cfg.dialect.clustered = d.name != "mariadb" && r.Bool(propClusterIndex, true)
	} else {
		cfg.dialect.forceIndex = r.Bool(propForceIndex, false)
	}
	if v, ok := p.Get(propEngine); ok {
		switch e := storageEngine(strings.ToLower(strings.TrimSpace(v))); e {
		case innoDB, rocksDB:
			cfg.dialect.engine = e
		default:
			r.Fail(props.Invalid(propEngine, v, "innodb or rocksdb"))
		}
	}
	cfg.settle = r.Bool(propSettle, false)
	cfg.maxRetries = r.Int(sqlbind.PropMaxRetries, 0, props.NonNegative)
	cfg.txn = sqlbind.ReadTxn(r, cfg.Autocommit)
	err = r.Err()
	return
}

// IsDriverClass says whether a db.driver names a MySQL-protocol JDBC
// driver (Connector/J, MariaDB Connector/J, or a TiDB fork of them).
func IsDriverClass(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "mysql") || strings.Contains(l, "mariadb") || strings.Contains(l, "tidb")
}

// targets reads db.url, or go-ycsb's mysql.* properties (the jdbc name
// needs db.url; the others default to go-ycsb's root@127.0.0.1:3306/test).
func (d driver) targets(r *props.Reader) []*target {
	p := r.Props()
	var goycsb []string
	for _, n := range []string{propHost, propPort, propUser, propPassword, propDB, propInstances} {
		if p.Has(n) {
			goycsb = append(goycsb, n)
		}
	}
	rawURL, hasURL := p.Get("db.url")
	if hasURL && len(goycsb) > 0 {
		r.Errorf(goycsb[0], "and db.url both name the server: give one of them")
		return nil
	}
	if !hasURL && d.name == "jdbc" {
		r.Fail(props.Invalid("db.url", "", "a MySQL URL such as jdbc:mysql://127.0.0.1:3306/ycsb (several separated by ';' shard the keys)"))
		return nil
	}
	if !hasURL {
		return []*target{goycsbTarget(r)}
	}
	urls := sqlbind.SplitURLs(rawURL)
	if len(urls) == 0 {
		r.Fail(props.Invalid("db.url", rawURL, "a MySQL URL such as jdbc:mysql://127.0.0.1:3306/ycsb (several separated by ';' shard the keys)"))
		return nil
	}
	var out []*target
	for _, u := range urls {
		t, err := parseTarget(u)
		if err != nil {
			// Never quote the URL: it may hold a password.
			r.Fail(props.Errorf("db.url", "%s", secret.Line(err.Error())))
			return nil
		}
		out = append(out, t)
	}
	return out
}

// goycsbTarget is the server of go-ycsb's properties, with its defaults.
func goycsbTarget(r *props.Reader) *target {
	host := r.String(propHost, "127.0.0.1")
	port := r.Int(propPort, 3306, props.Range("a port from 1 to 65535", func(n int64) bool { return n > 0 && n <= 65535 }))
	t := &target{user: r.String(propUser, "root"), passwd: r.String(propPassword, ""), dbname: r.String(propDB, "test")}
	t.userSet, t.passwdSet = true, true
	if list := r.String(propInstances, ""); strings.TrimSpace(list) != "" {
		hosts, err := sqlbind.ParseHostList(strings.ReplaceAll(list, " ", ""), "3306")
		if err != nil {
			r.Fail(props.Errorf(propInstances, "%v", err))
			return t
		}
		t.hosts, t.roundRobin = hosts, true
	} else {
		t.hosts = []sqlbind.HostPort{{Host: host, Port: fmt.Sprint(port)}}
	}
	t.display = "mysql://" + t.user + "@" + strings.Join(sqlbind.JoinHostPorts(t.hosts), ",") + "/" + t.dbname
	return t
}

// Close implements db.DB: the sessions closed their connections.
func (md *mysqlDB) Close() error { return nil }

// Stats reports retried transactions, how often a session had to connect
// again after a connection broke, and the storage engine's statistics.
func (md *mysqlDB) Stats() []db.Stat {
	out := md.totals.Stats(md.cfg.maxRetries > 0 || md.cfg.txn.RMWInTxn || md.cfg.txn.Economy)
	return append(out, md.engine.stats()...)
}

// WaitsOnServer implements db.Remote.
func (md *mysqlDB) WaitsOnServer() {}

// Session implements db.DB.
func (md *mysqlDB) Session(ctx context.Context, worker, workers int) (db.Session, error) {
	s := &session{d: md, conns: make([]sconn, len(md.shards))}
	for i := range s.conns {
		s.conns[i].sh = md.shards[i]
		s.conns[i].s = s
	}
	s.tx = sqlbind.InTxn[*sconn]{S: s, ForUpdate: md.cfg.txn.SelectForUpdate}
	if md.cfg.txn.RMWInTxn {
		return &rmwSession{session: s}, nil
	}
	return s, nil
}
