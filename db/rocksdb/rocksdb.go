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
	"github.com/goycsb/ycsb/db/internal/engine"
	"github.com/goycsb/ycsb/props"
)

// Built says whether this binary has RocksDB support.
const Built = true

// MergerName is stored in the database's OPTIONS file.
const MergerName = "ycsb.fieldmerge.v1"

// fieldMerge folds update operands into records field by field.
type fieldMerge struct{}

func (fieldMerge) Name() string { return MergerName }

// FullMerge applies operands (oldest first) onto existing, which is nil for
// a missing key; the result is then an update-only value, read as absent.
func (fieldMerge) FullMerge(_, existing []byte, operands [][]byte) ([]byte, bool) {
	var f engine.Folder
	for i := len(operands) - 1; i >= 0; i-- {
		if f.AddOlder(operands[i]) != nil {
			return nil, false
		}
	}
	if len(existing) > 0 && f.AddOlder(existing) != nil {
		return nil, false
	}
	return f.AppendTo(nil), true
}

// PartialMerge combines two operands into one (left is older).
func (fieldMerge) PartialMerge(_, left, right []byte) ([]byte, bool) {
	var f engine.Folder
	if f.AddOlder(right) != nil || f.AddOlder(left) != nil {
		return nil, false
	}
	return f.AppendTo(nil), true
}

// DB is an open RocksDB database shared by all workers.
type DB struct {
	cfg   engine.Config
	base  engine.Stats // counters at Open
	db    *grocksdb.DB
	opts  *grocksdb.Options
	bbto  *grocksdb.BlockBasedTableOptions
	cache *grocksdb.Cache
	wo    *grocksdb.WriteOptions
	ro    *grocksdb.ReadOptions
}

func options(c *engine.Config, p *props.Properties) (*grocksdb.Options, *grocksdb.BlockBasedTableOptions, *grocksdb.Cache, error) {
	l0, err := p.Int("rocksdb.level0filenumcompactiontrigger", 4)
	if err != nil {
		return nil, nil, nil, err
	}
	if l0 < 1 {
		v, _ := p.Get("rocksdb.level0filenumcompactiontrigger")
		return nil, nil, nil, props.Invalid("rocksdb.level0filenumcompactiontrigger", v, "a positive integer")
	}
	lbase, err := engine.Size(p, "rocksdb.maxbytesforlevelbase", 256<<20)
	if err != nil {
		return nil, nil, nil, err
	}
	if lbase < 1<<20 {
		v, _ := p.Get("rocksdb.maxbytesforlevelbase")
		return nil, nil, nil, props.Invalid("rocksdb.maxbytesforlevelbase", v, "a size of at least 1MiB")
	}
	cache := grocksdb.NewLRUCache(uint64(c.CacheSize))
	bbto := grocksdb.NewDefaultBlockBasedTableOptions()
	bbto.SetBlockCache(cache)
	bbto.SetBlockSize(c.BlockSize)
	// Pebble keeps index and filter blocks in its block cache; so does this
	// binding, so that engine.cachesize bounds the same memory for both.
	bbto.SetCacheIndexAndFilterBlocks(true)
	bbto.SetPinL0FilterAndIndexBlocksInCache(true)
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
	case "none":
		o.SetCompression(grocksdb.NoCompression)
	case "snappy":
		o.SetCompression(grocksdb.SnappyCompression)
	case "zstd":
		o.SetCompression(grocksdb.ZSTDCompression)
	}
	o.SetMaxBackgroundCompactions(c.CompactionThreads)
	o.SetMaxBackgroundFlushes(1) // Pebble flushes one memtable at a time
	env := grocksdb.NewDefaultEnv()
	env.SetBackgroundThreads(c.CompactionThreads)
	env.SetHighPriorityBackgroundThreads(1)
	o.SetEnv(env)
	o.SetBytesPerSync(512 << 10) // Pebble's BytesPerSync
	o.SetLevel0FileNumCompactionTrigger(l0)
	o.SetMaxBytesForLevelBase(uint64(lbase))
	o.SetMergeOperator(fieldMerge{})
	o.EnableStatistics()
	o.SetKeepLogFileNum(2)
	return o, bbto, cache, nil
}

// Open is the driver: it validates the properties, prepares engine.dir and
// opens the database.
func Open(ctx context.Context, p *props.Properties) (db.DB, error) {
	cfg, err := engine.ParseConfig(name, p, "rocksdb.dir")
	if err != nil {
		return nil, err
	}
	o, bbto, cache, err := options(&cfg, p)
	if err != nil {
		return nil, err
	}
	state, err := engine.PrepareDir(&cfg)
	if err != nil {
		bbto.Destroy()
		cache.Destroy()
		return nil, err
	}
	rdb, err := grocksdb.OpenDb(o, cfg.Dir)
	if err != nil {
		bbto.Destroy()
		cache.Destroy()
		return nil, engine.LockedError(&cfg, err)
	}
	if err := engine.WriteMarker(&cfg); err != nil {
		rdb.Close()
		return nil, err
	}
	d := &DB{cfg: cfg, db: rdb, opts: o, bbto: bbto, cache: cache,
		wo: grocksdb.NewDefaultWriteOptions(), ro: grocksdb.NewDefaultReadOptions()}
	d.wo.SetSync(cfg.Sync)
	d.base = d.counters()
	io.WriteString(db.Output(ctx), cfg.Summary(state))
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
	d.wo.Destroy()
	d.ro.Destroy()
	// Not d.opts.Destroy(): grocksdb would free the merge operator a second
	// time after the options' own reference did. The options are a few
	// hundred bytes, once per Open.
	d.bbto.Destroy()
	d.cache.Destroy()
	return nil
}

// Stats implements db.StatsReporter: counters since Open.
func (d *DB) Stats() []db.Stat {
	s := d.counters().Since(d.base)
	return s.Rows(d.cfg.Dir)
}

func (d *DB) counters() engine.Stats {
	tick, hist := parseStatistics(d.opts.GetStatisticsString())
	var s engine.Stats
	s.UserBytesWritten = tick["rocksdb.bytes.written"]
	s.WALBytesWritten = tick["rocksdb.wal.bytes"]
	s.FlushBytesWritten = tick["rocksdb.flush.write.bytes"]
	s.CompactionBytesWritten = tick["rocksdb.compact.write.bytes"]
	s.CompactionBytesRead = tick["rocksdb.compact.read.bytes"]
	s.Flushes = int64(hist["rocksdb.db.flush.micros"])
	s.Compactions = int64(hist["rocksdb.compaction.times.micros"])
	s.BlockCacheHits = int64(tick["rocksdb.block.cache.hit"])
	s.BlockCacheMisses = int64(tick["rocksdb.block.cache.miss"])
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
	return &session{d: d}, nil
}

type session struct {
	d     *DB
	key   []byte
	val   []byte
	upper []byte
	dec   engine.Decoder
	ro    *grocksdb.ReadOptions // for scans: bounds change per call
	batch *grocksdb.WriteBatch
	rec   db.Record
	rows  db.Rows
}

func (s *session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if out == nil {
		s.rec.Reset()
		out = &s.rec
	}
	s.key = engine.AppendKey(s.key[:0], table, key)
	h, err := s.d.db.GetPinned(s.d.ro, s.key)
	if err != nil {
		return fmt.Errorf("rocksdb: read: %w", err)
	}
	if !h.Exists() {
		return db.ErrNotFound
	}
	defer h.Destroy()
	v := h.Data()
	if !engine.Exists(v) {
		return db.ErrNotFound
	}
	if err := s.dec.Decode(v, fields, out); err != nil {
		return fmt.Errorf("rocksdb: read %q: %w", key, err)
	}
	return nil
}

func (s *session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if out == nil {
		s.rows.Reset()
		out = &s.rows
	}
	if s.ro == nil {
		s.ro = grocksdb.NewDefaultReadOptions()
	}
	s.key = engine.AppendKey(s.key[:0], table, startKey)
	// The upper bound must stay put while the iterator lives: RocksDB keeps
	// a pointer to it.
	s.upper = engine.AppendTableEnd(s.upper[:0], table)
	s.ro.SetIterateUpperBound(s.upper)
	it := s.d.db.NewIterator(s.ro)
	defer it.Close()
	prefix := len(table) + 1
	n := 0
	for it.Seek(s.key); it.Valid() && n < count; it.Next() {
		vs := it.Value()
		v := vs.Data()
		if !engine.Exists(v) {
			continue
		}
		ks := it.Key()
		r := out.Next()
		r.SetKey(ks.Data()[prefix:])
		if err := s.dec.Decode(v, fields, r); err != nil {
			return fmt.Errorf("rocksdb: scan %q: %w", r.Key, err)
		}
		n++
		if n&63 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("rocksdb: scan: %w", err)
	}
	return nil
}

func (s *session) Update(ctx context.Context, table, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.key = engine.AppendKey(s.key[:0], table, key)
	s.val = engine.AppendValue(s.val[:0], engine.KindUpdate, values)
	if err := s.d.db.Merge(s.d.wo, s.key, s.val); err != nil {
		return fmt.Errorf("rocksdb: update: %w", err)
	}
	return nil
}

func (s *session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.key = engine.AppendKey(s.key[:0], table, key)
	s.val = engine.AppendValue(s.val[:0], engine.KindRecord, values)
	if err := s.d.db.Put(s.d.wo, s.key, s.val); err != nil {
		return fmt.Errorf("rocksdb: insert: %w", err)
	}
	return nil
}

// InsertBatch writes the records in one atomic write batch.
func (s *session) InsertBatch(ctx context.Context, table string, keys []string, values [][]db.Field) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.batch == nil {
		s.batch = grocksdb.NewWriteBatch()
	}
	s.batch.Clear()
	for i, k := range keys {
		s.key = engine.AppendKey(s.key[:0], table, k)
		s.val = engine.AppendValue(s.val[:0], engine.KindRecord, values[i])
		s.batch.Put(s.key, s.val) // copies
	}
	if err := s.d.db.Write(s.d.wo, s.batch); err != nil {
		return fmt.Errorf("rocksdb: batch insert: %w", err)
	}
	return nil
}

func (s *session) Delete(ctx context.Context, table, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.key = engine.AppendKey(s.key[:0], table, key)
	if err := s.d.db.Delete(s.d.wo, s.key); err != nil {
		return fmt.Errorf("rocksdb: delete: %w", err)
	}
	return nil
}

func (s *session) Close(context.Context) error {
	if s.batch != nil {
		s.batch.Destroy()
		s.batch = nil
	}
	if s.ro != nil {
		s.ro.Destroy()
		s.ro = nil
	}
	return nil
}
