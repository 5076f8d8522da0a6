package clock

func rdtsc() uint64

// hasInvariantTSC reports CPUID.80000007H:EDX[8]: the TSC ticks at a
// constant rate in every power state.
func hasInvariantTSC() bool {
	maxExt, _, _, _ := cpuid(0x80000000, 0)
	if maxExt < 0x80000007 {
		return false
	}
	_, _, _, edx := cpuid(0x80000007, 0)
	return edx&(1<<8) != 0
}

func cpuid(eax, ecx uint32) (a, b, c, d uint32)
