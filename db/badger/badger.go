// Package badger is the embedded Badger binding (github.com/dgraph-io/badger/v4):
// an LSM tree whose values above badger.value_threshold live in a separate
// value log (the WiscKey design), beside Pebble and RocksDB.
//
// It reads the engine.* properties (db/internal/kv, docs/engines.md) and
// go-ycsb's badger.* names for them (badger.dir, badger.sync_writes, ...).
// Badger has no merge operator: an update reads the record and writes the
// folded one in one transaction, retried when another worker's transaction
// wrote the key first (Badger detects the conflict), so concurrent updates
// of different fields of one key keep both.
package badger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/props"
)

const name = "badger"

func init() {
	db.RegisterEmbedded(name, "embedded Badger engine (no server needed; data in engine.dir)", db.CheckedDriver{OpenFunc: Open, CheckFunc: Check})
}

var spec = kv.Spec{
	Aliases: map[string][]string{
		kv.PropDir:               {"badger.dir"},
		kv.PropSync:              {"badger.sync_writes"},
		kv.PropCompactionThreads: {"badger.num_compactors"},
	},
	NotApplicable: map[string]string{
		kv.PropMaxOpenFiles: "Badger memory-maps its tables and has no open-file limit",
		"badger.valuedir":   "not supported: the value log lives in engine.dir",
	},
}

// quietLogger drops Badger's informational lines, which would interleave
// with the report, and keeps its errors and warnings on stderr.
type quietLogger struct{}

func (quietLogger) Errorf(f string, a ...any)   { fmt.Fprintf(os.Stderr, "badger: "+f, a...) }
func (quietLogger) Warningf(f string, a ...any) { fmt.Fprintf(os.Stderr, "badger: "+f, a...) }
func (quietLogger) Infof(string, ...any)        {}
func (quietLogger) Debugf(string, ...any)       {}

// bloomFalsePositive is the false positive rate of a bloom filter with
// bitsPerKey bits a key and the optimal number of hashes, which Badger takes
// instead of bits: (1/2)^(bits·ln2), 0.0082 at 10 bits.
func bloomFalsePositive(bitsPerKey int) float64 {
	if bitsPerKey == 0 {
		return 0 // no filter
	}
	return math.Pow(0.5, float64(bitsPerKey)*math.Ln2)
}

// Options turns the configuration into Badger options.
func Options(c *kv.Config, p *props.Properties) (badger.Options, error) {
	o := badger.DefaultOptions(c.Dir)
	if c.CompactionThreads == 1 {
		return o, props.Invalid(c.Name(kv.PropCompactionThreads), "1", "at least 2 (Badger refuses a single compactor)")
	}
	r := props.NewReader(p)
	o.ValueThreshold = kv.ReadSize(r, "badger.value_threshold", o.ValueThreshold, props.Range("a size of at most 1MiB (Badger's limit)", func(n int64) bool { return n <= 1<<20 }))
	o.NumMemtables = r.Int("badger.num_memtables", 2, props.Range("between 1 and 64", func(n int64) bool { return n >= 1 && n <= 64 }))
	o.NumLevelZeroTables = r.Int("badger.num_level0_tables", o.NumLevelZeroTables, props.Positive)
	o.NumLevelZeroTablesStall = r.Int("badger.num_level0_tables_stall", o.NumLevelZeroTablesStall, props.Positive)
	o.ValueLogFileSize = kv.ReadSize(r, "badger.value_log_file_size", o.ValueLogFileSize, props.Range("a size between 1MiB and 2GiB", func(n int64) bool { return n >= 1<<20 && n < 2<<30 }))
	o.NumVersionsToKeep = 1
	if err := r.Err(); err != nil {
		return o, err
	}
	if o.NumLevelZeroTablesStall <= o.NumLevelZeroTables {
		return o, props.Errorf("badger.num_level0_tables_stall", "%d must be more than badger.num_level0_tables (%d)", o.NumLevelZeroTablesStall, o.NumLevelZeroTables)
	}
	o.ValueDir = c.Dir
	o.SyncWrites = c.Sync
	o.MemTableSize = c.MemtableSize
	o.BlockCacheSize = c.CacheSize
	o.IndexCacheSize = 0 // table indexes and filters stay in memory, Badger's default
	o.BlockSize = c.BlockSize
	o.BloomFalsePositive = bloomFalsePositive(c.BloomBits)
	o.NumCompactors = c.CompactionThreads
	switch c.Compression {
	case kv.NoCompression:
		o.Compression = options.None
	case kv.Snappy:
		o.Compression = options.Snappy
	case kv.Zstd:
		o.Compression = options.ZSTD
	}
	o.Logger = quietLogger{}
	return o, nil
}

// Check validates the properties as Open does, without touching engine.dir.
func Check(p *props.Properties) error {
	_, _, err := kv.Configure(p, parseConfig, Options)
	return err
}

// parseConfig reads the engine-neutral properties, Badger's way.
func parseConfig(p *props.Properties) (kv.Config, error) { return kv.Parse(name, p, spec) }

// DB is an open Badger database shared by all workers.
type DB struct {
	cfg       kv.Config
	db        *badger.DB
	stats     kv.Reporter
	conflicts atomic.Int64 // update transactions retried after a conflict
	gcRuns    atomic.Int64 // value log files rewritten by settling
	cacheBase [2]uint64    // block cache hits and misses at Open
}

// Open is the driver: it validates the properties, prepares engine.dir and
// opens the database.
func Open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, opts, state, err := kv.Prepare(p, parseConfig, Options)
	if err != nil {
		return nil, err
	}
	bdb, err := badger.Open(opts)
	if err != nil {
		return nil, kv.LockedError(&cfg, err)
	}
	if err := kv.WriteMarker(&cfg, state); err != nil {
		bdb.Close()
		return nil, err
	}
	d := &DB{cfg: cfg, db: bdb}
	if m := bdb.BlockCacheMetrics(); m != nil {
		d.cacheBase = [2]uint64{m.Hits(), m.Misses()}
	}
	d.stats.StartEngine(cfg.Dir, d.rows)
	d.stats.LiveBytes(func() (int64, error) { return kv.ScanLiveBytes(&conn{d: d}) })
	// Without sync the write is in the memtable's log, a shared memory map.
	d.stats.SetDurability(kv.Durability{SyncEachWrite: cfg.Sync, ProcessCrashSafe: true})
	io.WriteString(out, cfg.Summary(state, "valuethreshold="+kv.FormatSize(opts.ValueThreshold),
		"memtables="+strconv.Itoa(opts.NumMemtables)))
	return d, nil
}

// Close closes the database. Writes acknowledged with engine.sync=false are
// in the memtable's write-ahead log (a shared memory map) and survive the
// process, not the machine.
func (d *DB) Close() error {
	return kv.CloseError(&d.cfg, d.db.Close())
}

// Stats implements db.StatsReporter.
func (d *DB) Stats() []db.Stat { return d.stats.Stats() }

// Settle implements db.Settler: with engine.settle, it flushes the
// memtables, compacts every level into one (Badger's Flatten) and rewrites
// the value log files with at least half their bytes stale (value log GC,
// until none is left).
func (d *DB) Settle(ctx context.Context) error {
	return d.stats.SettleEngine(ctx, &d.cfg, func(ctx context.Context) error {
		if err := d.flushMemtables(); err != nil {
			return fmt.Errorf("flush: %w", err)
		}
		if err := d.db.Flatten(d.cfg.CompactionThreads); err != nil {
			return fmt.Errorf("flatten: %w", err)
		}
		for ctx.Err() == nil {
			err := d.db.RunValueLogGC(0.5)
			if errors.Is(err, badger.ErrNoRewrite) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("value log GC: %w", err)
			}
			d.gcRuns.Add(1)
		}
		return fmt.Errorf("not settled: value log GC still rewriting after %v (%s)", d.cfg.SettleTimeout, kv.PropSettleTimeout)
	}, func() []db.Stat {
		l0, tables, _ := d.levels()
		f := d.files()
		return []db.Stat{stat("TablesAfterSettle", tables), stat("L0TablesAfterSettle", l0), stat("LSMBytesAfterSettle", f.sst),
			stat("ValueLogBytesAfterSettle", f.vlog), stat("MemtableLogBytesAfterSettle", f.mem), stat("ValueLogGCRewrites", d.gcRuns.Load())}
	})
}

// flushKey is written and dropped again to flush the memtables: Badger has
// no flush call, but DropPrefix flushes every memtable before it drops a
// prefix that holds data. The key sorts after every table's keys.
var flushKey = []byte("\xffycsb-flush")

// flushMemtables writes every memtable to an L0 table. It blocks writes
// while it runs (they fail with ErrBlockedWrites): settling only, after the
// phase's workers are done.
func (d *DB) flushMemtables() error {
	if err := d.db.Update(func(txn *badger.Txn) error { return txn.Set(flushKey, nil) }); err != nil {
		return err
	}
	return d.db.DropPrefix(flushKey)
}

func stat(name string, v any) db.Stat { return db.Stat{Section: kv.Section, Name: name, Value: v} }

// levels reads L0's tables, all tables and the levels holding data.
func (d *DB) levels() (l0, tables, withData int64) {
	for _, l := range d.db.Levels() {
		if l.Level == 0 {
			l0 = int64(l.NumTables)
		}
		tables += int64(l.NumTables)
		if l.NumTables > 0 {
			withData++
		}
	}
	return
}

// fileBytes are the allocated bytes of Badger's files by kind: tables, the
// value log, the memtables' logs. (Badger's own Size is refreshed once a
// minute; its value log and memtable files are preallocated sparse files.)
type fileBytes struct{ sst, vlog, mem int64 }

func (d *DB) files() fileBytes {
	var f fileBytes
	entries, _ := os.ReadDir(d.cfg.Dir)
	for _, e := range entries {
		var dst *int64
		switch filepath.Ext(e.Name()) {
		case ".sst":
			dst = &f.sst
		case ".vlog":
			dst = &f.vlog
		case ".mem":
			dst = &f.mem
		default:
			continue
		}
		*dst += kv.DiskUsage(filepath.Join(d.cfg.Dir, e.Name()))
	}
	return f
}

// rows are Badger's own figures: the LSM and value log sizes, the tables,
// the block cache's lookups since Open, the update conflicts retried.
func (d *DB) rows() []db.Stat {
	files := d.files()
	l0, tables, levels := d.levels()
	var stale int64
	for _, l := range d.db.Levels() {
		stale += l.StaleDatSize
	}
	var hits, misses int64
	if m := d.db.BlockCacheMetrics(); m != nil {
		hits, misses = int64(m.Hits()-d.cacheBase[0]), int64(m.Misses()-d.cacheBase[1])
	}
	rate := 0.0
	if hits+misses > 0 {
		rate = float64(int64(10000*float64(hits)/float64(hits+misses)+0.5)) / 100
	}
	return []db.Stat{
		stat("LSMBytes", files.sst),
		stat("ValueLogBytes", files.vlog),
		stat("MemtableLogBytes", files.mem),
		stat("Tables", tables),
		stat("L0Tables", l0),
		stat("LevelsWithData", levels),
		stat("StaleDataBytes", stale),
		stat("BlockCacheHits", hits),
		stat("BlockCacheMisses", misses),
		stat("BlockCacheHitRate(%)", rate),
		stat("UpdateConflictRetries", d.conflicts.Load()),
	}
}

// Session returns a worker's session.
func (d *DB) Session(context.Context, int, int) (db.Session, error) {
	return kv.NewSession(name, &conn{d: d}), nil
}

// conn is a session's kv.Conn. Badger's values are valid only inside their
// transaction, so a Get copies the value into the conn's buffer.
type conn struct {
	d    *DB
	buf  []byte
	old  []byte
	fold kv.Folder
	it   iter
}

func (c *conn) Get(key []byte) ([]byte, bool, error) {
	txn := c.d.db.NewTransaction(false)
	defer txn.Discard()
	item, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	c.buf, err = item.ValueCopy(c.buf[:0])
	if err != nil {
		return nil, false, err
	}
	return c.buf, true, nil
}

func (c *conn) Release() {}

func (c *conn) write(key, value []byte, del bool) error {
	txn := c.d.db.NewTransaction(true)
	defer txn.Discard()
	var err error
	if del {
		err = txn.Delete(key)
	} else {
		err = txn.Set(key, value)
	}
	if err != nil {
		return err
	}
	return txn.Commit()
}

func (c *conn) Put(key, value []byte) error { return c.write(key, value, false) }
func (c *conn) Delete(key []byte) error     { return c.write(key, nil, true) }

// maxConflictRetries bounds the retries of one update; each retry follows a
// commit of another worker, so the bound is only reached under a livelock.
const maxConflictRetries = 1000

// Merge folds the update into the stored record in one transaction, again
// when another transaction wrote the key meanwhile; an update of a missing
// key stores nothing (reads would see no record either way).
func (c *conn) Merge(key, value []byte) error {
	for try := 0; ; try++ {
		err := c.merge(key, value)
		if !errors.Is(err, badger.ErrConflict) {
			return err
		}
		c.d.conflicts.Add(1)
		if try == maxConflictRetries {
			return fmt.Errorf("update: still conflicting after %d retries: %w", try, err)
		}
	}
}

func (c *conn) merge(key, value []byte) error {
	txn := c.d.db.NewTransaction(true)
	defer txn.Discard()
	item, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	c.old, err = item.ValueCopy(c.old[:0])
	if err != nil {
		return err
	}
	if !kv.Exists(c.old) {
		return nil
	}
	c.fold.Reset()
	if err := c.fold.AddOlder(value); err != nil {
		return err
	}
	if err := c.fold.AddOlder(c.old); err != nil {
		return err
	}
	c.buf = c.fold.AppendTo(c.buf[:0])
	if err := txn.Set(key, c.buf); err != nil {
		return err
	}
	return txn.Commit()
}

func (c *conn) NewIter(lower, upper []byte) (kv.Iterator, error) {
	txn := c.d.db.NewTransaction(false)
	it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
	c.it = iter{c: c, txn: txn, it: it, lower: lower, upper: upper}
	return &c.it, nil
}

func (c *conn) Close() error { return nil }

// iter walks a Badger iterator of its own read transaction over
// [lower, upper), copying each value into the conn's buffer.
type iter struct {
	c            *conn
	txn          *badger.Txn
	it           *badger.Iterator
	lower, upper []byte
}

func (i *iter) valid() bool {
	return i.it.Valid() && string(i.it.Item().Key()) < string(i.upper)
}

func (i *iter) First() bool { i.it.Seek(i.lower); return i.valid() }
func (i *iter) Next() bool  { i.it.Next(); return i.valid() }
func (i *iter) Key() []byte { return i.it.Item().Key() }

func (i *iter) Value() ([]byte, error) {
	var err error
	i.c.buf, err = i.it.Item().ValueCopy(i.c.buf[:0])
	return i.c.buf, err
}

func (i *iter) Close() error {
	i.it.Close()
	i.txn.Discard()
	return nil
}
