package redis

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/props"
)

// Property names. The first group is the reference's (RedisClient.java at
// 0.17.0; redis.timeout from its later releases), the second go-ycsb's
// (db/redis/db.go), the third ours. redis.password is both tools'.
const (
	propHost     = "redis.host"
	propPort     = "redis.port"
	propPassword = "redis.password"
	propCluster  = "redis.cluster"
	propTimeout  = "redis.timeout"

	propAddr        = "redis.addr"
	propMode        = "redis.mode"
	propUsername    = "redis.username"
	propDB          = "redis.db"
	propPoolSize    = "redis.pool_size"
	propTLSCA       = "redis.tls_ca"
	propTLSCert     = "redis.tls_cert"
	propTLSKey      = "redis.tls_key"
	propTLSInsecure = "redis.tls_insecure_skip_verify"
	propDatatype    = "redis.datatype"

	propLayout  = "redis.layout"
	propRetries = "redis.retries"

	defaultHost = "localhost"
	defaultPort = 6379
	// jedis's Protocol.DEFAULT_TIMEOUT, the reference's default.
	defaultTimeout = 2 * time.Second
	defaultRetries = 15
	maxRetries     = 100
	maxPool        = 256
)

// layout is where a record lives in Redis.
type layout string

const (
	// layoutReference is the reference's: a HASH at the bare key, and the
	// key in the sorted set _indices scored by Java's String.hashCode.
	layoutReference layout = "reference"
	// layoutGoYCSB is go-ycsb's: the record at "table/key", no index.
	layoutGoYCSB layout = "go-ycsb"
)

// datatype is how go-ycsb's layout stores a record.
type datatype string

const (
	datatypeHash datatype = "hash"
	// datatypeString is one STRING holding a JSON object of the fields,
	// each value in base64 (Go's encoding of []byte), as go-ycsb writes it.
	datatypeString datatype = "string"
)

// config is the parsed property set.
type config struct {
	addrs    []string // host:port; one unless cluster
	cluster  bool
	username string
	password string
	db       int
	// conns is the number of connections per server that the workers'
	// requests are pipelined on.
	conns       int
	timeout     time.Duration
	retries     int
	tls         bool
	tlsCA       string
	tlsCert     string
	tlsKey      string
	tlsInsecure bool
	layout      layout
	datatype    datatype
	fieldCount  int
}

// parseConfig reads and validates every property; its errors are props
// errors (bad input, exit code 2), one line naming the property.
func parseConfig(p *props.Properties) (*config, error) {
	c := &config{}
	r := props.NewReader(p)

	// Where: the reference's host and port, or go-ycsb's addr list.
	hostSet, portSet := r.Has(propHost), r.Has(propPort)
	host := strings.TrimSpace(r.String(propHost, defaultHost))
	if hostSet && host == "" {
		r.Fail(props.Invalid(propHost, host, "a host name or address"))
	}
	port := r.Int(propPort, defaultPort, props.Range("a TCP port in 1..65535", func(n int64) bool { return n >= 1 && n <= 65535 }))
	hostPort := net.JoinHostPort(host, strconv.Itoa(port))
	if raw, ok := p.Get(propAddr); ok {
		for _, a := range strings.FieldsFunc(raw, func(r rune) bool { return r == ';' || r == ',' }) {
			a = strings.TrimSpace(a)
			if !validAddr(a) {
				r.Fail(props.Invalid(propAddr, raw, "host:port addresses separated by ; or ,"))
				break
			}
			c.addrs = append(c.addrs, a)
		}
		if len(c.addrs) == 0 {
			r.Fail(props.Invalid(propAddr, raw, "host:port addresses separated by ; or ,"))
		}
		if (hostSet || portSet) && len(c.addrs) > 0 && !contains(c.addrs, hostPort) {
			r.Errorf(propHost, "%s and %s say %s but %s=%s does not list it: give one or the other", propHost, propPort, hostPort, propAddr, raw)
		}
	} else {
		c.addrs = []string{hostPort}
	}

	// Cluster or not: the reference's boolean, go-ycsb's mode.
	clusterSet, modeSet := r.Has(propCluster), r.Has(propMode)
	c.cluster = r.Bool(propCluster, false)
	mode := props.OneOf(r, propMode, "single", "single", "cluster")
	if clusterSet && modeSet && c.cluster != (mode == "cluster") {
		r.Errorf(propCluster, "%s=%v contradicts %s=%s", propCluster, c.cluster, propMode, mode)
	}
	c.cluster = c.cluster || mode == "cluster"
	if !c.cluster && len(c.addrs) > 1 {
		r.Errorf(propAddr, "lists %d addresses, but a single server takes one: set %s=cluster (or %s=true) for a Redis Cluster", len(c.addrs), propMode, propCluster)
	}

	c.username = r.String(propUsername, "")
	c.password = r.String(propPassword, "")
	if c.username != "" && !p.Has(propPassword) {
		r.Errorf(propUsername, "%s needs %s", propUsername, propPassword)
	}
	c.db = r.Int(propDB, 0, props.NonNegative)
	if c.cluster && c.db != 0 {
		r.Errorf(propDB, "%s=%d: a Redis Cluster has database 0 only", propDB, c.db)
	}
	c.conns = r.Int(propPoolSize, 0, props.Range(fmt.Sprintf("0 (the default: 1) or a power of two up to %d, the connections per server that the workers' requests are pipelined on", maxPool),
		func(n int64) bool { return n >= 0 && n <= maxPool && n&(n-1) == 0 }))
	if c.conns == 0 {
		c.conns = 1
	}
	c.timeout = r.Duration(propTimeout, time.Millisecond, defaultTimeout, time.Millisecond, props.MaxDuration)
	c.retries = r.Int(propRetries, defaultRetries, props.Range(fmt.Sprintf("an integer from 0 to %d", maxRetries),
		func(n int64) bool { return n >= 0 && n <= maxRetries }))

	c.tlsCA = r.String(propTLSCA, "")
	c.tlsCert = r.String(propTLSCert, "")
	c.tlsKey = r.String(propTLSKey, "")
	c.tlsInsecure = r.Bool(propTLSInsecure, false)
	if (c.tlsCert == "") != (c.tlsKey == "") {
		r.Errorf(propTLSCert, "%s and %s go together (a client certificate and its key)", propTLSCert, propTLSKey)
	}
	c.tls = c.tlsCA != "" || c.tlsCert != "" || c.tlsInsecure

	c.layout = props.OneOf(r, propLayout, layoutReference, layoutReference, layoutGoYCSB)
	c.datatype = props.OneOf(r, propDatatype, datatypeHash, datatypeHash, datatypeString)
	if c.layout == layoutReference && r.Has(propDatatype) {
		r.Errorf(propDatatype, "%s is go-ycsb's layout's (table/key): add %s=%s, or leave it out for the reference's layout (a hash at the key)", propDatatype, propLayout, layoutGoYCSB)
	}
	c.fieldCount = r.Int("fieldcount", 10, props.NonNegative)
	if err := r.Err(); err != nil {
		return nil, err
	}
	if c.layout == layoutGoYCSB {
		// go-ycsb's layout keeps no index: a scan could only be empty.
		if raw, ok := p.Get("scanproportion"); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64); err == nil && f > 0 {
				return nil, props.Errorf(propLayout, "%s=%s keeps no index to scan by, but scanproportion=%s: use the reference's layout (leave %s out) for scans", propLayout, c.layout, raw, propLayout)
			}
		}
	}
	return c, nil
}

// check is parseConfig for db.Checker: the TLS files are read only by Open.
func check(p *props.Properties) error {
	_, err := parseConfig(p)
	return err
}

func validAddr(a string) bool {
	h, p, err := net.SplitHostPort(a)
	if err != nil || h == "" {
		return false
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
