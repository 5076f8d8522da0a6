// Package bbolt is the embedded bbolt binding: a copy-on-write B+tree in one
// memory-mapped file (go.etcd.io/bbolt), beside the LSM engines.
//
// It reads the engine.* properties that mean something to a B+tree
// (engine.dir, engine.sync, engine.blocksize as the page size, engine.fresh,
// engine.settle) and refuses the others; go-ycsb's boltdb names are read too
// (bolt.path, bolt.no_grow_sync, ...). docs/engines.md says how each maps.
//
// Every record is one key (table, 0, key) of one bucket, its value the shared
// record encoding. bbolt has one writer at a time and no merge operator: an
// update reads the record and writes the folded one in one transaction.
package bbolt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"path/filepath"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/props"
)

const name = "bbolt"

func init() {
	db.RegisterEmbedded(name, "embedded bbolt B+tree (no server needed; data in engine.dir)", db.CheckedDriver{OpenFunc: Open, CheckFunc: Check})
}

// bucket holds every table's records.
var bucket = []byte("ycsb")

// spec: go-ycsb's bolt.path names the data (here: the directory), the LSM
// properties mean nothing to a B+tree.
var spec = kv.Spec{
	Aliases: map[string][]string{kv.PropDir: {"bolt.path"}},
	NotApplicable: map[string]string{
		kv.PropCacheSize:         "bbolt reads through its memory map and the OS page cache, which it does not bound",
		kv.PropMemtableSize:      "a B+tree has no memtable",
		kv.PropCompression:       "bbolt does not compress",
		kv.PropBloomBits:         "a B+tree has no bloom filters",
		kv.PropMaxOpenFiles:      "bbolt keeps one file",
		kv.PropCompactionThreads: "a B+tree does not compact",
		"bolt.read_only":         "a benchmark writes",
		"bolt.mmap_flags":        "not supported (platform-specific flags)",
		"bolt.timeout":           "not supported: a directory in use is refused at once",
	},
}

// options are the bbolt settings beyond the neutral ones.
type options struct {
	noGrowSync, noFreelistSync bool
	initialMmapSize            int64
	freelist                   bolt.FreelistType
}

func parse(p *props.Properties) (kv.Config, options, error) {
	cfg, err := kv.Parse(name, p, spec)
	if err != nil {
		return cfg, options{}, err
	}
	if bs := cfg.BlockSize; bs < 1<<10 || bs > 64<<10 || bits.OnesCount(uint(bs)) != 1 {
		return cfg, options{}, props.Invalid(kv.PropBlockSize, kv.FormatSize(int64(bs)), "a power of two between 1KiB and 64KiB (bbolt's page size)")
	}
	r := props.NewReader(p)
	o := options{
		noGrowSync:      r.Bool("bolt.no_grow_sync", false),
		noFreelistSync:  r.Bool("bolt.no_freelist_sync", false),
		initialMmapSize: kv.ReadSize(r, "bolt.initial_mmap_size", 0, props.Range("a size of at most 1TiB", func(n int64) bool { return n <= 1<<40 })),
		freelist:        bolt.FreelistType(props.OneOf(r, "bolt.freelist_type", "array", "array", "map")),
	}
	if o.freelist == "map" {
		o.freelist = bolt.FreelistMapType
	} else {
		o.freelist = bolt.FreelistArrayType
	}
	return cfg, o, r.Err()
}

// Check validates the properties as Open does, without touching engine.dir.
func Check(p *props.Properties) error {
	_, _, err := parse(p)
	return err
}

// DB is an open bbolt database shared by all workers.
type DB struct {
	cfg   kv.Config
	db    *bolt.DB
	stats kv.Reporter
	base  bolt.Stats // at Open
}

// Open is the driver: it validates the properties, prepares engine.dir and
// opens (or creates) the database file in it.
func Open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, o, err := parse(p)
	if err != nil {
		return nil, err
	}
	state, err := kv.PrepareDir(&cfg)
	if err != nil {
		return nil, err
	}
	bdb, err := bolt.Open(filepath.Join(cfg.Dir, kv.BoltFile), 0o644, &bolt.Options{
		Timeout:         100 * time.Millisecond, // the directory check saw no lock: only a race waits
		NoSync:          !cfg.Sync,
		NoGrowSync:      o.noGrowSync,
		NoFreelistSync:  o.noFreelistSync,
		FreelistType:    o.freelist,
		InitialMmapSize: int(o.initialMmapSize),
		PageSize:        cfg.BlockSize,
	})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			err = kv.ErrLockTimeout(err)
		}
		return nil, kv.LockedError(&cfg, err)
	}
	if err := bdb.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucket)
		return err
	}); err != nil {
		bdb.Close()
		return nil, fmt.Errorf("bbolt: open %s: %w", cfg.Dir, err)
	}
	if err := kv.WriteMarker(&cfg, state); err != nil {
		bdb.Close()
		return nil, err
	}
	d := &DB{cfg: cfg, db: bdb, base: bdb.Stats()}
	d.stats.StartEngine(cfg.Dir, d.rows)
	d.stats.LiveBytes(func() (int64, error) { return kv.ScanLiveBytes(&conn{d: d}) })
	// Without sync a commit has written its pages to the file.
	d.stats.SetDurability(kv.Durability{SyncEachWrite: cfg.Sync, ProcessCrashSafe: true})
	pageSize := bdb.Info().PageSize
	io.WriteString(out, cfg.Summary(state, "pagesize="+kv.FormatSize(int64(pageSize)),
		"nogrowsync="+strconv.FormatBool(o.noGrowSync), "nofreelistsync="+strconv.FormatBool(o.noFreelistSync)))
	return d, nil
}

// Close closes the database. With engine.sync=false its commits were
// written to the file without fsync: they survive the process, not the
// machine.
func (d *DB) Close() error {
	return kv.CloseError(&d.cfg, d.db.Close())
}

// Stats implements db.StatsReporter.
func (d *DB) Stats() []db.Stat { return d.stats.Stats() }

// Settle implements db.Settler: a B+tree has no compaction debt, so
// settling only syncs the file (engine.sync=false leaves its pages to the
// OS), the state a run then starts from.
func (d *DB) Settle(ctx context.Context) error {
	return d.stats.SettleEngine(ctx, &d.cfg, func(context.Context) error { return d.db.Sync() }, func() []db.Stat { return nil })
}

func stat(name string, v int64) db.Stat { return db.Stat{Section: kv.Section, Name: name, Value: v} }

// rows are bbolt's own figures: the transactions' page work since Open, the
// freelist now, and the tree's pages now (a walk of the tree).
func (d *DB) rows() []db.Stat {
	now := d.db.Stats()
	tx := now.Sub(&d.base).TxStats
	rows := []db.Stat{
		stat("PageSize", int64(d.db.Info().PageSize)),
		stat("PagesAllocated", tx.GetPageCount()),
		stat("PageBytesAllocated", tx.GetPageAlloc()),
		stat("NodeSplits", tx.GetSplit()),
		stat("NodeSpills", tx.GetSpill()),
		stat("NodeRebalances", tx.GetRebalance()),
		stat("PageWrites", tx.GetWrite()),
		stat("PageWriteTime(ms)", tx.GetWriteTime().Milliseconds()),
		stat("FreePages", int64(now.FreePageN)),
		stat("PendingPages", int64(now.PendingPageN)),
		stat("FreeBytes", int64(now.FreeAlloc)),
		stat("FreelistBytes", int64(now.FreelistInuse)),
	}
	var bs bolt.BucketStats
	d.db.View(func(tx *bolt.Tx) error {
		bs = tx.Bucket(bucket).Stats()
		rows = append(rows, stat("FileBytes", tx.Size()))
		return nil
	})
	return append(rows,
		stat("Keys", int64(bs.KeyN)),
		stat("TreeDepth", int64(bs.Depth)),
		stat("BranchPages", int64(bs.BranchPageN)),
		stat("LeafPages", int64(bs.LeafPageN)),
		stat("LeafOverflowPages", int64(bs.LeafOverflowN)),
		stat("LeafBytesInUse", int64(bs.LeafInuse)),
		stat("BranchBytesInUse", int64(bs.BranchInuse)))
}

// Session returns a worker's session.
func (d *DB) Session(context.Context, int, int) (db.Session, error) {
	return kv.NewSession(name, &conn{d: d}), nil
}

// conn is a session's kv.Conn. A Get's value points into the memory map and
// is valid while its read transaction is open: Release ends it.
type conn struct {
	d    *DB
	rtx  *bolt.Tx // the last Get's read transaction
	fold kv.Folder
	buf  []byte
	it   iter
	// The write's arguments, so that the transaction functions are made once.
	key, val           []byte
	put, merge, remove func(*bolt.Tx) error
}

func (c *conn) Get(key []byte) ([]byte, bool, error) {
	tx, err := c.d.db.Begin(false)
	if err != nil {
		return nil, false, err
	}
	v := tx.Bucket(bucket).Get(key)
	if v == nil {
		tx.Rollback()
		return nil, false, nil
	}
	c.rtx = tx
	return v, true, nil
}

func (c *conn) Release() {
	c.rtx.Rollback()
	c.rtx = nil
}

func (c *conn) update(key, value []byte, fn *func(*bolt.Tx) error, body func(*bolt.Tx) error) error {
	c.key, c.val = key, value
	if *fn == nil {
		*fn = body
	}
	return c.d.db.Update(*fn)
}

func (c *conn) Put(key, value []byte) error {
	return c.update(key, value, &c.put, func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put(c.key, c.val) })
}

// Merge folds the update into the stored record in one write transaction;
// an update of a missing key stores nothing (reads would see no record
// either way).
func (c *conn) Merge(key, value []byte) error {
	return c.update(key, value, &c.merge, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		old := b.Get(c.key)
		if !kv.Exists(old) {
			return nil
		}
		c.fold.Reset()
		if err := c.fold.AddOlder(c.val); err != nil {
			return err
		}
		if err := c.fold.AddOlder(old); err != nil {
			return err
		}
		c.buf = c.fold.AppendTo(c.buf[:0])
		return b.Put(c.key, c.buf)
	})
}

func (c *conn) Delete(key []byte) error {
	return c.update(key, nil, &c.remove, func(tx *bolt.Tx) error { return tx.Bucket(bucket).Delete(c.key) })
}

func (c *conn) NewIter(lower, upper []byte) (kv.Iterator, error) {
	tx, err := c.d.db.Begin(false)
	if err != nil {
		return nil, err
	}
	c.it = iter{tx: tx, cur: tx.Bucket(bucket).Cursor(), lower: lower, upper: upper}
	return &c.it, nil
}

func (c *conn) Close() error { return nil }

// iter walks a cursor of its own read transaction over [lower, upper).
type iter struct {
	tx           *bolt.Tx
	cur          *bolt.Cursor
	lower, upper []byte
	k, v         []byte
}

func (it *iter) at(k, v []byte) bool {
	if k == nil || string(k) >= string(it.upper) {
		it.k, it.v = nil, nil
		return false
	}
	it.k, it.v = k, v
	return true
}

func (it *iter) First() bool            { return it.at(it.cur.Seek(it.lower)) }
func (it *iter) Next() bool             { return it.at(it.cur.Next()) }
func (it *iter) Key() []byte            { return it.k }
func (it *iter) Value() ([]byte, error) { return it.v, nil }
func (it *iter) Close() error           { return it.tx.Rollback() }
