package kv

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/goycsb/ycsb/db"
)

// Amplification is measured the same way for every engine, outside the
// engine: the bytes the process wrote to disk (the kernel's count in
// /proc/self/io), the bytes on disk under engine.dir, and the user bytes the
// sessions handed to the engine (UserBytes), whatever the engine's own
// accounting says.

// UserBytes is what one insert or update writes in user terms: the key and
// every field's name and value, whatever the engine's encoding or layout.
// A delete writes its key.
func UserBytes(key string, values []db.Field) int64 {
	n := len(key)
	for i := range values {
		n += len(values[i].Name) + len(values[i].Value)
	}
	return int64(n)
}

// WriteCounter counts one session's user bytes written. Each session has
// its own, on its own cache line, so the hot path shares nothing with the
// other workers; the report sums them.
type WriteCounter struct {
	n atomic.Int64
	_ [56]byte
}

// Add counts n user bytes written.
func (c *WriteCounter) Add(n int64) { c.n.Add(n) }

// counters are the process's write counters: the sessions open now, and the
// sum of those closed. Process-wide like /proc/self/io, with which the
// report divides it: one run opens one engine.
var counters struct {
	mu      sync.Mutex
	open    map[*WriteCounter]struct{}
	retired int64
}

// NewWriteCounter returns a session's counter; Close it with the session.
func NewWriteCounter() *WriteCounter {
	c := new(WriteCounter)
	counters.mu.Lock()
	if counters.open == nil {
		counters.open = map[*WriteCounter]struct{}{}
	}
	counters.open[c] = struct{}{}
	counters.mu.Unlock()
	return c
}

// Close folds c into the closed sessions' sum.
func (c *WriteCounter) Close() {
	counters.mu.Lock()
	if _, ok := counters.open[c]; ok {
		delete(counters.open, c)
		counters.retired += c.n.Load()
	}
	counters.mu.Unlock()
}

// userBytesWritten is the process's user bytes written so far.
func userBytesWritten() int64 {
	counters.mu.Lock()
	defer counters.mu.Unlock()
	n := counters.retired
	for c := range counters.open {
		n += c.n.Load()
	}
	return n
}

// ProcIO is the process's disk writes from /proc/self/io: WriteBytes are
// the bytes it caused to be written to storage (counted when a page of a
// file is first dirtied, through write or a shared mapping, and when written
// directly), CancelledWriteBytes those it later truncated or deleted before
// they reached the disk.
type ProcIO struct {
	WriteBytes, CancelledWriteBytes int64
	OK                              bool // false where /proc/self/io is missing
}

// ReadProcIO reads /proc/self/io (a few hundred bytes; bounded).
func ReadProcIO() ProcIO {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return ProcIO{}
	}
	defer f.Close()
	var buf [1024]byte
	n, _ := f.Read(buf[:])
	return parseProcIO(buf[:n])
}

func parseProcIO(b []byte) ProcIO {
	var p ProcIO
	var seen int
	for line := range bytes.Lines(b) {
		name, val, ok := bytes.Cut(line, []byte(": "))
		if !ok {
			continue
		}
		v, err := strconv.ParseInt(string(bytes.TrimSpace(val)), 10, 64)
		if err != nil || v < 0 {
			continue
		}
		switch string(name) {
		case "write_bytes":
			p.WriteBytes = v
			seen++
		case "cancelled_write_bytes":
			p.CancelledWriteBytes = v
			seen++
		}
	}
	p.OK = seen == 2
	return p
}

// DiskSpace is the size of the regular files under a directory: Allocated
// as du counts it (512-byte blocks: preallocated WAL files count in full,
// sparse holes not at all), Apparent as ls does.
type DiskSpace struct{ Allocated, Apparent int64 }

// SpaceOf walks dir.
func SpaceOf(dir string) DiskSpace {
	var s DiskSpace
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		s.Apparent += info.Size()
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			s.Allocated += st.Blocks * 512
		} else {
			s.Allocated += info.Size()
		}
		return nil
	})
	return s
}

// DiskUsage is SpaceOf(dir).Allocated.
func DiskUsage(dir string) int64 { return SpaceOf(dir).Allocated }

// ratio is a/b rounded to two places; 0 when b is 0 (nothing to divide by).
func ratio(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return round2(float64(a) / float64(b))
}

// ampBase is what the amplification rows count from.
type ampBase struct {
	io   ProcIO
	user int64
}

func takeAmpBase() ampBase { return ampBase{io: ReadProcIO(), user: userBytesWritten()} }

// writeRows are the write amplification rows since base.
func writeRows(base ampBase, suffix string) []db.Stat {
	now := takeAmpBase()
	user := now.user - base.user
	rows := []db.Stat{stat("UserBytesWritten"+suffix, user)}
	if !now.io.OK || !base.io.OK {
		return rows // no /proc/self/io: no figure rather than a made-up one
	}
	disk := now.io.WriteBytes - base.io.WriteBytes
	return append(rows,
		stat("DiskBytesWritten"+suffix, disk),
		stat("DiskBytesWriteCancelled"+suffix, now.io.CancelledWriteBytes-base.io.CancelledWriteBytes),
		stat("WriteAmplification"+suffix, ratio(disk, user)))
}

// spaceRows are the space rows of dir now, over live user bytes (< 0: not
// measured).
func spaceRows(dir string, live int64, suffix string) []db.Stat {
	s := SpaceOf(dir)
	rows := []db.Stat{
		stat("DiskSize"+suffix+"(bytes)", s.Allocated),
		stat("DiskSizeApparent"+suffix+"(bytes)", s.Apparent),
	}
	if live >= 0 {
		rows = append(rows,
			stat("SpaceAmplification"+suffix, ratio(s.Allocated, live)),
			stat("SpaceAmplificationApparent"+suffix, ratio(s.Apparent, live)))
	}
	return rows
}
