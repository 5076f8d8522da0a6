package clock

import (
	"sync/atomic"
	"time"
)

// A Timer puts one goroutine to sleep until a Now value, waking it as
// close to that time as the machine allows. It belongs to one goroutine
// (SleepUntil is not safe for concurrent use); Interrupt may be called from
// any goroutine.
//
// time.Sleep is not precise enough to pace a benchmark on Linux: when every
// processor of the runtime is idle, the thread that waits for the next
// timer does so in epoll_wait, whose timeout is in whole milliseconds
// (runtime/netpoll_epoll.go: a wait under 1 ms becomes 1 ms, a longer one
// is cut to whole milliseconds and then waited again), and the kernel adds
// the thread's timer slack (50 µs by default). A sleep of 300 µs wakes
// 500–1000 µs late. On Linux a Timer is a timerfd instead, which the kernel
// fires on a high-resolution timer without slack and the runtime's network
// poller sees at once; elsewhere it is time.Sleep. docs/results.md has the
// measurements.
type Timer struct {
	interrupted atomic.Bool
	sys         sysTimer
}

// NewTimer returns a Timer; Close releases it.
func NewTimer() *Timer {
	t := &Timer{}
	t.sys.init(&t.interrupted)
	return t
}

// SleepUntil sleeps until Now() >= due and returns true, or returns false
// as soon as the Timer is interrupted, at once if it already was.
func (t *Timer) SleepUntil(due int64) bool {
	for !t.interrupted.Load() {
		d := due - Now()
		if d <= 0 {
			return true
		}
		t.sys.sleep(time.Duration(d))
	}
	return false
}

// Interrupt wakes a SleepUntil under way and makes every later one return
// false at once.
func (t *Timer) Interrupt() {
	t.interrupted.Store(true)
	t.sys.wake()
}

// Interrupted says whether Interrupt was called.
func (t *Timer) Interrupted() bool { return t.interrupted.Load() }

// Close releases the Timer's resources; it must not be sleeping.
func (t *Timer) Close() { t.sys.close() }

// Precise says whether Timers wake on a high-resolution timer (a timerfd)
// rather than the runtime's sleep.
func Precise() bool { return precise }

// coarseTimer sleeps on the runtime's timers, where there is no timerfd
// (or none could be made), and wakes for an Interrupt.
type coarseTimer struct {
	t    *time.Timer
	stop chan struct{} // an Interrupt's word, kept until a sleep takes it
}

func (c *coarseTimer) init() {
	c.t = time.NewTimer(time.Hour)
	c.t.Stop()
	c.stop = make(chan struct{}, 1)
}

func (c *coarseTimer) sleep(d time.Duration) {
	c.t.Reset(d)
	select {
	case <-c.t.C:
	case <-c.stop:
		c.t.Stop()
	}
}

func (c *coarseTimer) wake() {
	select {
	case c.stop <- struct{}{}:
	default:
	}
}

func (c *coarseTimer) close() { c.t.Stop() }
