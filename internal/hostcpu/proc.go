package hostcpu

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
)

// stealTicks reads the machine's steal time and its total CPU time, in
// ticks, from the cpu line of /proc/stat: user nice system idle iowait irq
// softirq steal (guest and guest_nice are within user and nice already).
func (s Source) stealTicks() (steal, total uint64, ok bool) {
	b, err := readSmall(s.path("/proc/stat"))
	if err != nil {
		return 0, 0, false
	}
	return parseStat(b)
}

func parseStat(b []byte) (steal, total uint64, ok bool) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0, false // a kernel before 2.6.11 has no steal field
	}
	for i := 1; i <= 8; i++ {
		v, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			return 0, 0, false
		}
		total += v
		if i == 8 {
			steal = v
		}
	}
	return steal, total, true
}

// taskWaits reads each thread's time waiting on a run queue: the second
// field of /proc/self/task/<tid>/schedstat (ns). Nil when unknown,
// as with more than maxTasks threads.
func (s Source) taskWaits() map[int]int64 {
	dir := s.path("/proc/self/task")
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	names, err := d.Readdirnames(maxTasks)
	if err == nil && len(names) == maxTasks {
		// Threads beyond the bound would count as born in the next
		// window, with their lifetime's waits.
		if more, err := d.Readdirnames(1); len(more) > 0 || err != io.EOF {
			names = nil
		}
	}
	d.Close()
	if err != nil || len(names) == 0 {
		return nil
	}
	waits := make(map[int]int64, len(names))
	for _, name := range names {
		tid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		b, err := readSmall(dir + "/" + name + "/schedstat")
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return nil
		}
		w, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return nil
		}
		waits[tid] = w
	}
	if len(waits) == 0 {
		return nil
	}
	return waits
}
