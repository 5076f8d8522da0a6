package mysql

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/internal/secret"
)

// target is one db.url entry (one shard) turned into what the driver needs.
type target struct {
	hosts []sqlbind.HostPort
	// roundRobin spreads new connections over the hosts (Connector/J's
	// jdbc:mysql:loadbalance://, go-ycsb's tidb.instances); otherwise they
	// are tried in order (Connector/J's failover).
	roundRobin bool
	user       string
	passwd     string
	userSet    bool // the URL named them: db.user and db.passwd fill in
	passwdSet  bool // only what the URL leaves out
	dbname     string
	tls        string // go-sql-driver's tls parameter; "": none
	// connectTimeout and socketTimeout are Connector/J's (milliseconds in
	// the URL); 0: db.timeout.
	connectTimeout, socketTimeout time.Duration
	// base is a native DSN's configuration, with every parameter of the
	// driver's; nil for the other forms.
	base    *gomysql.Config
	display string   // the URL with any password masked, for output
	unknown []string // URL parameters this binding does not use
}

// parseTarget accepts a JDBC URL (jdbc:mysql://h1:p1,h2/db?params, also
// jdbc:mariadb:, jdbc:tidb: and Connector/J's jdbc:mysql:loadbalance: and
// :failover:/:replication: forms), a mysql:// (mariadb://, tidb://) URL,
// or go-sql-driver's DSN (user:password@tcp(host:port)/db?params).
func parseTarget(raw string) (*target, error) {
	lower := strings.ToLower(raw)
	for _, sub := range []string{"jdbc:mysql:", "jdbc:mariadb:", "jdbc:tidb:"} {
		if strings.HasPrefix(lower, sub) {
			return parseJDBC(raw, raw[len(sub):])
		}
	}
	switch {
	case strings.HasPrefix(lower, "jdbc:"):
		return nil, fmt.Errorf("not a MySQL JDBC URL (want jdbc:mysql://host:port/database)")
	case strings.HasPrefix(lower, "mysql://"), strings.HasPrefix(lower, "mariadb://"), strings.HasPrefix(lower, "tidb://"):
		return parseURL(raw)
	case IsNativeDSN(raw):
		return parseNative(raw)
	}
	return nil, fmt.Errorf("not a MySQL URL (want jdbc:mysql://host:port/database, mysql://user@host:port/database or user:password@tcp(host:port)/database)")
}

// IsNativeDSN says whether s looks like go-sql-driver's DSN: an @ followed
// by a network and its address in parentheses, or a bare "tcp(".
func IsNativeDSN(s string) bool {
	i := strings.Index(s, "(")
	if i < 0 || !strings.Contains(s[i:], ")") {
		return false
	}
	head := s[:i]
	if at := strings.LastIndexByte(head, '@'); at >= 0 {
		head = head[at+1:]
	}
	switch head {
	case "tcp", "tcp6", "unix":
		return true
	}
	return false
}

var defaultHost = sqlbind.HostPort{Host: "localhost", Port: "3306"}

func parseJDBC(raw, rest string) (*target, error) {
	t := &target{}
	prefix := raw[:len(raw)-len(rest)]
	// Connector/J's multi-host protocols: jdbc:mysql:loadbalance://...
	if i := strings.Index(rest, "//"); i > 0 && !strings.Contains(rest[:i], "/") {
		switch proto := strings.TrimSuffix(strings.ToLower(rest[:i]), ":"); proto {
		case "loadbalance", "replication":
			t.roundRobin = true
		case "failover", "aurora", "sequential":
		default:
			return nil, fmt.Errorf("unknown JDBC protocol %q (want jdbc:mysql://, jdbc:mysql:loadbalance:// or jdbc:mysql:failover://)", proto)
		}
		prefix += rest[:i]
		rest = rest[i:]
	}
	rest, query, _ := strings.Cut(rest, "?")
	hosts, dbname, err := sqlbind.JDBCAuthority(rest, defaultHost)
	if err != nil {
		return nil, err
	}
	t.hosts, t.dbname = hosts, dbname
	params, display := sqlbind.QueryParams(query)
	for _, p := range params {
		if err := t.jdbcParam(p.Name, p.Value); err != nil {
			return nil, err
		}
	}
	t.display = prefix + "//" + strings.Join(sqlbind.JoinHostPorts(hosts), ",") + "/" + dbname
	if len(display) > 0 {
		t.display += "?" + strings.Join(display, "&")
	}
	return t, nil
}

// jdbcParam takes one Connector/J (or MariaDB Connector/J) parameter.
func (t *target) jdbcParam(name, value string) error {
	var err error
	switch strings.ToLower(name) {
	case "user":
		t.user, t.userSet = value, true
	case "password":
		t.passwd, t.passwdSet = value, true
	case "usessl", "ssl":
		var on bool
		if on, err = sqlbind.Bool(name, value); err == nil && on {
			t.tls = "skip-verify" // Connector/J's useSSL=true without verifyServerCertificate
		} else if err == nil {
			t.tls = ""
		}
	case "sslmode":
		switch strings.ToUpper(value) {
		case "DISABLED":
			t.tls = ""
		case "PREFERRED":
			t.tls = "preferred"
		case "REQUIRED":
			t.tls = "skip-verify"
		case "VERIFY_CA", "VERIFY_IDENTITY":
			t.tls = "true"
		default:
			return fmt.Errorf("sslMode: expected DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY, got %q", value)
		}
	case "connecttimeout":
		t.connectTimeout, err = millis(name, value)
	case "sockettimeout":
		t.socketTimeout, err = millis(name, value)
	case "rewritebatchedstatements", "useserverprepstmts", "cacheprepstmts":
		// What this binding always does: batches as multi-row INSERTs,
		// statements prepared on the server once per connection.
		_, err = sqlbind.Bool(name, value)
	default:
		t.unknown = append(t.unknown, name)
	}
	return err
}

// millis reads a Connector/J timeout: milliseconds, 0 for none.
func millis(name, value string) (time.Duration, error) {
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < 0 || n > 366*24*3600*1000 {
		return 0, fmt.Errorf("%s: expected milliseconds (0 to 366 days), got %q", name, value)
	}
	return time.Duration(n) * time.Millisecond, nil
}

// parseURL reads mysql://user:password@host:port,host2/db?params: the
// parameters are go-sql-driver's or Connector/J's.
func parseURL(raw string) (*target, error) {
	scheme, rest, _ := strings.Cut(raw, "://")
	t := &target{}
	authority, path, _ := strings.Cut(rest, "/")
	path, query, _ := strings.Cut(path, "?")
	if i := strings.IndexByte(authority, '?'); i >= 0 {
		authority, query = authority[:i], authority[i+1:]
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		ui := authority[:at]
		authority = authority[at+1:]
		u, p, hasPw := strings.Cut(ui, ":")
		var err error
		if t.user, err = url.PathUnescape(u); err != nil {
			return nil, fmt.Errorf("bad user name in the URL")
		}
		t.userSet = t.user != ""
		if hasPw {
			if t.passwd, err = url.PathUnescape(p); err != nil {
				return nil, fmt.Errorf("bad password in the URL") // not quoted
			}
			t.passwdSet = true
		}
	}
	if authority == "" {
		authority = defaultHost.String()
	}
	hosts, err := sqlbind.ParseHostList(authority, "3306")
	if err != nil {
		return nil, err
	}
	t.hosts = hosts
	if t.dbname, err = url.PathUnescape(path); err != nil {
		return nil, fmt.Errorf("bad database name: %w", err)
	}
	params, display := sqlbind.QueryParams(query)
	for _, p := range params {
		if err := t.jdbcParam(p.Name, p.Value); err != nil {
			return nil, err
		}
	}
	t.display = scheme + "://"
	if t.userSet {
		t.display += url.PathEscape(t.user)
		if t.passwdSet {
			t.display += ":" + secret.Mask
		}
		t.display += "@"
	}
	t.display += strings.Join(sqlbind.JoinHostPorts(hosts), ",") + "/" + path
	if len(display) > 0 {
		t.display += "?" + strings.Join(display, "&")
	}
	return t, nil
}

// parseNative reads go-sql-driver's own DSN with its parser; its
// parameters go to the driver as they are.
func parseNative(raw string) (*target, error) {
	cfg, err := gomysql.ParseDSN(raw)
	if err != nil {
		return nil, fmt.Errorf("%s", secret.Line(err.Error()))
	}
	if cfg.Net != "tcp" && cfg.Net != "tcp6" {
		return nil, fmt.Errorf("network %q: this binding connects over TCP only (tcp(host:port))", cfg.Net)
	}
	hosts, err := sqlbind.ParseHostList(cfg.Addr, "3306")
	if err != nil {
		return nil, err
	}
	t := &target{hosts: hosts, user: cfg.User, passwd: cfg.Passwd, dbname: cfg.DBName,
		userSet: cfg.User != "", passwdSet: cfg.Passwd != "", tls: cfg.TLSConfig, base: cfg}
	t.display = secret.InText(raw)
	return t, nil
}
