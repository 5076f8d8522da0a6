//go:build !amd64

package clock

func rdtsc() uint64 { return 0 }

func hasInvariantTSC() bool { return false }
