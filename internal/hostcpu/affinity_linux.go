package hostcpu

import "golang.org/x/sys/unix"

// affinity is how many CPUs the process may run on (sched_getaffinity).
func affinity() (int, bool) {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil {
		return 0, false
	}
	n := set.Count()
	return n, n > 0
}
