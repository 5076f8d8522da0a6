package stress

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// The checks of what a run would generate against the bounds of
// frontend/stress/settings/limits.go that need more than one option, or a
// profile's table: before anything is created, one line and exit 2.

// maxRowBytes is the most bytes of a predefined command's row: its key
// and every cell at its largest.
func maxRowBytes(s *settings.Settings) int64 {
	return int64(s.Command.KeySize) + s.Columns.Count.Max*max(s.Columns.Size.Min, s.Columns.Size.Max)
}

// predefinedMemory refuses a predefined command whose workers would hold
// more than this machine's memory: each its row and the frame that carries
// it.
func (r *stressRun) predefinedMemory() error {
	s := r.s
	return r.checkMemory(2*float64(maxRowBytes(s)), "rows of up to "+bytesText(float64(maxRowBytes(s)))+" ("+
		s.Option("-col", "n=", s.Columns.Count.String())+", "+s.Option("-col", "size=", s.Columns.Size.String())+", "+
		s.Option(s.Command.Type.String(), "keysize=", strconv.Itoa(s.Command.KeySize))+")", "their row and the frame that carries it")
}

// runThreads is the most workers the run (or its warm-up) has at once
// that it surely reaches, and how the command line says so: threads=, or
// for a ramp its first step (with auto it may stop there) or its last
// (without), and the warm-up's (at most 100).
func (r *stressRun) runThreads() (int, string) {
	s := r.s
	opt := func(name string, n int, what string) string {
		if w := s.Typed("-rate", name); w != "" {
			return "-rate " + w
		}
		return "the default " + name + strconv.Itoa(n) + what
	}
	n, desc := s.Rate.Threads, opt("threads=", s.Rate.Threads, "")
	switch {
	case s.Rate.Ramp() && s.Rate.Auto:
		n, desc = s.Rate.MinThreads, opt("threads>=", s.Rate.MinThreads, ", the ramp's first step")
	case s.Rate.Ramp():
		n, desc = s.Rate.MaxThreads, opt("threads<=", s.Rate.MaxThreads, ", the ramp's last step")
	}
	if it, w := r.warmupSize(); !s.Command.NoWarmup && it > 0 && w > n {
		n, desc = w, fmt.Sprintf("the warm-up's %d threads", w)
	}
	return n, desc
}

// checkMemory refuses a run whose workers would each hold perWorker bytes
// (what, why) and all together more than this machine's memory.
func (r *stressRun) checkMemory(perWorker float64, what, why string) error {
	mem := machineMemory()
	threads, desc := r.runThreads()
	if mem <= 0 || float64(threads)*perWorker <= float64(mem) {
		return nil
	}
	return bad("%s: %d workers (%s) of up to %s each (%s) need %s, more than this machine's memory (%s): give fewer threads or smaller sizes",
		what, threads, desc, bytesText(perWorker), why, bytesText(float64(threads)*perWorker), bytesText(float64(mem)))
}

// machineMemory is the memory this process may use: the machine's, or
// the Go memory limit (GOMEMLIMIT) when lower; 0 if not known.
func machineMemory() int64 {
	mem := physicalMemory()
	if lim := debug.SetMemoryLimit(-1); lim > 0 && lim < math.MaxInt64 && (mem == 0 || lim < mem) {
		mem = lim
	}
	return mem
}

// bytesText is n bytes for a message: B, KiB, MiB, GiB or TiB.
func bytesText(n float64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if i == 0 {
		return strconv.FormatFloat(n, 'f', 0, 64) + " bytes"
	}
	return strconv.FormatFloat(n, 'f', 1, 64) + " " + units[i]
}
