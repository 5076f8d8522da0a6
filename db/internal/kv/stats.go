package kv

import (
	"context"
	"fmt"
	"time"

	"github.com/goycsb/ycsb/db"
)

// Section is the report section of the engine statistics. Both engines use
// the same section and row names, so two reports compare line by line.
const Section = "ENGINE"

// Stats are the engine counters since the DB was opened, gathered the same
// way for both engines (docs/engines.md says where each comes from).
type Stats struct {
	UserBytesWritten       uint64 // logical bytes of the write batches
	WALBytesWritten        uint64
	FlushBytesWritten      uint64
	CompactionBytesWritten uint64
	CompactionBytesRead    uint64
	Flushes                int64
	Compactions            int64
	ReadAmplification      int64 // L0 sublevels (pebble) or files (rocksdb) + non-empty levels below
	BlockCacheHits         int64
	BlockCacheMisses       int64
	LiveSSTableBytes       int64
	// BlockKinds splits the block cache's lookups by block kind, for an
	// engine that counts them apart (RocksDB); nil otherwise (Pebble).
	BlockKinds *BlockKinds
}

// BlockKinds are block cache lookups by kind of block.
type BlockKinds struct {
	DataHits, DataMisses     int64
	IndexHits, IndexMisses   int64
	FilterHits, FilterMisses int64
}

func (k BlockKinds) since(b BlockKinds) *BlockKinds {
	return &BlockKinds{
		DataHits: k.DataHits - b.DataHits, DataMisses: k.DataMisses - b.DataMisses,
		IndexHits: k.IndexHits - b.IndexHits, IndexMisses: k.IndexMisses - b.IndexMisses,
		FilterHits: k.FilterHits - b.FilterHits, FilterMisses: k.FilterMisses - b.FilterMisses,
	}
}

// Since returns the counters of s accumulated after base, keeping s's
// gauges (read amplification, live table bytes). The bindings take base when
// they open, so that the report covers the run and not the flush of the
// previous run's memtable that both engines do when they reopen.
func (s Stats) Since(base Stats) Stats {
	s.UserBytesWritten -= base.UserBytesWritten
	s.WALBytesWritten -= base.WALBytesWritten
	s.FlushBytesWritten -= base.FlushBytesWritten
	s.CompactionBytesWritten -= base.CompactionBytesWritten
	s.CompactionBytesRead -= base.CompactionBytesRead
	s.Flushes -= base.Flushes
	s.Compactions -= base.Compactions
	s.BlockCacheHits -= base.BlockCacheHits
	s.BlockCacheMisses -= base.BlockCacheMisses
	if s.BlockKinds != nil && base.BlockKinds != nil {
		s.BlockKinds = s.BlockKinds.since(*base.BlockKinds)
	}
	return s
}

// WriteAmplification is (WAL + flush + compaction bytes written) divided by
// the user bytes written; 0 before any write.
func (s *Stats) WriteAmplification() float64 {
	if s.UserBytesWritten == 0 {
		return 0
	}
	return float64(s.WALBytesWritten+s.FlushBytesWritten+s.CompactionBytesWritten) / float64(s.UserBytesWritten)
}

// BlockCacheHitRate is hits / (hits + misses) in percent; 0 with no lookups.
func (s *Stats) BlockCacheHitRate() float64 { return hitRate(s.BlockCacheHits, s.BlockCacheMisses) }

func hitRate(hits, misses int64) float64 {
	if t := hits + misses; t > 0 {
		return 100 * float64(hits) / float64(t)
	}
	return 0
}

// Rows renders s as report rows.
func (s *Stats) Rows() []db.Stat {
	rows := []db.Stat{
		stat("EngineWriteAmplification", round2(s.WriteAmplification())),
		stat("ReadAmplification", s.ReadAmplification),
		stat("BatchBytesWritten", int64(s.UserBytesWritten)),
		stat("WALBytesWritten", int64(s.WALBytesWritten)),
		stat("Flushes", s.Flushes),
		stat("FlushBytesWritten", int64(s.FlushBytesWritten)),
		stat("Compactions", s.Compactions),
		stat("CompactionBytesRead", int64(s.CompactionBytesRead)),
		stat("CompactionBytesWritten", int64(s.CompactionBytesWritten)),
		stat("BlockCacheHits", s.BlockCacheHits),
		stat("BlockCacheMisses", s.BlockCacheMisses),
		stat("BlockCacheHitRate(%)", round2(s.BlockCacheHitRate())),
	}
	if k := s.BlockKinds; k != nil {
		for _, kind := range []struct {
			name         string
			hits, misses int64
		}{{"Data", k.DataHits, k.DataMisses}, {"Index", k.IndexHits, k.IndexMisses}, {"Filter", k.FilterHits, k.FilterMisses}} {
			rows = append(rows,
				stat("BlockCache"+kind.name+"Hits", kind.hits),
				stat("BlockCache"+kind.name+"Misses", kind.misses),
				stat("BlockCache"+kind.name+"HitRate(%)", round2(hitRate(kind.hits, kind.misses))))
		}
	}
	return append(rows, stat("LiveSSTableBytes", s.LiveSSTableBytes))
}

func stat(name string, v any) db.Stat { return db.Stat{Section: Section, Name: name, Value: v} }

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

// Reporter gives a binding's DB its report rows: the rows every engine
// has (amplification, measured the same way for all: see amp.go), then the
// engine's own, and what settling after the phase (engine.settle) did.
type Reporter struct {
	dir    string
	engine func() []db.Stat      // the engine's own rows for the phase
	live   func() (int64, error) // the live user bytes, for space amplification
	amp    ampBase               // at Start
	// For the LSM engines (Start): their counters and compaction debt.
	read  func() Stats
	debt  func() Debt
	base  Stats // counters at Start
	start Debt  // debt at Start

	settled bool      // Settle ran
	phase   []db.Stat // the phase's rows, taken when Settle began
	atEnd   ampBase   // the amplification counters then
	end     Stats     // the LSM counters then
	liveEnd int64     // the live user bytes then
	took    time.Duration
	ok      bool // Settle reached its goal
	after   func() []db.Stat

	durability *Durability
}

// Durability is what a write survives once the engine acknowledged it,
// said in the report: engine.sync=false skips the fsync on every engine,
// but not every engine has written the write to the OS when it returns.
type Durability struct {
	// SyncEachWrite: the write was synced to disk before it returned
	// (engine.sync=true): it survives a crash of the machine.
	SyncEachWrite bool
	// ProcessCrashSafe: the write was in the OS (written to a file or a
	// shared memory map) before it returned: it survives a crash of the
	// process. Pebble without sync buffers its WAL in the process.
	ProcessCrashSafe bool
}

// SetDurability sets the durability rows, the first of the report's.
func (r *Reporter) SetDurability(d Durability) { r.durability = &d }

func flag(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Start is StartEngine for an LSM engine: its rows are its counters since
// Start (read returns them now) and its compaction debt at Start and at the
// end of the phase.
func (r *Reporter) Start(dir string, read func() Stats, debt func() Debt) {
	r.read, r.debt = read, debt
	r.base = read()
	r.start = debt()
	r.StartEngine(dir, func() []db.Stat {
		s := r.read().Since(r.base)
		rows := s.Rows()
		rows = append(rows, r.start.Rows("AtStart")...)
		return append(rows, r.debt().Rows("AtEnd")...)
	})
}

// StartEngine takes the amplification counters' base when the engine has
// opened: dir is the data directory whose size is reported, engine returns
// the engine's own rows for the phase.
func (r *Reporter) StartEngine(dir string, engine func() []db.Stat) {
	r.dir, r.engine = dir, engine
	r.amp = takeAmpBase()
}

// LiveBytes sets how the live user bytes are counted (ScanLiveBytes for the
// engines with a kv.Conn); without it, SpaceAmplification is not reported.
func (r *Reporter) LiveBytes(fn func() (int64, error)) { r.live = fn }

func (r *Reporter) liveBytes() int64 {
	if r.live == nil {
		return -1
	}
	n, err := r.live()
	if err != nil {
		return -1
	}
	return n
}

// rows are the phase's rows: amplification, then the engine's.
func (r *Reporter) rows(live int64) []db.Stat {
	var rows []db.Stat
	if d := r.durability; d != nil {
		rows = append(rows, stat("SyncEachWrite", flag(d.SyncEachWrite)), stat("SurvivesProcessCrash", flag(d.ProcessCrashSafe)))
	}
	rows = append(rows, writeRows(r.amp, "")...)
	if live >= 0 {
		rows = append(rows, stat("LiveUserBytes", live))
	}
	rows = append(rows, spaceRows(r.dir, live, "")...)
	return append(rows, r.engine()...)
}

// Settle runs kv.Settle on e after the measured phase. The phase's rows
// are taken first, so that its counters, gauges and disk size are the
// phase's and not the settling's, which Stats reports apart.
func (r *Reporter) Settle(ctx context.Context, e Settling, timeout time.Duration) error {
	return r.SettleWith(ctx, func(ctx context.Context) error {
		r.end = r.read()
		_, err := Settle(ctx, e, timeout)
		return err
	}, func() []db.Stat {
		now := r.read()
		s := now.Since(r.end)
		rows := append([]db.Stat{stat("SettleBytesWritten", int64(s.FlushBytesWritten+s.CompactionBytesWritten))},
			r.debt().Rows("AfterSettle")...)
		return append(rows, stat("LiveSSTableBytesAfterSettle", now.LiveSSTableBytes))
	})
}

// SettleLSM is the engine.settle of an LSM engine (Pebble, RocksDB):
// nothing without c.Settle; else Settle under engine.settle.timeout.
func (r *Reporter) SettleLSM(ctx context.Context, c *Config, e Settling) error {
	if !c.Settle {
		return nil
	}
	return r.Settle(ctx, e, c.SettleTimeout)
}

// SettleEngine is the engine.settle of an engine that settles its own way
// (no compaction debt to wait for): nothing without c.Settle; else settle
// runs under engine.settle.timeout, and not at all once ctx is done (then
// the report says Settled 0).
func (r *Reporter) SettleEngine(ctx context.Context, c *Config, settle func(context.Context) error, after func() []db.Stat) error {
	if !c.Settle {
		return nil
	}
	return r.SettleWith(ctx, func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, c.SettleTimeout)
		defer cancel()
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("not settled (interrupted): %w", err)
		}
		return settle(ctx)
	}, after)
}

// SettleWith settles with the engine's own settle after the measured phase,
// once: the phase's rows are taken first; after returns the engine's own
// rows once settled.
func (r *Reporter) SettleWith(ctx context.Context, settle func(context.Context) error, after func() []db.Stat) error {
	r.liveEnd = r.liveBytes() // settling changes no record: one scan for both
	r.phase = r.rows(r.liveEnd)
	r.atEnd = takeAmpBase()
	r.settled = true
	r.after = after
	start := time.Now()
	err := settle(ctx)
	r.took = time.Since(start)
	r.ok = err == nil
	return err
}

// Stats returns the report rows: the phase's (amplification, then the
// engine's own), then settling's rows when it ran: SettleTime(ms), Settled
// (1, or 0 when it gave up), the engine's rows after settling, what
// settling wrote to disk and the space once settled.
//
// An LSM engine's MemtablesFlushed says whether the sizes describe the
// store the next phase opens: 0 without settling (the memtables' data is in
// the WAL only, which the next Open replays: after a load,
// LiveSSTableBytes may be 0 and DiskSize mostly a preallocated WAL), 1 when
// settling completed, whose LiveSSTableBytesAfterSettle and
// DiskSizeAfterSettle(bytes) are then the state the next phase starts from.
func (r *Reporter) Stats() []db.Stat {
	if !r.settled {
		rows := r.rows(r.liveBytes())
		if r.read != nil {
			rows = append(rows, stat("MemtablesFlushed", int64(0)))
		}
		return rows
	}
	ok := int64(0)
	if r.ok {
		ok = 1
	}
	rows := append(r.phase[:len(r.phase):len(r.phase)],
		stat("SettleTime(ms)", r.took.Milliseconds()),
		stat("Settled", ok))
	if r.read != nil {
		rows = append(rows, stat("MemtablesFlushed", ok))
	}
	rows = append(rows, r.after()...)
	for _, s := range writeRows(r.atEnd, "") {
		if s.Name == "DiskBytesWritten" {
			rows = append(rows, stat("SettleDiskBytesWritten", s.Value))
		}
	}
	return append(rows, spaceRows(r.dir, r.liveEnd, "AfterSettle")...)
}
