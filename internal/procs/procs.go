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

	"github.com/goycsb/ycsb/internal/hostcpu"
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

// readCPU is the process's CPU so far; a test replaces it.
var readCPU = hostcpu.ProcessCPU

// Adapt starts on one processor and adds one, up to the runtime's own
// count (the machine's or the cgroup's CPUs), each Window the process
// kept those it has Busy. It does nothing when the count was pinned
// (Pinned) or is already one, or when the process's CPU cannot be read
// (a platform without getrusage): it could never grow.
func Adapt() *Adapter {
	a := &Adapter{stop: make(chan struct{}), done: make(chan struct{})}
	a.orig = runtime.GOMAXPROCS(0)
	cpu, ok := readCPU()
	if Pinned() || a.orig <= 1 || !ok {
		close(a.done)
		return a
	}
	runtime.GOMAXPROCS(1)
	go a.loop(sizer{n: 1, max: a.orig, cpu: cpu, cpuOK: true, at: time.Now()})
	return a
}

func (a *Adapter) loop(s sizer) {
	defer close(a.done)
	t := time.NewTicker(Window)
	defer t.Stop()
	for s.n < s.max {
		select {
		case <-a.stop:
			return
		case now := <-t.C:
			n := s.n
			cpu, ok := readCPU()
			if s.observe(cpu, ok, now); s.n != n {
				runtime.GOMAXPROCS(s.n)
			}
		}
	}
}

// sizer is the processor count n (at most max) and the process's CPU at
// the start of the current window.
type sizer struct {
	n, max int
	cpu    time.Duration
	cpuOK  bool
	at     time.Time
}

// observe ends the window at at, when the process had used cpu (ok false:
// unknown), and starts the next. A window whose CPU is unknown at either
// end grows nothing: an unread figure is not a zero.
func (s *sizer) observe(cpu time.Duration, ok bool, at time.Time) {
	if ok && s.cpuOK {
		s.n = Next(s.n, s.max, cpu-s.cpu, at.Sub(s.at))
	}
	s.cpu, s.cpuOK, s.at = cpu, ok, at
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
