package postgres

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/internal/infile"
	"github.com/goycsb/ycsb/internal/secret"
)

// target is one db.url entry (one shard) turned into what pgx needs.
type target struct {
	// dsn is a libpq keyword/value string or a postgres:// URL for
	// pgxpool.ParseConfig.
	dsn string
	// display is the URL with any password replaced, for output.
	display string
	// userSet and passwordSet say the URL named them; db.user and
	// db.passwd fill in only what the URL leaves out (PgJDBC lets URL
	// parameters win over connection properties).
	userSet, passwordSet bool
	// loadBalance spreads new connections over all hosts round robin
	// (PgJDBC loadBalanceHosts=true) instead of trying them in order.
	loadBalance bool
	// rewriteBatch sends a batch of inserts as one multi-row INSERT (PgJDBC
	// reWriteBatchedInserts=true).
	rewriteBatch bool
	// unknown lists URL parameters this binding does not use.
	unknown []string
}

// parseTarget accepts a JDBC URL (jdbc:postgresql://h1:p1,h2:p2/db?params),
// a postgres:// or postgresql:// URL, or a libpq keyword/value string.
func parseTarget(raw string) (*target, error) {
	lower := strings.ToLower(raw)
	switch {
	case strings.HasPrefix(lower, "jdbc:postgresql:"):
		return parseJDBC(raw[len("jdbc:postgresql:"):])
	case strings.HasPrefix(lower, "jdbc:cockroachdb:"):
		return parseJDBC(raw[len("jdbc:cockroachdb:"):])
	case strings.HasPrefix(lower, "jdbc:"):
		return nil, fmt.Errorf("not a PostgreSQL JDBC URL (want jdbc:postgresql://host:port/database)")
	case strings.HasPrefix(lower, "postgres://"), strings.HasPrefix(lower, "postgresql://"):
		return parsePostgresURL(raw)
	case strings.Contains(raw, "="):
		t := &target{dsn: raw, display: secret.InText(raw)}
		t.userSet = strings.Contains(raw, "user=")
		t.passwordSet = strings.Contains(raw, "password=")
		return t, nil
	}
	return nil, fmt.Errorf("not a PostgreSQL URL (want jdbc:postgresql://host:port/database or postgres://host:port/database)")
}

func parseJDBC(rest string) (*target, error) {
	rest, query, _ := strings.Cut(rest, "?")
	hosts, dbname, err := jdbcHostsAndDatabase(rest)
	if err != nil {
		return nil, err
	}
	var hs, ps []string
	for _, h := range hosts {
		hs = append(hs, h.Host)
		ps = append(ps, h.Port)
	}
	kv := map[string]string{"host": strings.Join(hs, ","), "port": strings.Join(ps, ",")}
	if dbname != "" {
		kv["dbname"] = dbname
	}
	t := &target{}
	display, err := t.jdbcQuery(kv, query)
	if err != nil {
		return nil, err
	}
	t.dsn = keywordValue(kv)
	t.display = "jdbc:postgresql://" + strings.Join(sqlbind.JoinHostPorts(hosts), ",") + "/" + dbname
	if len(display) > 0 {
		t.display += "?" + strings.Join(display, "&")
	}
	return t, nil
}

// jdbcHostsAndDatabase reads the part of a JDBC URL between
// "jdbc:postgresql:" and the '?': "//host:port,.../database", or only a
// database on localhost:5432.
func jdbcHostsAndDatabase(rest string) ([]sqlbind.HostPort, string, error) {
	return sqlbind.JDBCAuthority(rest, sqlbind.HostPort{Host: "localhost", Port: "5432"})
}

// jdbcQuery reads the parameters after the '?' into kv and t, and returns
// them as they are displayed, passwords masked.
func (t *target) jdbcQuery(kv map[string]string, query string) ([]string, error) {
	var ssl *bool
	params, display := sqlbind.QueryParams(query)
	for _, p := range params {
		if err := t.jdbcParam(kv, p.Name, p.Value, &ssl); err != nil {
			return nil, err
		}
	}
	// PgJDBC: without sslmode, ssl=true (or a bare ssl) means verify-full,
	// anything else prefer.
	if _, ok := kv["sslmode"]; !ok && ssl != nil {
		if *ssl {
			kv["sslmode"] = "verify-full"
		} else {
			kv["sslmode"] = "prefer"
		}
	}
	return display, nil
}

// jdbcParam takes one PgJDBC parameter into kv (libpq's names) or t; ssl=
// goes to *ssl, which only applies without sslmode=.
func (t *target) jdbcParam(kv map[string]string, name, value string, ssl **bool) error {
	var err error
	switch name {
	case "user":
		kv["user"] = value
		t.userSet = true
	case "password":
		kv["password"] = value
		t.passwordSet = true
	case "sslmode":
		switch value {
		case "disable", "allow", "prefer", "require", "verify-ca", "verify-full":
		default:
			return fmt.Errorf("sslmode: expected one of disable, allow, prefer, require, verify-ca, verify-full, got %q", value)
		}
		kv["sslmode"] = value
	case "ssl":
		b := value == "" || strings.EqualFold(value, "true")
		if !b && !strings.EqualFold(value, "false") {
			return fmt.Errorf("ssl: expected true or false, got %q", value)
		}
		*ssl = &b
	case "sslcert", "sslkey", "sslrootcert":
		if err := checkTLSFile(name, value); err != nil {
			return err
		}
		kv[name] = value
	case "sslpassword":
		kv[name] = value
	case "connectTimeout":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return fmt.Errorf("connectTimeout: expected a number of seconds, got %q", value)
		}
		kv["connect_timeout"] = strconv.Itoa(n)
	case "ApplicationName":
		kv["application_name"] = value
	case "currentSchema":
		kv["search_path"] = value
	case "options":
		kv["options"] = value
	case "loadBalanceHosts":
		t.loadBalance, err = sqlbind.Bool(name, value)
	case "reWriteBatchedInserts":
		t.rewriteBatch, err = sqlbind.Bool(name, value)
	default:
		t.unknown = append(t.unknown, name)
	}
	return err
}

// keywordValue renders a libpq keyword/value string, keys sorted.
func keywordValue(kv map[string]string) string {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k)
		b.WriteString("='")
		v := strings.ReplaceAll(kv[k], `\`, `\\`)
		b.WriteString(strings.ReplaceAll(v, `'`, `\'`))
		b.WriteByte('\'')
	}
	return b.String()
}

// parsePostgresURL takes a postgres:// URL as pgx does, after removing the
// JDBC-style options it also understands (and libpq 16's load_balance_hosts).
func parsePostgresURL(raw string) (*target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse quotes the input, which may hold a password.
		return nil, fmt.Errorf("not a valid URL")
	}
	t := &target{}
	q := u.Query()
	if v, ok := q["loadBalanceHosts"]; ok {
		if t.loadBalance, err = sqlbind.Bool("loadBalanceHosts", v[0]); err != nil {
			return nil, err
		}
		q.Del("loadBalanceHosts")
	}
	if v, ok := q["load_balance_hosts"]; ok {
		switch v[0] {
		case "random":
			t.loadBalance = true
		case "disable":
		default:
			return nil, fmt.Errorf("load_balance_hosts: expected random or disable, got %q", v[0])
		}
		q.Del("load_balance_hosts")
	}
	if v, ok := q["reWriteBatchedInserts"]; ok {
		if t.rewriteBatch, err = sqlbind.Bool("reWriteBatchedInserts", v[0]); err != nil {
			return nil, err
		}
		q.Del("reWriteBatchedInserts")
	}
	for _, name := range tlsFileParams {
		if v, ok := q[name]; ok {
			if err := checkTLSFile(name, v[0]); err != nil {
				return nil, err
			}
		}
	}
	// pgx does not read '+' as a space in URL parameters.
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20")
	if u.User != nil {
		t.userSet = u.User.Username() != ""
		_, t.passwordSet = u.User.Password()
	}
	if q.Get("user") != "" {
		t.userSet = true
	}
	if q.Get("password") != "" {
		t.passwordSet = true
	}
	t.dsn = u.String()
	t.display = secret.InText(t.dsn)
	return t, nil
}

// tlsFileParams are the URL parameters naming files pgx reads itself.
var tlsFileParams = []string{"sslcert", "sslkey", "sslrootcert"}

// checkTLSFile refuses, as internal/infile refuses any input, a TLS file
// that is not a regular file or a pipe of at most infile.MaxText bytes,
// before pgx reads it unbounded: the error names the parameter as typed.
// A missing file is left to pgx, which says so when it builds the
// connection.
func checkTLSFile(name, path string) error {
	if err := infile.Check(path, infile.MaxText); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return infile.Name(err, name+"="+path)
	}
	return nil
}

// parseError is pgx's refusal of t's connection string, masked, with
// t.display in place of the string: pgx's own masking misses a quoted
// password holding \' (see pgconn's redactPW).
func parseError(err error, t *target) string {
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return secret.Line(err.Error())
	}
	const stand = "\x00"
	c := *pe
	c.ConnString = stand
	return strings.Replace(secret.Line(c.Error()), stand, t.display, 1)
}
