// Package pebble is the embedded Pebble binding, the zero-setup default: it
// needs no server and no C library, so `ycsb load pebble` works on a fresh
// clone.
//
// It reads the engine-neutral engine.* properties (db/internal/kv and
// docs/engines.md), the same as the rocksdb binding, so that the two compare
// on equal terms. Engine-specific extras: pebble.l0compactionthreshold
// (Pebble's default, 4) and pebble.lbasemaxbytes (Pebble's default, 64MiB).
//
// One record is one key (table, 0, key); its value is the shared record
// encoding. Update is a blind merge of the changed fields, so concurrent
// updates of different fields of one key keep both.
package pebble

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/props"
)

const name = "pebble"

func init() {
	db.RegisterEmbedded(name, "embedded Pebble engine (no server needed; data in engine.dir)", db.CheckedDriver{OpenFunc: Open, CheckFunc: Check})
}

// MergerName is stored in the database's OPTIONS: a directory written with
// another merge operator refuses to open.
const MergerName = kv.MergerName

// Merger folds update operands into records field by field.
var Merger = &pebble.Merger{
	Name: MergerName,
	Merge: func(_, value []byte) (pebble.ValueMerger, error) {
		m := mergers.Get().(*valueMerger)
		m.f.Reset()
		if err := m.f.AddOlder(value); err != nil {
			return nil, err
		}
		return m, nil
	},
}

// mergers recycles merge state: a read of a key with pending updates
// merges, and Pebble hands the result back through the closer (Close).
var mergers = sync.Pool{New: func() any { return new(valueMerger) }}

type valueMerger struct {
	f   kv.Folder
	buf []byte
}

// Close returns m to the pool once Pebble's caller is done with the value.
func (m *valueMerger) Close() error {
	if cap(m.buf) <= 64<<10 {
		mergers.Put(m)
	}
	return nil
}

func (m *valueMerger) MergeNewer(value []byte) error { return m.f.AddNewer(value) }

func (m *valueMerger) MergeOlder(value []byte) error { return m.f.AddOlder(value) }

func (m *valueMerger) Finish(bool) ([]byte, io.Closer, error) {
	m.buf = m.f.AppendTo(m.buf[:0])
	return m.buf, m, nil
}

// quietLogger drops Pebble's informational lines, which would interleave
// with the report, and keeps its errors on stderr.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Errorf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pebble: "+format+"\n", args...)
}
func (quietLogger) Fatalf(format string, args ...any) { log.Fatalf("pebble: "+format, args...) }

// DB is an open Pebble database shared by all workers.
type DB struct {
	cfg   kv.Config
	stats kv.Reporter // counters since Open
	db    *pebble.DB
	cache *pebble.Cache
	room  *memtableRoom // keeps the blocks' room at engine.cachesize
	wo    *pebble.WriteOptions
}

// Options turns the neutral configuration into Pebble options.
func Options(c *kv.Config, p *props.Properties) (*pebble.Options, error) {
	r := props.NewReader(p)
	l0 := r.Int("pebble.l0compactionthreshold", 4, props.Positive)
	lbase := kv.ReadSize(r, "pebble.lbasemaxbytes", 64<<20, kv.AtLeastMiB)
	if err := r.Err(); err != nil {
		return nil, err
	}
	var comp *sstable.CompressionProfile
	switch c.Compression {
	case kv.NoCompression:
		comp = sstable.NoCompression
	case kv.Snappy:
		comp = sstable.SnappyCompression
	case kv.Zstd:
		comp = sstable.ZstdCompression
	}
	n := c.CompactionThreads
	o := &pebble.Options{
		MemTableSize:                uint64(c.MemtableSize),
		MemTableStopWritesThreshold: 2,
		MaxOpenFiles:                c.MaxOpenFiles,
		Merger:                      Merger,
		L0CompactionThreshold:       l0,
		LBaseMaxBytes:               lbase,
		FormatMajorVersion:          pebble.FormatNewest,
		Logger:                      quietLogger{},
		CompactionConcurrencyRange:  func() (int, int) { return n, n },
	}
	for i := range o.Levels {
		lo := &o.Levels[i]
		lo.BlockSize = c.BlockSize
		lo.Compression = func() *sstable.CompressionProfile { return comp }
		if c.BloomBits > 0 {
			lo.FilterPolicy = bloom.FilterPolicy(c.BloomBits)
		}
	}
	return o, nil
}

// Check validates the properties as Open does, without touching engine.dir
// (db.Checker).
func Check(p *props.Properties) error {
	_, _, err := kv.Configure(p, parseConfig, Options)
	return err
}

// parseConfig reads the engine-neutral properties.
func parseConfig(p *props.Properties) (kv.Config, error) { return kv.ParseConfig(name, p) }

// Open is the driver: it validates the properties, prepares engine.dir and
// opens the database.
func Open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, opts, state, err := kv.Prepare(p, parseConfig, Options)
	if err != nil {
		return nil, err
	}
	budget := memtableBudget(cfg.MemtableSize, opts)
	cache := pebble.NewCache(cfg.CacheSize + budget)
	opts.Cache = cache
	pdb, err := pebble.Open(cfg.Dir, opts)
	if err != nil {
		cache.Unref()
		return nil, kv.LockedError(&cfg, err)
	}
	if err := kv.WriteMarker(&cfg, state); err != nil {
		pdb.Close()
		cache.Unref()
		return nil, err
	}
	d := &DB{cfg: cfg, db: pdb, cache: cache, wo: pebble.NoSync}
	d.room = startMemtableRoom(cache, budget, func() int64 { return int64(pdb.Metrics().MemTable.Size) })
	if cfg.Sync {
		d.wo = pebble.Sync
	}
	d.stats.Start(cfg.Dir, d.counters, d.Debt)
	d.stats.LiveBytes(func() (int64, error) { return kv.ScanLiveBytes(&conn{d: d}) })
	// Without sync Pebble returns with the write in its WAL's buffer, which
	// a goroutine of its own writes to the file: a kill loses what it holds.
	d.stats.SetDurability(kv.Durability{SyncEachWrite: cfg.Sync, ProcessCrashSafe: cfg.Sync})
	io.WriteString(out, cfg.Summary(state))
	return d, nil
}

// Engine returns the underlying Pebble handle, for tests and tools.
func (d *DB) Engine() *pebble.DB { return d.db }

// Flush writes the memtable to a table and waits for it.
func (d *DB) Flush() error {
	if err := d.db.Flush(); err != nil {
		return fmt.Errorf("pebble: flush: %w", err)
	}
	return nil
}

// Close closes the database. Writes acknowledged with engine.sync=false are
// in the WAL and survive a reopen.
func (d *DB) Close() error {
	d.room.close()
	err := d.db.Close()
	d.cache.Unref()
	return kv.CloseError(&d.cfg, err)
}

// Stats implements db.StatsReporter: counters since Open.
func (d *DB) Stats() []db.Stat { return d.stats.Stats() }

// Settle implements db.Settler: with engine.settle, it flushes, compacts the
// whole key space and waits until Pebble reports no debt.
func (d *DB) Settle(ctx context.Context) error { return d.stats.SettleLSM(ctx, &d.cfg, d) }

// Debt reads Pebble's compaction debt: its estimated debt, L0's tables and
// sublevels, the compactions in progress.
func (d *DB) Debt() kv.Debt {
	m := d.db.Metrics()
	return kv.Debt{
		PendingCompactionBytes: int64(m.Compact.EstimatedDebt),
		L0Files:                m.Levels[0].TablesCount,
		L0Sublevels:            int64(m.Levels[0].Sublevels),
		RunningCompactions:     m.Compact.NumInProgress,
	}
}

// CompactAll compacts the keys from the first to the last (Pebble's manual
// compaction needs a range), parallelized over the engine's compaction
// threads.
func (d *DB) CompactAll(ctx context.Context) error {
	it, err := d.db.NewIter(nil)
	if err != nil {
		return err
	}
	var first, last []byte
	if it.First() {
		first = append(first, it.Key()...)
		it.Last()
		last = append(last, it.Key()...)
	}
	if err := it.Close(); err != nil {
		return err
	}
	if first == nil {
		return nil
	}
	return d.db.Compact(ctx, first, append(last, 0), true)
}

func (d *DB) counters() kv.Stats {
	m := d.db.Metrics()
	var s kv.Stats
	s.UserBytesWritten = m.WAL.BytesIn
	s.WALBytesWritten = m.WAL.BytesWritten
	for i := range m.Levels {
		l := &m.Levels[i]
		s.FlushBytesWritten += l.TableBytesFlushed + l.BlobBytesFlushed
		s.CompactionBytesWritten += l.TableBytesCompacted + l.BlobBytesCompacted
		s.CompactionBytesRead += l.TableBytesRead
		s.LiveSSTableBytes += l.TablesSize
	}
	s.Flushes = m.Flush.Count
	s.Compactions = m.Compact.Count
	s.ReadAmplification = int64(m.ReadAmp())
	s.BlockCacheHits = m.BlockCache.Hits
	s.BlockCacheMisses = m.BlockCache.Misses
	return s
}

// Session returns a worker's session with its own scratch buffers.
func (d *DB) Session(context.Context, int, int) (db.Session, error) {
	return kv.NewSession(name, &conn{d: d}), nil
}

// conn is a session's kv.Conn.
type conn struct {
	d      *DB
	closer io.Closer // of the last Get's value
	iterO  pebble.IterOptions
	it     iter
}

func (c *conn) Get(key []byte) ([]byte, bool, error) {
	v, closer, err := c.d.db.Get(key)
	if err != nil {
		if errors.Is(err, pebble.ErrNotFound) {
			return nil, false, nil
		}
		return nil, false, err
	}
	c.closer = closer
	return v, true, nil
}

func (c *conn) Release() {
	c.closer.Close()
	c.closer = nil
}

func (c *conn) Put(key, value []byte) error   { return c.d.db.Set(key, value, c.d.wo) }
func (c *conn) Merge(key, value []byte) error { return c.d.db.Merge(key, value, c.d.wo) }
func (c *conn) Delete(key []byte) error       { return c.d.db.Delete(key, c.d.wo) }

func (c *conn) NewIter(lower, upper []byte) (kv.Iterator, error) {
	c.iterO.LowerBound = lower
	c.iterO.UpperBound = upper
	it, err := c.d.db.NewIter(&c.iterO)
	if err != nil {
		return nil, err
	}
	c.it.Iterator = it
	return &c.it, nil
}

func (c *conn) Close() error { return nil }

// iter is a Pebble iterator as a kv.Iterator.
type iter struct{ *pebble.Iterator }

func (it *iter) Value() ([]byte, error) { return it.ValueAndErr() }
