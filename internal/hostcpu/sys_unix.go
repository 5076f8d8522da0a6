//go:build unix

package hostcpu

import (
	"time"

	"golang.org/x/sys/unix"
)

// ProcessCPU is the process's user and system CPU time so far, all its
// threads; false when it cannot be read.
func ProcessCPU() (time.Duration, bool) {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
