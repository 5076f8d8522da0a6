//go:build unix

package hostcpu

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU is the process's user and system CPU time, all its threads.
func processCPU() (time.Duration, bool) {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
