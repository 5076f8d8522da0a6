package clock

import (
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// precise is false where no timerfd could be made (a seccomp profile that
// forbids it); every Timer then sleeps with time.Sleep.
var precise = probeTimerfd()

func probeTimerfd() bool {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

// sysTimer is a non-blocking timerfd registered with the runtime's network
// poller: a goroutine that waits for it to become readable is parked
// without a thread, and woken by the poller when the timer fires. Its
// expirations are never read: arming it again resets their count.
type sysTimer struct {
	coarse coarseTimer // where no timerfd could be made
	fd     int
	file   *os.File
	conn   syscall.RawConn
	armed  bool               // the wait has armed the timer
	d      time.Duration      // the wait's length
	err    error              // the wait's arming
	ready  func(uintptr) bool // conn.Read's callback, made once
	// interrupted is the Timer's: an Interrupt that came before the
	// arming replaced its own 1 ns timer ends the wait all the same.
	interrupted *atomic.Bool
}

func (s *sysTimer) init(interrupted *atomic.Bool) {
	s.interrupted = interrupted
	s.coarse.init()
	s.fd = -1
	if !precise {
		return
	}
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return // out of descriptors: this Timer sleeps as the runtime does
	}
	f := os.NewFile(uintptr(fd), "timerfd")
	conn, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return
	}
	s.fd, s.file, s.conn = fd, f, conn
	// conn.Read forgets any readiness the poller saw before it (the
	// runtime resets it), then calls ready, waits for the poller's word
	// that the fd is readable when ready returns false, and calls it
	// again. So the timer is armed in the first call, after the reset:
	// armed any earlier, a short timer could fire before it and its only
	// event be forgotten. The second call ends the wait without a system
	// call. A stale readiness (an Interrupt's) ends a wait early, and
	// SleepUntil's loop arms again.
	s.ready = func(uintptr) bool {
		if s.armed {
			return true
		}
		s.armed = true
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(s.d))}
		if s.err = unix.TimerfdSettime(s.fd, 0, &spec, nil); s.err != nil {
			return true
		}
		return s.interrupted.Load()
	}
}

func (s *sysTimer) sleep(d time.Duration) {
	if s.file == nil {
		s.coarse.sleep(d)
		return
	}
	s.d, s.armed, s.err = d, false, nil
	if err := s.conn.Read(s.ready); err != nil || s.err != nil {
		s.coarse.sleep(d) // closed, or the timer refused: never in a correct program
	}
}

// wake fires the timer now: 1 ns is the shortest time that arms it.
func (s *sysTimer) wake() {
	s.coarse.wake()
	if s.file == nil {
		return
	}
	spec := unix.ItimerSpec{Value: unix.Timespec{Nsec: 1}}
	_ = unix.TimerfdSettime(s.fd, 0, &spec, nil)
}

func (s *sysTimer) close() {
	s.coarse.close()
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}

// forceCoarse makes s sleep as where no timerfd could be made (tests).
func (s *sysTimer) forceCoarse() {
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}
