//go:build !linux

package stress

// physicalMemory is the machine's memory in bytes, 0 if not known (here:
// the memory check is left to the Go memory limit, GOMEMLIMIT).
func physicalMemory() int64 { return 0 }
