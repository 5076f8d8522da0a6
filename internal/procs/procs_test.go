package procs

import (
	"runtime"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/hostcpu"
)

func TestNext(t *testing.T) {
	w := 100 * time.Millisecond
	for _, c := range []struct {
		n, max int
		cpu    time.Duration
		want   int
	}{
		{1, 2, 50 * time.Millisecond, 1},  // half a processor: stays
		{1, 2, 84 * time.Millisecond, 1},  // just under Busy
		{1, 2, 85 * time.Millisecond, 2},  // at Busy
		{1, 2, 130 * time.Millisecond, 2}, // syscalls run beside the processor
		{2, 2, 200 * time.Millisecond, 2}, // at the cap
		{2, 8, 160 * time.Millisecond, 2}, // 80% of two
		{2, 8, 175 * time.Millisecond, 3}, // 87.5% of two
		{3, 8, 0, 3},                      // idle
		{1, 4, 90 * time.Millisecond, 2},  // one at a time
	} {
		if got := Next(c.n, c.max, c.cpu, w); got != c.want {
			t.Errorf("Next(%d, %d, %v, %v) = %d, want %d", c.n, c.max, c.cpu, w, got, c.want)
		}
	}
	if got := Next(1, 2, time.Second, 0); got != 1 {
		t.Errorf("Next with no wall time = %d, want 1", got)
	}
}

// busyCPU stands for a process that keeps every processor it has busy:
// each read is an hour of CPU later than the one before, more than any
// window's wall time, however long the machine makes the windows.
func busyCPU() func() (time.Duration, bool) {
	var cpu time.Duration
	return func() (time.Duration, bool) {
		cpu += time.Hour
		return cpu, true
	}
}

// A busy process grows to the runtime's count, one processor a window,
// and the sizing then ends; Stop gives the count back. The load is read
// through readCPU (a busy process on a machine that other processes keep
// busy may not get its share: the sizing would rightly not grow it).
func TestAdaptGrowsUnderLoad(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	orig := runtime.GOMAXPROCS(0)
	if orig < 2 {
		t.Skip("one CPU: nothing to size")
	}
	defer func(r func() (time.Duration, bool)) { readCPU = r }(readCPU)
	readCPU = busyCPU()
	a := Adapt()
	if got := gomaxprocs(); got != 1 {
		t.Fatalf("started on %d processors, want 1", got)
	}
	select {
	case <-a.done: // the loop ends once at the runtime's count
	case <-time.After(time.Minute):
		t.Fatalf("busy process still sizing after a minute, on %d processors", gomaxprocs())
	}
	if got := gomaxprocs(); got != orig {
		t.Errorf("busy process on %d processors, want %d", got, orig)
	}
	a.Stop()
	if got := gomaxprocs(); got != orig {
		t.Errorf("after Stop %d processors, want %d", got, orig)
	}
}

// An idle process stays on one processor over five windows (the sizing's
// reads of its real CPU counted, not slept for).
func TestAdaptStaysWhenIdle(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	orig := runtime.GOMAXPROCS(0)
	if orig < 2 {
		t.Skip("one CPU: nothing to size")
	}
	defer func(r func() (time.Duration, bool)) { readCPU = r }(readCPU)
	reads := make(chan struct{})
	readCPU = func() (time.Duration, bool) {
		cpu, ok := hostcpu.ProcessCPU()
		select {
		case reads <- struct{}{}:
		default: // Adapt's own read, or the test between two
		}
		return cpu, ok
	}
	a := Adapt()
	for range 5 {
		<-reads
	}
	got := gomaxprocs()
	a.Stop()
	if got != 1 {
		t.Errorf("idle process on %d processors after 5 windows, want 1", got)
	}
	if gomaxprocs() != orig {
		t.Errorf("after Stop %d processors, want %d", gomaxprocs(), orig)
	}
}

// A pinned count is left alone.
func TestAdaptPinned(t *testing.T) {
	t.Setenv("GOMAXPROCS", "2")
	before := runtime.GOMAXPROCS(0)
	a := Adapt()
	if got := gomaxprocs(); got != before {
		t.Errorf("pinned count changed to %d, want %d", got, before)
	}
	a.Stop()
}

// A window whose CPU figure is unknown, at either end, grows nothing: an
// unreadable figure is not a zero, and the window after it is not the
// process's whole lifetime.
func TestSizerSkipsUnknownWindows(t *testing.T) {
	type reading struct {
		cpu time.Duration
		ok  bool
	}
	t0 := time.Unix(1000, 0)
	busy := Window // one processor's worth of CPU per window
	for _, c := range []struct {
		name     string
		readings []reading
		want     int
	}{
		{"busy", []reading{{busy, true}}, 2},
		{"unknown end", []reading{{busy, false}}, 1},
		{"known after unknown", []reading{{0, false}, {10 * time.Second, true}}, 1},
		{"busy after unknown", []reading{{0, false}, {10 * time.Second, true}, {10*time.Second + busy, true}}, 2},
	} {
		s := sizer{n: 1, max: 4, cpu: 0, cpuOK: true, at: t0}
		for i, r := range c.readings {
			s.observe(r.cpu, r.ok, t0.Add(time.Duration(i+1)*Window))
		}
		if s.n != c.want {
			t.Errorf("%s: %d processors, want %d", c.name, s.n, c.want)
		}
	}
}

// A process whose CPU cannot be read keeps the runtime's count: it could
// never grow.
func TestAdaptUnknownCPU(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	orig := runtime.GOMAXPROCS(0)
	if orig < 2 {
		t.Skip("one CPU: nothing to size")
	}
	defer func(r func() (time.Duration, bool)) { readCPU = r }(readCPU)
	readCPU = func() (time.Duration, bool) { return 0, false }
	a := Adapt()
	got := gomaxprocs()
	a.Stop()
	if got != orig {
		t.Errorf("unknown CPU: started on %d processors, want the runtime's %d", got, orig)
	}
}

// gomaxprocs is the processor count now.
func gomaxprocs() int { return runtime.GOMAXPROCS(0) }
