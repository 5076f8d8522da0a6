//go:build rocksdb

package rocksdb

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/linxGnu/grocksdb"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/props"
)

// Built says whether this binary has RocksDB support.
const Built = true

// MergerName is stored in the database's OPTIONS file.
const MergerName = kv.MergerName

// DB is an open RocksDB database shared by all workers.
type DB struct {
	cfg   kv.Config
	stats kv.Reporter // counters since Open
	db    *grocksdb.DB
	opts  *grocksdb.Options
	bbto  *grocksdb.BlockBasedTableOptions
	cache *grocksdb.Cache
	c     native // the per-operation calls, in C (native.go)
}

func options(c *kv.Config, p *props.Properties) (*grocksdb.Options, *grocksdb.BlockBasedTableOptions, *grocksdb.Cache, error) {
	r := props.NewReader(p)
	l0 := r.Int("rocksdb.level0filenumcompactiontrigger", 4, props.Positive)
	lbase := kv.ReadSize(r, "rocksdb.maxbytesforlevelbase", 256<<20, kv.AtLeastMiB)
	index := r.String("rocksdb.indextype", "twolevel")
	if index != "twolevel" && index != "binary" {
		r.Errorf("rocksdb.indextype", "%q: want twolevel or binary", index)
	}
	if err := r.Err(); err != nil {
		return nil, nil, nil, err
	}
	cache := grocksdb.NewLRUCache(uint64(c.CacheSize))
	bbto := grocksdb.NewDefaultBlockBasedTableOptions()
	bbto.SetBlockCache(cache)
	bbto.SetBlockSize(c.BlockSize)
	// Pebble keeps index and filter blocks in its block cache; so does this
	// binding, so that engine.cachesize bounds the same memory for both.
	// They are not pinned (pin_l0_filter_and_index_blocks_in_cache stays
	// false, as Pebble pins nothing): every index, filter and data block a
	// read needs is looked up in the cache, and counted, on both engines.
	bbto.SetCacheIndexAndFilterBlocks(true)
	// Pebble splits a table's index into blocks of its block size, under a
	// top-level index, once it outgrows one (LevelOptions.IndexBlockSize);
	// RocksDB's default is one index block a table (64MiB of 4KiB blocks:
	// about 0.5MB), which a cache miss reads and parses whole. Two levels
	// with partitions of the block size give RocksDB Pebble's structure;
	// rocksdb.indextype=binary keeps RocksDB's default.
	if index == "twolevel" {
		bbto.SetIndexType(grocksdb.KTwoLevelIndexSearchIndexType)
		bbto.SetMetadataBlockSize(uint64(c.BlockSize))
	}
	if c.BloomBits > 0 {
		bbto.SetFilterPolicy(grocksdb.NewBloomFilterFull(float64(c.BloomBits)))
	}
	o := grocksdb.NewDefaultOptions()
	o.SetCreateIfMissing(true)
	o.SetBlockBasedTableFactory(bbto)
	o.SetWriteBufferSize(uint64(c.MemtableSize))
	o.SetMaxWriteBufferNumber(2) // Pebble's MemTableStopWritesThreshold
	o.SetMaxOpenFiles(c.MaxOpenFiles)
	switch c.Compression {
	case kv.NoCompression:
		o.SetCompression(grocksdb.NoCompression)
	case kv.Snappy:
		o.SetCompression(grocksdb.SnappyCompression)
	case kv.Zstd:
		o.SetCompression(grocksdb.ZSTDCompression)
	}
	// Deprecated in favour of max_background_jobs, which lets RocksDB split
	// the jobs itself; RocksDB 7.8 still honours both, and they give exactly
	// n compactions and one flush, as Pebble runs them.
	//lint:ignore SA1019 see above
	o.SetMaxBackgroundCompactions(c.CompactionThreads)
	//lint:ignore SA1019 see above
	o.SetMaxBackgroundFlushes(1) // Pebble flushes one memtable at a time
	env := grocksdb.NewDefaultEnv()
	env.SetBackgroundThreads(c.CompactionThreads)
	env.SetHighPriorityBackgroundThreads(1)
	o.SetEnv(env)
	o.SetBytesPerSync(512 << 10) // Pebble's BytesPerSync
	o.SetLevel0FileNumCompactionTrigger(l0)
	o.SetMaxBytesForLevelBase(uint64(lbase))
	// Field by field, as Pebble's (kv.Folder), in C: RocksDB's reads,
	// flushes and compactions call it without entering Go.
	o.SetMergeOperator(newMergeOperator())
	o.EnableStatistics()
	o.SetKeepLogFileNum(2)
	return o, bbto, cache, nil
}

// Open is the driver: it validates the properties, prepares engine.dir and
// opens the database.
func Open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	cfg, err := kv.ParseConfig(name, p, "rocksdb.dir")
	if err != nil {
		return nil, err
	}
	o, bbto, cache, err := options(&cfg, p)
	if err != nil {
		return nil, err
	}
	state, err := kv.PrepareDir(&cfg)
	if err != nil {
		bbto.Destroy()
		cache.Destroy()
		return nil, err
	}
	rdb, err := grocksdb.OpenDb(o, cfg.Dir)
	if err != nil {
		bbto.Destroy()
		cache.Destroy()
		return nil, kv.LockedError(&cfg, err)
	}
	cdb, err := nativeDB(rdb)
	if err == nil {
		err = kv.WriteMarker(&cfg, state)
	}
	if err != nil {
		rdb.Close()
		return nil, err
	}
	d := &DB{cfg: cfg, db: rdb, opts: o, bbto: bbto, cache: cache, c: newNative(cdb, cfg.Sync)}
	d.stats.Start(cfg.Dir, d.counters, d.Debt)
	d.stats.LiveBytes(func() (int64, error) {
		c := &conn{d: d}
		defer c.Close()
		return kv.ScanLiveBytes(c)
	})
	// RocksDB writes its WAL to the file before a write returns: without
	// sync a write survives a crash of the process, not of the machine.
	d.stats.SetDurability(kv.Durability{SyncEachWrite: cfg.Sync, ProcessCrashSafe: true})
	io.WriteString(out, cfg.Summary(state))
	return d, nil
}

// Flush writes the memtable to a table and waits for it.
func (d *DB) Flush() error {
	fo := grocksdb.NewDefaultFlushOptions()
	defer fo.Destroy()
	fo.SetWait(true)
	if err := d.db.Flush(fo); err != nil {
		return fmt.Errorf("rocksdb: flush: %w", err)
	}
	return nil
}

// Close closes the database.
func (d *DB) Close() error {
	d.db.Close()
	d.c.close()
	// Not d.opts.Destroy(): grocksdb would free the merge operator a second
	// time after the options' own reference did. The options are a few
	// hundred bytes, once per Open.
	d.bbto.Destroy()
	d.cache.Destroy()
	return nil
}

// Stats implements db.StatsReporter: counters since Open.
func (d *DB) Stats() []db.Stat { return d.stats.Stats() }

// Settle implements db.Settler: with engine.settle, it flushes, compacts the
// whole key space and waits until RocksDB reports no pending compaction
// bytes and no compaction running.
func (d *DB) Settle(ctx context.Context) error { return d.stats.SettleLSM(ctx, &d.cfg, d) }

// Debt reads RocksDB's compaction debt from its properties.
func (d *DB) Debt() kv.Debt {
	prop := func(name string) int64 {
		v, _ := d.db.GetIntProperty(name)
		return int64(v)
	}
	// A string property (GetIntProperty does not know it).
	l0, _ := strconv.ParseInt(strings.TrimSpace(d.db.GetProperty("rocksdb.num-files-at-level0")), 10, 64)
	return kv.Debt{
		PendingCompactionBytes: prop("rocksdb.estimate-pending-compaction-bytes"),
		L0Files:                l0,
		L0Sublevels:            l0,
		RunningCompactions:     prop("rocksdb.num-running-compactions"),
	}
}

// CompactAll compacts the whole key space (CompactRange with no bounds). The
// C call cannot be cancelled: when ctx is done first, manual compactions
// are disabled, which makes RocksDB abandon the running one, and enabled
// again once it has returned.
func (d *DB) CompactAll(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.db.CompactRange(grocksdb.Range{})
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		d.db.DisableManualCompaction()
		<-done
		d.db.EnableManualCompaction()
		return ctx.Err()
	}
}

func (d *DB) counters() kv.Stats {
	tick, hist := parseStatistics(d.opts.GetStatisticsString())
	var s kv.Stats
	s.UserBytesWritten = tick["rocksdb.bytes.written"]
	s.WALBytesWritten = tick["rocksdb.wal.bytes"]
	s.FlushBytesWritten = tick["rocksdb.flush.write.bytes"]
	s.CompactionBytesWritten = tick["rocksdb.compact.write.bytes"]
	s.CompactionBytesRead = tick["rocksdb.compact.read.bytes"]
	s.Flushes = int64(hist["rocksdb.db.flush.micros"])
	s.Compactions = int64(hist["rocksdb.compaction.times.micros"])
	s.BlockCacheHits = int64(tick["rocksdb.block.cache.hit"])
	s.BlockCacheMisses = int64(tick["rocksdb.block.cache.miss"])
	s.BlockKinds = &kv.BlockKinds{
		DataHits:     int64(tick["rocksdb.block.cache.data.hit"]),
		DataMisses:   int64(tick["rocksdb.block.cache.data.miss"]),
		IndexHits:    int64(tick["rocksdb.block.cache.index.hit"]),
		IndexMisses:  int64(tick["rocksdb.block.cache.index.miss"]),
		FilterHits:   int64(tick["rocksdb.block.cache.filter.hit"]),
		FilterMisses: int64(tick["rocksdb.block.cache.filter.miss"]),
	}
	for l := 0; l < 7; l++ {
		n, _ := strconv.Atoi(strings.TrimSpace(d.db.GetProperty("rocksdb.num-files-at-level" + strconv.Itoa(l))))
		switch {
		case l == 0:
			s.ReadAmplification += int64(n)
		case n > 0:
			s.ReadAmplification++
		}
	}
	live, _ := d.db.GetIntProperty("rocksdb.live-sst-files-size")
	s.LiveSSTableBytes = int64(live)
	return s
}

// parseStatistics reads RocksDB's statistics dump: ticker lines
// "name COUNT : n" and histogram lines "name P50 : ... COUNT : n SUM : s",
// for which it keeps the count.
func parseStatistics(text string) (tickers, histCounts map[string]uint64) {
	tickers, histCounts = map[string]uint64{}, map[string]uint64{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 {
			continue
		}
		if f[1] == "COUNT" && f[2] == ":" {
			n, _ := strconv.ParseUint(f[3], 10, 64)
			tickers[f[0]] = n
			continue
		}
		for i := 1; i+2 < len(f); i++ {
			if f[i] == "COUNT" && f[i+1] == ":" {
				n, _ := strconv.ParseUint(f[i+2], 10, 64)
				histCounts[f[0]] = n
				break
			}
		}
	}
	return tickers, histCounts
}

// Session returns a worker's session with its own scratch buffers.
func (d *DB) Session(context.Context, int, int) (db.Session, error) {
	return kv.NewSession(name, &conn{d: d}), nil
}

// conn is a session's kv.Conn.
type conn struct {
	d    *DB
	args callArgs
	val  []byte                // the last Get's value, copied in by C
	ro   *grocksdb.ReadOptions // for scans: bounds change per call
	it   iter
}

// Get is one cgo call: RocksDB's pinned value is copied into c.val and
// released in C.
func (c *conn) Get(key []byte) ([]byte, bool, error) { return c.d.c.get(&c.args, key, &c.val) }

// Release has nothing to free: the value is in the session's buffer.
func (c *conn) Release() {}

func (c *conn) Put(key, value []byte) error   { return c.d.c.write(&c.args, key, value, false) }
func (c *conn) Merge(key, value []byte) error { return c.d.c.write(&c.args, key, value, true) }
func (c *conn) Delete(key []byte) error       { return c.d.c.delete(&c.args, key) }

// NewIter keeps a pointer to upper in the read options: RocksDB reads it
// while the iterator lives.
func (c *conn) NewIter(lower, upper []byte) (kv.Iterator, error) {
	if c.ro == nil {
		c.ro = grocksdb.NewDefaultReadOptions()
	}
	c.ro.SetIterateUpperBound(upper)
	c.args.done() // a scan is many cgo calls: each step counts as one
	threadPerfOff()
	c.it = iter{it: c.d.db.NewIterator(c.ro), lower: lower, args: &c.args}
	return &c.it, nil
}

func (c *conn) Close() error {
	if c.ro != nil {
		c.ro.Destroy()
		c.ro = nil
	}
	return nil
}

// iter is a RocksDB iterator as a kv.Iterator.
type iter struct {
	it    *grocksdb.Iterator
	lower []byte
	args  *callArgs // the session's, for its yields
}

func (i *iter) First() bool {
	i.it.Seek(i.lower)
	i.args.done()
	return i.it.Valid()
}

func (i *iter) Next() bool {
	i.it.Next()
	i.args.done()
	return i.it.Valid()
}

func (i *iter) Key() []byte { return i.it.Key().Data() }

func (i *iter) Value() ([]byte, error) { return i.it.Value().Data(), nil }

func (i *iter) Close() error {
	err := i.it.Err()
	i.it.Close()
	i.it, i.lower, i.args = nil, nil, nil
	return err
}
