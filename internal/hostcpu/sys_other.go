//go:build !unix

package hostcpu

import "time"

// ProcessCPU is unknown here: no getrusage.
func ProcessCPU() (time.Duration, bool) { return 0, false }
