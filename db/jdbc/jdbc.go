// Package jdbc is the reference's jdbc binding (site.ycsb.db.JdbcDBClient):
// one name, two protocols, chosen by db.url as the JDBC driver manager
// chooses a driver by its URL. jdbc:postgresql:, jdbc:cockroachdb:,
// postgres:// and libpq's key=value strings go to db/postgres;
// jdbc:mysql:, jdbc:mariadb:, jdbc:tidb:, mysql:// and go-sql-driver's
// user:password@tcp(host:port)/db go to db/mysql. db.driver, when given,
// must name a driver of the same protocol.
package jdbc

import (
	"context"
	"io"
	"strings"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/db/mysql"
	"github.com/goycsb/ycsb/db/postgres"
	"github.com/goycsb/ycsb/props"
)

func init() {
	db.Register("jdbc", "PostgreSQL, CockroachDB, MySQL, MariaDB or TiDB by db.url, with the reference's JDBC properties",
		dispatcher{}, "site.ycsb.db.JdbcDBClient", "com.yahoo.ycsb.db.JdbcDBClient")
}

// protocol is the wire protocol a db.url speaks.
type protocol int

const (
	pgProtocol protocol = iota
	mysqlProtocol
)

// binding is the driver that speaks the protocol.
func (p protocol) binding() binding {
	if p == mysqlProtocol {
		return mysql.JDBC
	}
	return postgres.JDBC
}

func (p protocol) String() string {
	if p == mysqlProtocol {
		return "MySQL"
	}
	return "PostgreSQL"
}

// binding is what both drivers are.
type binding interface {
	db.Driver
	db.Checker
	db.TxnDriver
}

// urlProtocol says which protocol one db.url entry speaks; ok false when
// it names neither.
func urlProtocol(u string) (protocol, bool) {
	l := strings.ToLower(strings.TrimSpace(u))
	for _, pre := range []string{"jdbc:mysql:", "jdbc:mariadb:", "jdbc:tidb:", "mysql://", "mariadb://", "tidb://"} {
		if strings.HasPrefix(l, pre) {
			return mysqlProtocol, true
		}
	}
	for _, pre := range []string{"jdbc:postgresql:", "jdbc:cockroachdb:", "postgres://", "postgresql://"} {
		if strings.HasPrefix(l, pre) {
			return pgProtocol, true
		}
	}
	if mysql.IsNativeDSN(u) {
		return mysqlProtocol, true
	}
	return pgProtocol, false
}

// choose reads db.url (every shard must speak one protocol) and db.driver
// (which must agree with it); without either the PostgreSQL binding, which
// asks for db.url.
func choose(p *props.Properties) (binding, error) {
	drv, hasDriver := p.Get("db.driver")
	byDriver := pgProtocol
	if hasDriver && mysql.IsDriverClass(drv) {
		byDriver = mysqlProtocol
	}
	raw, ok := p.Get("db.url")
	if !ok {
		return byDriver.binding(), nil
	}
	var proto protocol
	known := false
	for i, u := range sqlbind.SplitURLs(raw) {
		pr, ok := urlProtocol(u)
		if !ok {
			continue // the binding's own parser says what is wrong
		}
		if known && pr != proto {
			return nil, props.Errorf("db.url", "shard %d speaks %s and an earlier one %s: all shards must speak one protocol", i+1, pr, proto)
		}
		proto, known = pr, true
	}
	if !known {
		return byDriver.binding(), nil
	}
	if hasDriver && drv != "" && byDriver != proto {
		return nil, props.Invalid("db.driver", drv, "a "+proto.String()+" driver for db.url's "+proto.String()+" URL")
	}
	return proto.binding(), nil
}

type dispatcher struct{}

// Open implements db.Driver.
func (dispatcher) Open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	b, err := choose(p)
	if err != nil {
		return nil, err
	}
	return b.Open(ctx, p, out)
}

// Check implements db.Checker.
func (dispatcher) Check(p *props.Properties) error {
	b, err := choose(p)
	if err != nil {
		return err
	}
	return b.Check(p)
}

// Transactions implements db.TxnDriver.
func (dispatcher) Transactions(p *props.Properties) error {
	b, err := choose(p)
	if err != nil {
		return err
	}
	return b.Transactions(p)
}
