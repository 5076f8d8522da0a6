// Package sqlbind holds what the SQL bindings (db/postgres, db/mysql) share:
// the reference's jdbc properties, db.url's list of shards and the pieces of
// a JDBC URL, the reference's sharding, the buffer of batched inserts and
// the transactions retried after a failure the database asks the client to
// retry. Each binding keeps what speaks its own protocol.
package sqlbind

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/javahash"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
)

// DefaultTimeout is db.timeout's default. The reference's JDBC binding sets
// no query timeout, so a server that stops answering hangs it; a run should
// end instead, and no statement of a benchmark takes anywhere near this long.
const DefaultTimeout = 30 * time.Second

// FlushEvery bounds the rows a session buffers when jdbc.batchupdateapi is
// on without db.batchsize: the reference then never sends the batch at all;
// the bindings send it in chunks and at Close instead of keeping the whole
// load in memory.
const FlushEvery = 1000

// Property names beyond the reference's (JdbcDBClient.java at 0.17.0) that
// every SQL binding reads.
const (
	PropCreateTable = "jdbc.createtable" // also db.createtable
	PropMaxRetries  = "db.maxretries"
	PropTimeout     = "db.timeout"
)

// Common is the reference's jdbc properties, as every SQL binding reads them.
type Common struct {
	Table      string
	FieldCount int
	BatchSize  int // db.batchsize; ≤ 0: unset
	FetchSize  int // jdbc.fetchsize; ≤ 0: unset
	Autocommit bool
	BatchAPI   bool // jdbc.batchupdateapi
	Create     bool // jdbc.createtable (or db.createtable)
	Timeout    time.Duration
	User       string // db.user
	Passwd     string // db.passwd
}

// ReadCommon reads the reference's jdbc properties through r.
func ReadCommon(r *props.Reader) Common {
	var c Common
	c.Table = r.String("table", "usertable")
	if c.Table == "" {
		r.Fail(props.Invalid("table", "", "a table name"))
	}
	c.FieldCount = r.Int("fieldcount", 10, props.NonNegative)
	c.BatchSize = r.Int("db.batchsize", -1)
	c.FetchSize = r.Int("jdbc.fetchsize", -1, props.NonNegative) // rows; unset: -1
	c.Autocommit = r.Bool("jdbc.autocommit", true)
	c.BatchAPI = r.Bool("jdbc.batchupdateapi", false)
	c.Create = r.Bool(PropCreateTable, false) || r.Bool("db.createtable", false)
	c.Timeout = r.Seconds(PropTimeout, DefaultTimeout.Seconds(), 0)
	c.User = r.String("db.user", "")
	c.Passwd = r.String("db.passwd", "")
	return c
}

// SplitURLs splits db.url at semicolons, the reference's shard separator,
// except inside a password or a quoted key='value'.
func SplitURLs(v string) []string {
	var out []string
	for _, u := range secret.Split(v, ';') {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// HostPort is one host of a JDBC URL's host list.
type HostPort struct{ Host, Port string }

// String is host:port, the host in brackets when it is IPv6.
func (h HostPort) String() string { return net.JoinHostPort(h.Host, h.Port) }

// ParseHostList parses h1:p1,h2,[::1]:p3, the port of a host without one
// being defaultPort.
func ParseHostList(s, defaultPort string) ([]HostPort, error) {
	var out []HostPort
	for _, hp := range strings.Split(s, ",") {
		if hp == "" {
			return nil, fmt.Errorf("empty host in %q", s)
		}
		host, port := hp, defaultPort
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
		out = append(out, HostPort{host, port})
	}
	return out, nil
}

// JoinHostPorts renders hosts as host:port strings.
func JoinHostPorts(hosts []HostPort) []string {
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = h.String()
	}
	return out
}

// JDBCAuthority reads the part of a JDBC URL between "jdbc:<sub>:" and the
// '?': "//host:port,.../database", or only a database on the driver's
// default host. def is that default host.
func JDBCAuthority(rest string, def HostPort) ([]HostPort, string, error) {
	hosts := []HostPort{def}
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
		if hostPart == "" {
			hostPart = def.String()
		}
		var err error
		if hosts, err = ParseHostList(hostPart, def.Port); err != nil {
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

// Param is one name=value of a URL's query, unescaped.
type Param struct{ Name, Value string }

// QueryParams reads the parameters after a URL's '?', and returns them
// with the query as it is displayed: password parameters masked.
func QueryParams(query string) (params []Param, display []string) {
	display = []string{}
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
		params = append(params, Param{name, value})
	}
	return params, display
}

// Bool reads a JDBC URL's boolean parameter: true or false, in any case.
func Bool(name, value string) (bool, error) {
	switch strings.ToLower(value) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%s: expected true or false, got %q", name, value)
}

// ShardIndex is the reference's abs(key.hashCode()) % n. Java's abs keeps
// Integer.MIN_VALUE negative and then fails; we take it as 2^31.
func ShardIndex(key string, n int) int {
	if n == 1 {
		return 0
	}
	h := int64(javahash.String(key))
	if h < 0 {
		h = -h
	}
	return int(h % int64(n))
}
