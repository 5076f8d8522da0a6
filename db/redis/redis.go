// Package redis is the reference's redis binding for Redis (and Valkey),
// standalone or a Redis Cluster, on the rueidis client.
//
// It registers redis, with the reference's class names as aliases. The
// default layout is the reference's: each record a HASH at its bare key,
// and the key in the sorted set _indices scored by Java's
// String.hashCode(key), so that data loaded by the reference is read by this
// binding and the other way round; scans are the reference's (the keys
// scored from the start key's score up, then their records). go-ycsb's
// layout (redis.layout=go-ycsb: the record at "table/key", a HASH or, with
// redis.datatype=string, go-ycsb's JSON string) is the other; it has no
// index and refuses scans. Both tools' properties are read;
// docs/redis.md lists them.
//
// The client pipelines the requests of concurrent workers on one
// connection per server (rueidis's automatic pipelining): one write and
// one read system call carry many workers' requests, each worker still
// waiting for its own answer, so an operation means and is timed as
// before.
package redis

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/redis/rueidis"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/tlsfiles"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
)

func init() {
	db.Register("redis", "Redis and Valkey, standalone or a Redis Cluster (the reference's layout or go-ycsb's)",
		db.CheckedDriver{OpenFunc: open, CheckFunc: check},
		"site.ycsb.db.RedisClient", "com.yahoo.ycsb.db.RedisClient")
}

// indexKey is the reference's sorted set of every key (RedisClient.INDEX_KEY).
const indexKey = "_indices"

// redisDB is the opened binding: one client shared by all workers, as the
// reference's threads each hold a connection and go-ycsb's share a pool.
type redisDB struct {
	cfg    *config
	client rueidis.Client
}

func open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, err := parseConfig(p)
	if err != nil {
		return nil, err
	}
	opt := rueidis.ClientOption{
		InitAddress: cfg.addrs,
		Username:    cfg.username,
		Password:    cfg.password,
		SelectDB:    cfg.db,
		// The reference's client (jedis 2.9) speaks RESP2; replies come as
		// flat arrays that are read without building maps.
		AlwaysRESP2:  true,
		DisableCache: true,
		// The binding retries itself (session.retry): idempotent writes
		// too, each failure counted, with backoff.
		DisableRetry:      true,
		ForceSingleClient: !cfg.cluster,
		PipelineMultiplex: log2(cfg.conns),
		// A server that stops answering fails its requests after this:
		// the connection is closed and its requests end with an error.
		ConnWriteTimeout: cfg.timeout,
		Dialer:           net.Dialer{Timeout: cfg.timeout},
		// The slot map is read again every second besides after errors:
		// a replica that took over from a master that stopped answering
		// (rather than one that died) is found sooner (a 10 s freeze
		// stalled the workers 3.5-3.9 s with it, 5.8 s without).
		ClusterOption: rueidis.ClusterOption{ShardsRefreshInterval: time.Second},
	}
	if cfg.tls {
		tc, err := cfg.tlsConfig(ctx)
		if err != nil {
			return nil, err
		}
		opt.TLSConfig = tc
	}
	where := strings.Join(cfg.addrs, ",")
	client, err := rueidis.NewClient(opt)
	if err != nil {
		return nil, clean(fmt.Errorf("redis: connect to %s: %w", where, err))
	}
	d := &redisDB{cfg: cfg, client: client}
	if err := d.checkServer(ctx, where); err != nil {
		client.Close()
		return nil, clean(err)
	}
	return d, nil
}

// checkServer makes sure the server is what the properties say: a cluster
// node for redis.cluster=true, a standalone server otherwise (one whose
// keys would answer MOVED is refused at once, not on each operation).
func (d *redisDB) checkServer(ctx context.Context, where string) error {
	cctx, cancel := context.WithTimeout(ctx, d.cfg.timeout+time.Second)
	defer cancel()
	info, err := d.client.Do(cctx, d.client.B().Info().Section("cluster").Build()).ToString()
	if err != nil {
		return fmt.Errorf("redis: %s: %w", where, err)
	}
	enabled := strings.Contains(info, "cluster_enabled:1")
	switch {
	case d.cfg.cluster && !enabled:
		return fmt.Errorf("redis: %s is not a Redis Cluster node (cluster_enabled:0) but %s=true or %s=cluster asks for one", where, propCluster, propMode)
	case !d.cfg.cluster && enabled:
		return fmt.Errorf("redis: %s is a Redis Cluster node: set %s=true (or %s=cluster)", where, propCluster, propMode)
	}
	return nil
}

// tlsConfig reads the PEM files of redis.tls_ca, _cert and _key, each a
// regular file or a pipe of at most infile.MaxText bytes.
func (c *config) tlsConfig(ctx context.Context) (*tls.Config, error) {
	tc := &tls.Config{InsecureSkipVerify: c.tlsInsecure, MinVersion: tls.VersionTLS12}
	if err := tlsfiles.Load(ctx, tc, tlsfiles.File{Prop: propTLSCA, Path: c.tlsCA},
		tlsfiles.File{Prop: propTLSCert, Path: c.tlsCert}, tlsfiles.File{Prop: propTLSKey, Path: c.tlsKey}); err != nil {
		return nil, err
	}
	return tc, nil
}

// clean makes err one line with any password in it masked.
func clean(err error) error { return errors.New(secret.Line(err.Error())) }

func log2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}

// WaitsOnServer implements db.Remote.
func (d *redisDB) WaitsOnServer() {}

func (d *redisDB) Session(_ context.Context, worker, workers int) (db.Session, error) {
	return newSession(d), nil
}

// Close closes the client's connections.
func (d *redisDB) Close() error {
	d.client.Close()
	return nil
}
