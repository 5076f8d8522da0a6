// Package sqlite is the embedded SQLite binding, through modernc.org/sqlite
// (SQLite compiled to Go: no C toolchain needed), beside the key-value
// engines.
//
// It keeps the reference's JDBC layout: one table (the workload's table)
// with YCSB_KEY VARCHAR(255) PRIMARY KEY and one TEXT column a field, named
// as the workload names its fields (field0 ... fieldN-1 by default), in WAL
// mode. An update is an UPDATE of the changed columns; reads select the
// requested columns. Each worker has its own connection with its prepared
// statements.
//
// It reads the engine.* properties that mean something to SQLite
// (engine.dir, engine.sync, engine.cachesize, engine.blocksize as the page
// size, engine.fresh, engine.settle) and go-ycsb's sqlite.* names
// (sqlite.db, sqlite.journalmode). docs/engines.md says how each maps.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	msqlite "modernc.org/sqlite"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/props"
)

const name = "sqlite"

func init() {
	db.RegisterEmbedded(name, "embedded SQLite (pure Go; no server needed; data in engine.dir)", db.CheckedDriver{OpenFunc: Open, CheckFunc: Check})
}

var spec = kv.Spec{
	Aliases: map[string][]string{kv.PropDir: {"sqlite.db"}},
	NotApplicable: map[string]string{
		kv.PropMemtableSize:      "SQLite has no memtable",
		kv.PropCompression:       "SQLite does not compress",
		kv.PropBloomBits:         "a B-tree has no bloom filters",
		kv.PropMaxOpenFiles:      "SQLite keeps one database file and its WAL",
		kv.PropCompactionThreads: "a B-tree does not compact",
		"sqlite.cache":           "not supported: every worker has its own connection and page cache",
		"sqlite.maxopenconns":    "not supported: every worker has its own connection",
		"sqlite.maxidleconns":    "not supported: every worker has its own connection",
		"sqlite.optimistic":      "not supported",
	},
}

// Journal modes that keep acknowledged writes through a process crash.
var journalModes = []string{"wal", "delete", "truncate", "persist"}

// config is SQLite's configuration beyond the neutral one.
type config struct {
	kv.Config
	journal string   // sqlite.journalmode
	table   string   // the workload's table
	fields  []string // its field names: the columns
}

func parse(p *props.Properties) (config, error) {
	c := config{}
	var err error
	c.Config, err = kv.Parse(name, p, spec)
	if err != nil {
		return c, err
	}
	if bs := c.BlockSize; bs < 512 || bs > 64<<10 || bits.OnesCount(uint(bs)) != 1 {
		return c, props.Invalid(kv.PropBlockSize, kv.FormatSize(int64(bs)), "a power of two between 512 bytes and 64KiB (SQLite's page size)")
	}
	r := props.NewReader(p)
	c.journal = strings.ToLower(r.String("sqlite.journalmode", "wal"))
	if !slicesContains(journalModes, c.journal) {
		r.Errorf("sqlite.journalmode", "%q: want one of %s (MEMORY and OFF lose acknowledged writes in a crash)", c.journal, strings.Join(journalModes, ", "))
	}
	// The workload's table and fields make the reference's schema.
	c.table = r.String("table", "usertable")
	n := r.Int("fieldcount", 10, props.Range("between 1 and 1000 (SQLite's column limit is 2000)", func(n int64) bool { return n >= 1 && n <= 1000 }))
	prefix := r.String("fieldnameprefix", "field")
	if err := r.Err(); err != nil {
		return c, err
	}
	if !identifier(c.table) {
		return c, props.Invalid("table", c.table, "a table name of letters, digits and underscores")
	}
	if !identifier(prefix + "0") {
		return c, props.Invalid("fieldnameprefix", prefix, "letters, digits and underscores")
	}
	for i := 0; i < n; i++ {
		c.fields = append(c.fields, prefix+strconv.Itoa(i))
	}
	return c, nil
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// identifier: written unquoted into SQL, as the reference does.
func identifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Check validates the properties as Open does, without touching engine.dir.
func Check(p *props.Properties) error {
	_, err := parse(p)
	return err
}

// DB is an open SQLite database shared by all workers.
type DB struct {
	cfg   config
	db    *sql.DB
	lock  *os.File // LOCK: SQLite itself lets processes share a database
	path  string
	dsn   string // every connection's: the file and its pragmas
	stats kv.Reporter

	mu    sync.Mutex
	cache cacheCounters         // of the closed sessions' connections
	open  map[*session]struct{} // the sessions open now
}

// cacheCounters are a connection's page cache counters (sqlite3_db_status).
type cacheCounters struct{ hits, misses, writes, spills, used int64 }

func (c *cacheCounters) add(o cacheCounters) {
	c.hits += o.hits
	c.misses += o.misses
	c.writes += o.writes
	c.spills += o.spills
	c.used += o.used
}

// synchronous maps engine.sync: FULL syncs the WAL at every commit; NORMAL,
// in WAL mode, syncs only at checkpoints (the LSM engines' engine.sync=false
// syncs at flushes), so a commit survives a process crash, not a machine
// crash. In the rollback-journal modes NORMAL still syncs at commits.
func synchronous(sync bool) string {
	if sync {
		return "FULL"
	}
	return "NORMAL"
}

// Open is the driver: it validates the properties, prepares engine.dir,
// opens the database and creates the table when it is missing.
func Open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, err := parse(p)
	if err != nil {
		return nil, err
	}
	state, err := kv.PrepareDir(&cfg.Config)
	if err != nil {
		return nil, err
	}
	lock, err := kv.LockDir(&cfg.Config)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(cfg.Dir, kv.SQLiteFile)
	q := url.Values{}
	// page_size first: it only applies before the database has pages.
	for _, pr := range []string{"page_size(" + strconv.Itoa(cfg.BlockSize) + ")", "journal_mode(" + cfg.journal + ")",
		"synchronous(" + synchronous(cfg.Sync) + ")", "busy_timeout(10000)"} {
		q.Add("_pragma", pr)
	}
	dsn := "file:" + path + "?" + q.Encode()
	sdb, err := sql.Open("sqlite", dsn)
	if err == nil {
		err = sdb.PingContext(ctx)
	}
	if err == nil {
		_, err = sdb.ExecContext(ctx, createTableSQL(cfg.table, cfg.fields))
	}
	if err != nil {
		if sdb != nil {
			sdb.Close()
		}
		lock.Close()
		return nil, fmt.Errorf("sqlite: open %s: %s", path, oneLine(err))
	}
	if err := kv.WriteMarker(&cfg.Config, state); err != nil {
		sdb.Close()
		lock.Close()
		return nil, err
	}
	d := &DB{cfg: cfg, db: sdb, lock: lock, path: path, dsn: dsn}
	d.stats.StartEngine(cfg.Dir, d.rows)
	d.stats.LiveBytes(d.liveBytes)
	// Without sync (synchronous=NORMAL) a commit has written the WAL file.
	d.stats.SetDurability(kv.Durability{SyncEachWrite: cfg.Sync, ProcessCrashSafe: true})
	io.WriteString(out, cfg.Summary(state, "journalmode="+cfg.journal, "synchronous="+synchronous(cfg.Sync), "table="+cfg.table,
		"columns="+strconv.Itoa(len(cfg.fields))))
	return d, nil
}

func oneLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// createTableSQL is the reference's schema (its JDBC binding's README),
// idempotent, with the workload's field names as the columns.
func createTableSQL(table string, fields []string) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE IF NOT EXISTS " + table + " (YCSB_KEY VARCHAR(255) PRIMARY KEY")
	for _, f := range fields {
		b.WriteString(", " + f + " TEXT")
	}
	b.WriteByte(')')
	return b.String()
}

// Close closes the database and its lock.
func (d *DB) Close() error {
	err := d.db.Close()
	d.lock.Close()
	return kv.CloseError(&d.cfg.Config, err)
}

// Stats implements db.StatsReporter.
func (d *DB) Stats() []db.Stat { return d.stats.Stats() }

// Settle implements db.Settler: SQLite has nothing to compact; what a WAL
// database owes is its WAL, which settling checkpoints into the database
// file and truncates (PRAGMA wal_checkpoint(TRUNCATE)).
func (d *DB) Settle(ctx context.Context) error {
	return d.stats.SettleEngine(ctx, &d.cfg.Config, func(ctx context.Context) error {
		var busy, logged, moved int64
		if err := d.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logged, &moved); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		if busy != 0 {
			return errors.New("not settled: the checkpoint was blocked by another connection")
		}
		return nil
	}, func() []db.Stat {
		return []db.Stat{stat("WALBytesAfterSettle", fileSize(d.path+"-wal"))}
	})
}

func stat(name string, v any) db.Stat { return db.Stat{Section: kv.Section, Name: name, Value: v} }

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func (d *DB) pragma(name string) int64 {
	var n int64
	d.db.QueryRow("PRAGMA " + name).Scan(&n)
	return n
}

// rows are SQLite's own figures: its pages, the WAL's size, and the page
// caches' counters of the workers' connections (sqlite3_db_status).
func (d *DB) rows() []db.Stat {
	d.mu.Lock()
	c := d.cache
	for s := range d.open {
		c.add(counters(s.conn))
	}
	d.mu.Unlock()
	rate := 0.0
	if c.hits+c.misses > 0 {
		rate = float64(int64(10000*float64(c.hits)/float64(c.hits+c.misses)+0.5)) / 100
	}
	return []db.Stat{
		stat("PageSize", d.pragma("page_size")),
		stat("PageCount", d.pragma("page_count")),
		stat("FreelistPages", d.pragma("freelist_count")),
		stat("WALBytes", fileSize(d.path+"-wal")),
		stat("PageCacheHits", c.hits),
		stat("PageCacheMisses", c.misses),
		stat("PageCacheHitRate(%)", rate),
		stat("PageCacheWrites", c.writes),
		stat("PageCacheSpills", c.spills),
		stat("PageCacheBytesUsed", c.used),
	}
}

// liveBytes sums the user bytes of the records held: keys, field names
// (once a non-NULL value) and values.
func (d *DB) liveBytes() (int64, error) {
	var b strings.Builder
	b.WriteString("SELECT COALESCE(SUM(length(CAST(YCSB_KEY AS BLOB)))")
	for _, f := range d.cfg.fields {
		fmt.Fprintf(&b, " + SUM(CASE WHEN %s IS NULL THEN 0 ELSE %d + length(CAST(%s AS BLOB)) END)", f, len(f), f)
	}
	b.WriteString(", 0) FROM " + d.cfg.table)
	var n int64
	err := d.db.QueryRow(b.String()).Scan(&n)
	return n, err
}

// Session returns a worker's session: its own connection, whose page cache
// is the worker's share of engine.cachesize.
func (d *DB) Session(ctx context.Context, worker, workers int) (db.Session, error) {
	conn, err := (&msqlite.Driver{}).Open(d.dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: connect: %s", oneLine(err))
	}
	kib := max(d.cfg.CacheSize/1024/int64(max(workers, 1)), 1)
	if err := execPragma(conn, "cache_size = -"+strconv.FormatInt(kib, 10)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("sqlite: cache_size: %s", oneLine(err))
	}
	s := &session{d: d, conn: conn, written: kv.NewWriteCounter()}
	d.mu.Lock()
	if d.open == nil {
		d.open = map[*session]struct{}{}
	}
	d.open[s] = struct{}{}
	d.mu.Unlock()
	return s, nil
}

// execPragma runs PRAGMA p on a driver connection.
func execPragma(conn driver.Conn, p string) error {
	st, err := conn.Prepare("PRAGMA " + p)
	if err != nil {
		return err
	}
	defer st.Close()
	r, err := st.(driver.StmtQueryContext).QueryContext(context.Background(), nil)
	if err != nil {
		return err
	}
	return r.Close()
}

// counters reads a connection's page cache counters. Not beside the
// connection's worker: the report reads them once the workers are done.
func counters(conn driver.Conn) (c cacheCounters) {
	s, ok := conn.(msqlite.DBStatus)
	if !ok {
		return c
	}
	for _, v := range []struct {
		op  msqlite.DBStatusOp
		dst *int64
	}{{msqlite.DBStatusCacheHit, &c.hits}, {msqlite.DBStatusCacheMiss, &c.misses}, {msqlite.DBStatusCacheWrite, &c.writes},
		{msqlite.DBStatusCacheSpill, &c.spills}, {msqlite.DBStatusCacheUsed, &c.used}} {
		if cur, _, err := s.Status(v.op, false); err == nil {
			*v.dst = int64(cur)
		}
	}
	return c
}
