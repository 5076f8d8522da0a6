//go:build !linux

package hostcpu

import "runtime"

// affinity is the CPUs the runtime found: the platform has no affinity
// call of Linux's kind.
func affinity() (int, bool) { return runtime.NumCPU(), true }
