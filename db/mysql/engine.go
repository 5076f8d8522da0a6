package mysql

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db"
)

// engineSection is the report section of the storage engine's statistics,
// the embedded engines' (db/internal/kv), so that MyRocks' rows read
// beside theirs.
const engineSection = "ENGINE"

// statsWait bounds the statement that reads the server's counters after
// a phase.
const statsWait = 2 * time.Second

// counter is one server status variable the report shows, as a delta
// over the phase.
type counter struct{ row, variable string }

// counters are each engine's status variables (SHOW GLOBAL STATUS).
// They are the server's, not the table's: every table on the engine
// counts, which in a benchmark is the one table the phase uses.
var counters = map[string][]counter{
	"innodb": {
		{"BufferPoolReadRequests", "Innodb_buffer_pool_read_requests"},
		{"BufferPoolDiskReads", "Innodb_buffer_pool_reads"},
		{"DataBytesRead", "Innodb_data_read"},
		{"DataBytesWritten", "Innodb_data_written"},
		{"LogBytesWritten", "Innodb_os_log_written"},
	},
	"rocksdb": {
		{"BlockCacheHits", "Rocksdb_block_cache_hit"},
		{"BlockCacheMisses", "Rocksdb_block_cache_miss"},
		{"UserBytesWritten", "Rocksdb_bytes_written"},
		{"WALBytesWritten", "Rocksdb_wal_bytes"},
		{"FlushBytesWritten", "Rocksdb_flush_write_bytes"},
		{"CompactionBytesRead", "Rocksdb_compact_read_bytes"},
		{"CompactionBytesWritten", "Rocksdb_compact_write_bytes"},
	},
}

// engineStats reports the statistics of the table's engine on the first
// shard, as deltas from when the binding opened.
type engineStats struct {
	md     *mysqlDB
	engine string // lower case: innodb, rocksdb; others report nothing
	sh     *shard
	base   map[string]int64
	settle time.Duration // the last Settle's time; 0: none
}

func (e *engineStats) init(md *mysqlDB, engine string, sh *shard) {
	e.md, e.engine, e.sh = md, engine, sh
	if _, ok := counters[engine]; !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), statsWait)
	defer cancel()
	e.base, _ = e.read(ctx) // none readable: no rows (see stats)
}

// read reads the engine's counters on a connection of its own, which has
// answerWait to answer: a server that does not answer as soon as that
// (frozen when the run was stopped) gets no question, and the report no
// rows, rather than the report waiting for it.
func (e *engineStats) read(ctx context.Context) (map[string]int64, error) {
	var names []string
	for _, c := range counters[e.engine] {
		names = append(names, "'"+c.variable+"'")
	}
	cctx, cancel := context.WithTimeout(ctx, answerWait)
	conn, err := e.sh.connector.Connect(cctx)
	cancel()
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	out := map[string]int64{}
	err = querier{conn}.rows(ctx, "SHOW GLOBAL STATUS WHERE Variable_name IN ("+strings.Join(names, ",")+")", func(v []string) {
		if n, err := strconv.ParseInt(v[1], 10, 64); err == nil && len(v) == 2 {
			out[strings.ToLower(v[0])] = n
		}
	})
	return out, err
}

// answerWait is how soon a server must answer a new connection for the
// report to ask it its counters: a local or nearby server answers in
// milliseconds, even loaded.
const answerWait = 500 * time.Millisecond

// stats renders the counters' growth since the binding opened.
func (e *engineStats) stats() []db.Stat {
	cs, ok := counters[e.engine]
	if !ok || e.base == nil || e.md.down.Load() > 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), statsWait)
	defer cancel()
	now, err := e.read(ctx)
	if err != nil {
		return nil
	}
	row := func(name string, v any) db.Stat { return db.Stat{Section: engineSection, Name: name, Value: v} }
	var out []db.Stat
	delta := map[string]int64{}
	for _, c := range cs {
		v := strings.ToLower(c.variable)
		delta[c.row] = now[v] - e.base[v]
		out = append(out, row(c.row, delta[c.row]))
	}
	switch e.engine {
	case "innodb":
		// A logical read that InnoDB had to take from disk is a miss.
		req, disk := delta["BufferPoolReadRequests"], delta["BufferPoolDiskReads"]
		out = append(out, row("BufferPoolHitRate(%)", rate(req-disk, disk)))
	case "rocksdb":
		out = append(out, row("BlockCacheHitRate(%)", rate(delta["BlockCacheHits"], delta["BlockCacheMisses"])))
	}
	if e.settle > 0 {
		out = append(out, row("SettleTime(ms)", e.settle.Milliseconds()))
	}
	return out
}

// rate is hits in percent of hits and misses, two decimals; 0 without any.
func rate(hits, misses int64) float64 {
	if t := hits + misses; t > 0 && hits >= 0 {
		return float64(int64(10000*float64(hits)/float64(t)+0.5)) / 100
	}
	return 0
}

// Settle implements db.Settler with mysql.settle=true: the table's
// changes are written out of memory, so that the next phase starts from
// them on disk. InnoDB: FLUSH TABLES ... FOR EXPORT (its dirty pages
// written, purge of it done); MyRocks: the memtable flushed and the
// table's column family compacted (rocksdb_force_flush_memtable_now,
// rocksdb_compact_cf).
func (md *mysqlDB) Settle(ctx context.Context) error {
	if !md.cfg.settle || len(md.shards) == 0 {
		return nil
	}
	start := time.Now()
	for _, sh := range md.shards {
		err := md.withConnFor(ctx, sh, settleWait, func(ctx context.Context, q querier) error {
			switch md.engine.engine {
			case "innodb":
				if err := q.exec(ctx, "FLUSH TABLES "+md.cfg.Table+" FOR EXPORT"); err != nil {
					return err
				}
				return q.exec(ctx, "UNLOCK TABLES")
			case "rocksdb":
				if err := q.exec(ctx, "SET GLOBAL rocksdb_force_flush_memtable_now = ON"); err != nil {
					return err
				}
				return q.exec(ctx, "SET GLOBAL rocksdb_compact_cf = 'default'")
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("%s on %s: %v", md.cfg.Table, sh.display, err)
		}
	}
	md.engine.settle = time.Since(start)
	return nil
}

// settleWait bounds Settle: a full compaction of a few GiB takes minutes
// on a small machine.
const settleWait = 30 * time.Minute
