// Package procs sizes the Go runtime's processor count (GOMAXPROCS) to a
// client whose workers mostly wait on a server. Such a client does a few
// microseconds of work per operation between long waits; with more
// processors than its load needs, every hand-over between goroutines
// (a response read, a worker woken) wakes an idle processor's thread,
// and that wake-up costs more than the work: measured on the
// cassandra-cql binding, 16 requests in flight, one processor spends
// about 30% less CPU per operation than two, at a higher rate. So such
// a run starts on one processor and gets another each time the process
// kept those it has busy; an event-loop client (latte, one runtime
// thread by default) makes the same choice.
package procs

import (
	"os"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Window is how often the load is looked at.
const Window = 100 * time.Millisecond

// Busy is the share of its processors' time the process must have used
// over a window (user and system CPU, all its threads) for one more.
const Busy = 0.85

// Next is the processor count after a window in which the process used
// cpu of wall time on n processors, at most max.
func Next(n, max int, cpu, wall time.Duration) int {
	if n >= max || wall <= 0 {
		return n
	}
	if float64(cpu) >= Busy*float64(n)*float64(wall) {
		return n + 1
	}
	return n
}

// Pinned says the user set GOMAXPROCS: the runtime's count is theirs.
func Pinned() bool { return os.Getenv("GOMAXPROCS") != "" }

// Adapter runs the sizing until Stop.
type Adapter struct {
	stop, done chan struct{}
	orig       int
	once       sync.Once
}

// Adapt starts on one processor and adds one, up to the runtime's own
// count (the machine's or the cgroup's CPUs), each Window the process
// kept those it has Busy. It does nothing when the count was pinned
// (Pinned) or is already one.
func Adapt() *Adapter {
	a := &Adapter{stop: make(chan struct{}), done: make(chan struct{})}
	a.orig = runtime.GOMAXPROCS(0)
	if Pinned() || a.orig <= 1 {
		close(a.done)
		return a
	}
	runtime.GOMAXPROCS(1)
	go a.loop()
	return a
}

func (a *Adapter) loop() {
	defer close(a.done)
	n := 1
	t := time.NewTicker(Window)
	defer t.Stop()
	lastCPU, lastWall := cpuTime(), time.Now()
	for n < a.orig {
		select {
		case <-a.stop:
			return
		case now := <-t.C:
			cpu := cpuTime()
			if m := Next(n, a.orig, cpu-lastCPU, now.Sub(lastWall)); m != n {
				n = m
				runtime.GOMAXPROCS(n)
			}
			lastCPU, lastWall = cpu, now
		}
	}
}

// Stop ends the sizing and gives the runtime its own count back.
func (a *Adapter) Stop() {
	a.once.Do(func() {
		close(a.stop)
		<-a.done
		if !Pinned() && a.orig > 1 {
			runtime.GOMAXPROCS(a.orig)
		}
	})
}

// Procs is the processor count now.
func Procs() int { return runtime.GOMAXPROCS(0) }

// cpuTime is the process's user and system CPU so far.
func cpuTime() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
