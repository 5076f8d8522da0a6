package kv

import (
	"context"
	"io/fs"
	"path/filepath"
	"syscall"
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

// Rows renders s, plus the size on disk of dir, as report rows.
func (s *Stats) Rows(dir string) []db.Stat {
	rows := []db.Stat{
		stat("WriteAmplification", round2(s.WriteAmplification())),
		stat("ReadAmplification", s.ReadAmplification),
		stat("UserBytesWritten", int64(s.UserBytesWritten)),
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
	return append(rows,
		stat("LiveSSTableBytes", s.LiveSSTableBytes),
		stat("DiskSize(bytes)", DiskUsage(dir)))
}

func stat(name string, v any) db.Stat { return db.Stat{Section: Section, Name: name, Value: v} }

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

// DiskUsage is the space the regular files under dir take on disk, as du
// counts it (allocated 512-byte blocks): everything the engine keeps (tables,
// WAL, manifest, logs). Apparent sizes would miss the WAL files both engines
// preallocate, which take their full size on disk while their length is
// still small.
func DiskUsage(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			n += st.Blocks * 512
		} else {
			n += info.Size()
		}
		return nil
	})
	return n
}

// Reporter gives a binding's DB its report rows: the engine's counters
// since Start, its compaction debt at Start and at the end of the phase, and
// what settling after the phase (engine.settle) did.
type Reporter struct {
	dir   string
	read  func() Stats
	debt  func() Debt
	base  Stats // counters at Start
	start Debt  // debt at Start

	settled bool      // Settle ran
	phase   []db.Stat // the phase's rows, taken when Settle began
	end     Stats     // the counters then
	took    time.Duration
	ok      bool // Settle reached no debt
}

// Start takes the counters' base and the debt at Open; read returns the
// engine's counters now, debt its compaction debt now, dir is the data
// directory whose size is reported.
func (r *Reporter) Start(dir string, read func() Stats, debt func() Debt) {
	r.dir, r.read, r.debt = dir, read, debt
	r.base = read()
	r.start = debt()
}

// Settle runs kv.Settle on e after the measured phase. The phase's rows
// are taken first, so that its counters, gauges and disk size are the
// phase's and not the settling's, which Stats reports apart.
func (r *Reporter) Settle(ctx context.Context, e Settling, timeout time.Duration) error {
	r.phase = r.rows()
	r.end = r.read()
	r.settled = true
	var err error
	r.took, err = Settle(ctx, e, timeout)
	r.ok = err == nil
	return err
}

// rows are the counters since Start, then the debt at the start and now.
func (r *Reporter) rows() []db.Stat {
	s := r.read().Since(r.base)
	rows := s.Rows(r.dir)
	rows = append(rows, r.start.Rows("AtStart")...)
	return append(rows, r.debt().Rows("AtEnd")...)
}

// Stats returns the report rows: the counters since Start, the debt at the
// start and at the end of the phase, then settling's rows when it ran:
// SettleTime(ms), Settled (1, or 0 when it gave up), the flushes' and
// compactions' bytes it wrote, the debt and the disk size after it.
//
// MemtablesFlushed says whether the sizes describe the store the next
// phase opens: 0 without settling (the memtables' data is in the WAL only,
// which the next Open replays: after a load, LiveSSTableBytes may be 0 and
// DiskSize mostly a preallocated WAL), 1 when settling completed, whose
// LiveSSTableBytesAfterSettle and DiskSizeAfterSettle(bytes) are then the
// state the next phase starts from.
func (r *Reporter) Stats() []db.Stat {
	if !r.settled {
		return append(r.rows(), stat("MemtablesFlushed", int64(0)))
	}
	ok := int64(0)
	if r.ok {
		ok = 1
	}
	now := r.read()
	s := now.Since(r.end)
	rows := append(r.phase[:len(r.phase):len(r.phase)],
		stat("SettleTime(ms)", r.took.Milliseconds()),
		stat("Settled", ok),
		stat("MemtablesFlushed", ok),
		stat("SettleBytesWritten", int64(s.FlushBytesWritten+s.CompactionBytesWritten)))
	rows = append(rows, r.debt().Rows("AfterSettle")...)
	return append(rows, stat("LiveSSTableBytesAfterSettle", now.LiveSSTableBytes),
		stat("DiskSizeAfterSettle(bytes)", DiskUsage(r.dir)))
}
