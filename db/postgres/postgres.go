// Package postgres is the binding for PostgreSQL and CockroachDB over the
// PostgreSQL wire protocol (pgx v5). It registers two names and a driver:
//
//   - JDBC, which db/jdbc registers as jdbc (aliases
//     site.ycsb.db.JdbcDBClient, com.yahoo.ycsb.db.JdbcDBClient) for
//     PostgreSQL URLs: the reference's JDBC binding, with its properties (db.driver, db.url,
//     db.user, db.passwd, db.batchsize, jdbc.fetchsize, jdbc.autocommit,
//     jdbc.batchupdateapi) and PgJDBC URLs, so command lines written for the
//     reference work unchanged;
//   - postgresql (alias pg) and cockroach (alias cockroachdb): the same
//     binding with a default db.url for a local server and, for cockroach,
//     the cockroach dialect.
//
// Each Session holds one pooled connection per shard and executes statements
// it prepared on that connection through pgconn, with text parameters built
// in reused buffers and results copied from pgx's raw row values: no per-op
// statement cache lookup by SQL text, no argument boxing. A connection that
// breaks is given back to the pool (which drops it) and the next operation
// takes a new one, so a server restart costs ERROR counts, not the run.
//
// See docs/postgres.md for every property.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/props"
)

func init() {
	db.Register("postgresql", "PostgreSQL (pgx)", driver{name: "postgresql"}, "pg")
	db.Register("cockroach", "CockroachDB (pgx), with retries of SQLSTATE 40001", driver{name: "cockroach"}, "cockroachdb")
}

// Property names beyond the reference's (JdbcDBClient.java at 0.17.0).
const (
	propCreateTable   = sqlbind.PropCreateTable
	propDialect       = "db.dialect"
	propMaxRetries    = sqlbind.PropMaxRetries
	propHoldConn      = "db.holdconn"
	propMaxConns      = "db.maxconns"
	propTimeout       = sqlbind.PropTimeout
	propFamilies      = "cockroach.families"
	propUpsert        = "cockroach.upsert"
	propFollowerReads = "cockroach.followerreads"
)

// closeWait bounds pgDB.Close: a pool closing connections to a server that
// no longer answers waits up to 15 s for each (pgxpool's destructor).
const closeWait = 2 * time.Second

type driver struct{ name string }

// JDBC is the reference's jdbc binding on PostgreSQL-protocol servers:
// db/jdbc opens it for a jdbc:postgresql:, jdbc:cockroachdb: or
// postgres:// URL.
var JDBC = driver{name: "jdbc"}

type config struct {
	name       string
	table      string
	fieldCount int
	batchSize  int // ≤ 0: unset
	fetchSize  int // ≤ 0: unset
	autocommit bool
	batchAPI   bool
	create     bool
	dialect    dialect
	maxRetries int
	holdConn   bool
	maxConns   int
	timeout    time.Duration // db.timeout; 0: none

	rmwInTxn        bool      // jdbc.rmwintxn
	economy         bool      // the closed economy's transfers are transactions
	selectForUpdate bool      // jdbc.selectforupdate
	isolation       isolation // jdbc.isolation; "": the server's default
	txnRetries      int       // jdbc.txnretries
}

// pgDB is the opened binding: one pool per shard.
type pgDB struct {
	cfg    config
	shards []*shard

	totals sqlbind.Totals // the closed sessions' retries and reconnections
}

type shard struct {
	pool         *pgxpool.Pool
	rewriteBatch bool
	display      string
}

func (d driver) Open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, targets, user, passwd, err := d.parse(p)
	if err != nil {
		return nil, err
	}
	pd := &pgDB{cfg: cfg}
	fail := func(err error) (db.DB, error) {
		pd.Close()
		return nil, errors.New(secret.Line(err.Error()))
	}
	for i, t := range targets {
		fmt.Fprintf(out, "Adding shard node URL: %s\n", t.display)
		if len(t.unknown) > 0 {
			fmt.Fprintf(out, "%s: ignoring URL parameters this binding does not use: %s\n", d.name, strings.Join(t.unknown, ", "))
		}
		pc, err := pgxpool.ParseConfig(t.dsn)
		if err != nil {
			pd.Close()
			return nil, fmt.Errorf("%s: db.url: shard %d: %s", d.name, i+1, parseError(err, t))
		}
		if !t.userSet && user != "" {
			pc.ConnConfig.User = user
		}
		if !t.passwordSet && passwd != "" {
			pc.ConnConfig.Password = passwd
		}
		if pc.ConnConfig.ConnectTimeout == 0 {
			// Unless the URL says otherwise (connectTimeout), a connection
			// attempt gets db.timeout, per host.
			pc.ConnConfig.ConnectTimeout = cfg.timeout
		}
		pc.MaxConns = int32(cfg.maxConns)
		pc.MinConns = 0
		if t.loadBalance {
			pc.BeforeConnect = roundRobin(&pc.ConnConfig.Config)
		}
		if cfg.isolation != "" {
			set := setIsolationSQL(cfg.isolation)
			pc.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
				_, err := c.Exec(ctx, set)
				return err
			}
		}
		pool, err := pgxpool.NewWithConfig(ctx, pc)
		if err != nil {
			return fail(fmt.Errorf("%s: shard %d: %v", d.name, i+1, err))
		}
		pd.shards = append(pd.shards, &shard{pool: pool, rewriteBatch: t.rewriteBatch, display: t.display})
	}
	fmt.Fprintf(out, "Using shards: %d, batchSize:%d, fetchSize: %d\n", len(pd.shards), cfg.batchSize, cfg.fetchSize)

	if err := pd.check(ctx, p); err != nil {
		if props.IsBadInput(err) {
			pd.Close()
			return nil, err
		}
		return fail(err)
	}
	return pd, nil
}

// Check validates the properties as Open does, without connecting
// (db.Checker).
func (d driver) Check(p *props.Properties) error {
	_, _, _, _, err := d.parse(p)
	return err
}

func (d driver) parse(p *props.Properties) (cfg config, targets []*target, user, passwd string, err error) {
	cfg.name = d.name
	if drv, ok := p.Get("db.driver"); ok && drv != "" {
		l := strings.ToLower(drv)
		if !strings.Contains(l, "postgres") && !strings.Contains(l, "cockroach") && !strings.Contains(l, "pgjdbc") {
			err = props.Invalid("db.driver", drv, "a PostgreSQL driver (org.postgresql.Driver); this binding speaks the PostgreSQL protocol only")
			return
		}
	}
	def := ""
	switch d.name {
	case "postgresql":
		def = "postgres://127.0.0.1:5432/postgres"
	case "cockroach":
		def = "postgres://root@127.0.0.1:26257/defaultdb?sslmode=disable"
	}
	rawURL := p.String("db.url", def)
	urls := sqlbind.SplitURLs(rawURL)
	if len(urls) == 0 {
		err = props.Invalid("db.url", rawURL, "a PostgreSQL URL such as jdbc:postgresql://127.0.0.1:5432/ycsb (several separated by ';' shard the keys)")
		return
	}
	user = p.String("db.user", "")
	passwd = p.String("db.passwd", "")
	for _, u := range urls {
		t, perr := parseTarget(u)
		if perr != nil {
			// Never quote the URL: it may hold a password.
			err = props.Errorf("db.url", "%s", secret.Line(perr.Error()))
			return
		}
		targets = append(targets, t)
	}
	r := props.NewReader(p)
	c := sqlbind.ReadCommon(r)
	cfg.table, cfg.fieldCount, cfg.batchSize, cfg.fetchSize = c.Table, c.FieldCount, c.BatchSize, c.FetchSize
	cfg.autocommit, cfg.batchAPI, cfg.create, cfg.timeout = c.Autocommit, c.BatchAPI, c.Create, c.Timeout
	defDialect := dialectName("")
	if d.name == "cockroach" {
		defDialect = "cockroach"
	}
	dia := props.OneOf(r, propDialect, defDialect, "postgres", "cockroach")
	cfg.dialect.cockroach = dia == "cockroach"
	for _, f := range []struct {
		name string
		dst  *bool
	}{{propFamilies, &cfg.dialect.families}, {propUpsert, &cfg.dialect.upsert}, {propFollowerReads, &cfg.dialect.followerReads}} {
		*f.dst = r.Bool(f.name, false)
		if *f.dst && dia == "postgres" {
			r.Errorf(f.name, "needs the cockroach dialect (the cockroach binding, or %s=cockroach)", propDialect)
		}
	}
	// The retry default depends on the dialect, which may only be known
	// once connected; -1 means "not set".
	cfg.maxRetries = r.Int(propMaxRetries, -1, props.NonNegative)
	cfg.holdConn = r.Bool(propHoldConn, true)
	if !cfg.autocommit {
		cfg.holdConn = true // a transaction lives on one connection
	}
	threads := r.Int("threadcount", 1, props.NonNegative)
	cfg.maxConns = max(r.Int(propMaxConns, threads+16, props.NonNegative), 1)
	readTxnConfig(r, &cfg)
	err = r.Err()
	return
}

// dialectName is jdbc.dialect: postgres or cockroach ("" until known).
type dialectName string

// check pings every shard, settles the dialect and makes sure the table
// exists (creating it when asked), so a wrong host, refused credentials or a
// missing table stop the run before it starts.
func (pd *pgDB) check(ctx context.Context, p *props.Properties) error {
	name := pd.cfg.name
	// Each shard's check gets 15 s, or db.timeout when that is shorter.
	limit := 15 * time.Second
	if t := pd.cfg.timeout; t > 0 && t < limit {
		limit = t
	}
	for i, sh := range pd.shards {
		cctx, cancel := context.WithTimeout(ctx, limit)
		err := func() error {
			c, err := sh.pool.Acquire(cctx)
			if err != nil {
				return fmt.Errorf("%s: connect to %s: %v", name, sh.display, err)
			}
			defer c.Release()
			if i == 0 && !p.Has(propDialect) && name != "cockroach" {
				var v string
				if err := c.QueryRow(cctx, "SELECT version()").Scan(&v); err != nil {
					return fmt.Errorf("%s: %s: server version: %v", name, sh.display, err)
				}
				pd.cfg.dialect.cockroach = strings.Contains(v, "CockroachDB")
			}
			if i == 0 && !pd.cfg.dialect.cockroach {
				for _, f := range []struct {
					name string
					on   bool
				}{{propFamilies, pd.cfg.dialect.families}, {propUpsert, pd.cfg.dialect.upsert}, {propFollowerReads, pd.cfg.dialect.followerReads}} {
					if f.on {
						return props.Errorf(f.name, "needs the cockroach dialect, and %s is PostgreSQL (set %s=cockroach to force it)", sh.display, propDialect)
					}
				}
			}
			if iso := pd.cfg.isolation; iso != "" {
				var got string
				if err := c.QueryRow(cctx, "SHOW transaction_isolation").Scan(&got); err != nil {
					return fmt.Errorf("%s: %s: SHOW transaction_isolation: %v", name, sh.display, err)
				}
				if err := checkIsolation(got, iso, sh.display); err != nil {
					return err
				}
			}
			if pd.cfg.create {
				if _, err := c.Exec(cctx, pd.cfg.dialect.createTableSQL(pd.cfg.table, pd.cfg.fieldCount)); err != nil {
					return fmt.Errorf("%s: %s: create table %s: %v", name, sh.display, pd.cfg.table, err)
				}
			}
			_, err = c.Exec(cctx, "SELECT 1 FROM "+pd.cfg.table+" LIMIT 0")
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "42P01" {
				return fmt.Errorf("%s: %s: table %s does not exist (create it, or set %s=true)", name, sh.display, pd.cfg.table, propCreateTable)
			}
			if err != nil {
				return fmt.Errorf("%s: %s: check table %s: %v", name, sh.display, pd.cfg.table, err)
			}
			return nil
		}()
		cancel()
		if err != nil {
			return err
		}
	}
	if pd.cfg.maxRetries < 0 {
		pd.cfg.maxRetries = 0
		if pd.cfg.dialect.cockroach {
			pd.cfg.maxRetries = 10
		}
	}
	return nil
}

// roundRobin implements PgJDBC's loadBalanceHosts=true: each new connection
// starts with the next host of the list and falls back to the others.
func roundRobin(base *pgconn.Config) func(context.Context, *pgx.ConnConfig) error {
	all := []*pgconn.FallbackConfig{{Host: base.Host, Port: base.Port, TLSConfig: base.TLSConfig}}
	all = append(all, base.Fallbacks...)
	// Group the entries by host: sslmode=prefer gives two per host.
	var groups [][]*pgconn.FallbackConfig
	for _, f := range all {
		n := len(groups)
		if n > 0 && groups[n-1][0].Host == f.Host && groups[n-1][0].Port == f.Port {
			groups[n-1] = append(groups[n-1], f)
			continue
		}
		groups = append(groups, []*pgconn.FallbackConfig{f})
	}
	var next atomic.Uint64
	return func(_ context.Context, cc *pgx.ConnConfig) error {
		if len(groups) < 2 {
			return nil
		}
		start := int(next.Add(1)-1) % len(groups)
		order := make([]*pgconn.FallbackConfig, 0, len(all))
		for i := range groups {
			order = append(order, groups[(start+i)%len(groups)]...)
		}
		cc.Host, cc.Port, cc.TLSConfig = order[0].Host, order[0].Port, order[0].TLSConfig
		cc.Fallbacks = make([]*pgconn.FallbackConfig, len(order)-1)
		for i, f := range order[1:] {
			c := *f
			cc.Fallbacks[i] = &c
		}
		return nil
	}
}

// Close closes the pools, waiting closeWait at most: the sessions have
// already given back their connections, and what is left to wait for is the
// goodbye to a server that may not be listening.
func (pd *pgDB) Close() error {
	within.Run(closeWait, func() {
		for _, sh := range pd.shards {
			sh.pool.Close()
		}
	})
	return nil
}

// Stats reports retried transactions (cockroach dialect or db.maxretries)
// and how often a session had to take a new connection after one broke.
func (pd *pgDB) Stats() []db.Stat {
	return pd.totals.Stats(pd.cfg.maxRetries > 0 || pd.cfg.rmwInTxn || pd.cfg.economy)
}

// Session implements db.DB.
func (pd *pgDB) Session(ctx context.Context, worker, workers int) (db.Session, error) {
	s := &session{d: pd, conns: make([]sconn, len(pd.shards)), timeout: pd.cfg.timeout,
		plan: planFor(pd.cfg.dialect, pd.cfg.isolation)}
	s.tx = sqlbind.InTxn[*sconn]{S: s, ForUpdate: pd.cfg.selectForUpdate}
	for i := range s.conns {
		s.conns[i].sh = pd.shards[i]
	}
	if pd.cfg.rmwInTxn {
		return &rmwSession{session: s}, nil
	}
	return s, nil
}
