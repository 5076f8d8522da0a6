package engine

import (
	"io/fs"
	"path/filepath"
	"syscall"

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
func (s *Stats) BlockCacheHitRate() float64 {
	if t := s.BlockCacheHits + s.BlockCacheMisses; t > 0 {
		return 100 * float64(s.BlockCacheHits) / float64(t)
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
		stat("LiveSSTableBytes", s.LiveSSTableBytes),
		stat("DiskSize(bytes)", DiskUsage(dir)),
	}
	return rows
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
// since Start.
type Reporter struct {
	dir  string
	read func() Stats
	base Stats // counters at Start
}

// Start takes the counters' base (at Open); read returns the engine's
// counters now, dir is the data directory whose size is reported.
func (r *Reporter) Start(dir string, read func() Stats) {
	r.dir, r.read = dir, read
	r.base = read()
}

// Stats returns the counters since Start as report rows.
func (r *Reporter) Stats() []db.Stat {
	s := r.read().Since(r.base)
	return s.Rows(r.dir)
}
