package postgres

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

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

// splitURLs splits db.url at semicolons, the reference's shard separator,
// except inside a password or a quoted key='value'.
func splitURLs(v string) []string {
	var out []string
	for _, u := range secret.Split(v, ';') {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
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

type hostPort struct{ host, port string }

func parseJDBC(rest string) (*target, error) {
	rest, query, _ := strings.Cut(rest, "?")
	hosts, dbname, err := jdbcHostsAndDatabase(rest)
	if err != nil {
		return nil, err
	}
	var hs, ps []string
	for _, h := range hosts {
		hs = append(hs, h.host)
		ps = append(ps, h.port)
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
	t.display = "jdbc:postgresql://" + strings.Join(joinHostPorts(hosts), ",") + "/" + dbname
	if len(display) > 0 {
		t.display += "?" + strings.Join(display, "&")
	}
	return t, nil
}

// jdbcHostsAndDatabase reads the part of a JDBC URL between
// "jdbc:postgresql:" and the '?': "//host:port,.../database", or only a
// database on localhost:5432.
func jdbcHostsAndDatabase(rest string) ([]hostPort, string, error) {
	hosts := []hostPort{{"localhost", "5432"}}
	dbname := rest
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		hostPart := rest
		dbname = ""
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			hostPart, dbname = rest[:i], rest[i+1:]
		}
		if strings.Contains(hostPart, "@") {
			// Not quoted: what precedes the @ may be a password.
			return nil, "", fmt.Errorf("a JDBC URL takes no user:password@ before the host: use ?user=…&password=… or db.user and db.passwd")
		}
		var err error
		if hosts, err = parseHostList(hostPart); err != nil {
			return nil, "", err
		}
	} else {
		dbname = strings.TrimPrefix(dbname, "/")
	}
	dbname, err := url.PathUnescape(dbname)
	if err != nil {
		return nil, "", fmt.Errorf("bad database name: %w", err)
	}
	return hosts, dbname, nil
}

// jdbcQuery reads the parameters after the '?' into kv and t, and returns
// them as they are displayed, passwords masked.
func (t *target) jdbcQuery(kv map[string]string, query string) ([]string, error) {
	var ssl *bool
	display := []string{}
	for _, pair := range strings.Split(query, "&") {
		if pair == "" {
			continue
		}
		rawName, value, _ := strings.Cut(pair, "=")
		name := rawName
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if v, err := url.QueryUnescape(value); err == nil {
			value = v
		}
		if secret.IsPassword(name) {
			display = append(display, rawName+"="+secret.Mask)
		} else {
			display = append(display, pair)
		}
		if err := t.jdbcParam(kv, name, value, &ssl); err != nil {
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
		t.loadBalance, err = jdbcBool(name, value)
	case "reWriteBatchedInserts":
		t.rewriteBatch, err = jdbcBool(name, value)
	default:
		t.unknown = append(t.unknown, name)
	}
	return err
}

func joinHostPorts(hosts []hostPort) []string {
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = net.JoinHostPort(h.host, h.port)
	}
	return out
}

func jdbcBool(name, value string) (bool, error) {
	switch strings.ToLower(value) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%s: expected true or false, got %q", name, value)
}

// parseHostList parses h1:p1,h2,[::1]:p3 with PgJDBC's default port 5432.
func parseHostList(s string) ([]hostPort, error) {
	var out []hostPort
	for _, hp := range strings.Split(s, ",") {
		if hp == "" {
			return nil, fmt.Errorf("empty host in %q", s)
		}
		host, port := hp, "5432"
		if strings.HasPrefix(hp, "[") {
			end := strings.IndexByte(hp, ']')
			if end < 0 {
				return nil, fmt.Errorf("bad host %q", hp)
			}
			host = hp[1:end]
			if rest := hp[end+1:]; rest != "" {
				if !strings.HasPrefix(rest, ":") {
					return nil, fmt.Errorf("bad host %q", hp)
				}
				port = rest[1:]
			}
		} else if i := strings.LastIndexByte(hp, ':'); i >= 0 {
			host, port = hp[:i], hp[i+1:]
		}
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("bad port in %q", hp)
		}
		out = append(out, hostPort{host, port})
	}
	return out, nil
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
		if t.loadBalance, err = jdbcBool("loadBalanceHosts", v[0]); err != nil {
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
		if t.rewriteBatch, err = jdbcBool("reWriteBatchedInserts", v[0]); err != nil {
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
