// Package hostcpu reads what a client used of its machine over a window:
// the process's CPU time, the time its threads waited for a CPU, the cores
// it may use (its CPU affinity, capped by its cgroup's CPU quota) and the
// machine's steal time. A benchmark client that used all of its cores, or
// waited for them, measured itself as much as the database.
//
// Everything is read from small files under a root ("/" on a machine, a
// testdata tree in tests) and from system calls where the platform has
// them; a figure that cannot be read is marked unknown, never guessed.
package hostcpu

import (
	"io"
	"os"
	"path/filepath"
	"time"
)

// maxFile bounds each file read: /proc/stat of a large machine and
// mountinfo with many mounts stay well below it.
const maxFile = 1 << 20

// maxTasks bounds the threads whose waits are read per sample; a process
// with more has no known waits. A variable so a test can lower it.
var maxTasks = 4096

// Source reads the figures under Root.
type Source struct {
	// Root is where /proc and the cgroup file systems are found: "/" on
	// a machine.
	Root string
}

// System is the machine's own files.
var System = Source{Root: "/"}

// Sample is the figures at one instant; Between turns two into a window.
type Sample struct {
	At time.Time
	// CPU is the process's user and system time (getrusage).
	CPU   time.Duration
	cpuOK bool
	// waits are each thread's nanoseconds waiting on a run queue
	// (/proc/self/task/*/schedstat), by thread id; nil when unknown.
	waits map[int]int64
	// steal and total are the machine's CPU time in ticks (/proc/stat).
	steal, total uint64
	statOK       bool
}

// Sample reads the figures now.
func (s Source) Sample() Sample {
	sm := Sample{At: time.Now()}
	sm.CPU, sm.cpuOK = ProcessCPU()
	sm.waits = s.taskWaits()
	sm.steal, sm.total, sm.statOK = s.stealTicks()
	return sm
}

// Usage is what the client used over a window, in cores: CPU seconds per
// second of the window.
type Usage struct {
	Wall time.Duration
	// Cores is how many cores the process may use: its CPU affinity,
	// capped by its cgroup's quota and by the cap the caller gave.
	Cores      float64
	CoresKnown bool
	// CPU is the cores' worth of CPU the process used.
	CPU      float64
	CPUKnown bool
	// Wait is the cores' worth of time its threads were ready to run but
	// waited for a CPU: held by other processes, or by its own threads
	// beyond the cores.
	Wait      float64
	WaitKnown bool
	// StealPct is the share of the machine's CPU time the hypervisor gave
	// to other guests.
	StealPct   float64
	StealKnown bool
}

// Between is the usage from a to b, of a process that may use cores
// (Cores; known false when they could not be read).
func Between(a, b Sample, cores float64, coresKnown bool) Usage {
	u := Usage{Wall: b.At.Sub(a.At), Cores: cores, CoresKnown: coresKnown && cores > 0}
	secs := u.Wall.Seconds()
	if secs <= 0 {
		return Usage{Cores: u.Cores, CoresKnown: u.CoresKnown}
	}
	if a.cpuOK && b.cpuOK && b.CPU >= a.CPU {
		u.CPU, u.CPUKnown = (b.CPU-a.CPU).Seconds()/secs, true
	}
	if a.waits != nil && b.waits != nil {
		// A thread that exited during the window takes its waits with it;
		// one born in it waited only within it.
		var ns int64
		for tid, w := range b.waits {
			if d := w - a.waits[tid]; d > 0 {
				ns += d
			}
		}
		u.Wait, u.WaitKnown = float64(ns)/1e9/secs, true
	}
	if a.statOK && b.statOK && b.total > a.total && b.steal >= a.steal {
		u.StealPct, u.StealKnown = float64(b.steal-a.steal)/float64(b.total-a.total)*100, true
	}
	return u
}

// Cores is how many cores the process may use: its CPU affinity, capped by
// its cgroup's CPU quota (a quota of 150ms per 100ms is 1.5 cores) and by
// limit when limit > 0 (a GOMAXPROCS the user pinned). Known is false when
// not even the affinity could be read.
func (s Source) Cores(limit int) (cores float64, known bool) {
	n, ok := affinity()
	if !ok {
		return 0, false
	}
	cores = float64(n)
	if q, ok := s.Quota(); ok && q < cores {
		cores = q
	}
	if limit > 0 && float64(limit) < cores {
		cores = float64(limit)
	}
	return cores, true
}

// path is p (an absolute path on the machine) under the root.
func (s Source) path(p string) string { return filepath.Join(s.Root, p) }

// readSmall reads at most maxFile bytes of path.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxFile))
}
