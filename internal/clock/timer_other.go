//go:build !linux

package clock

import "sync/atomic"

const precise = false

// sysTimer is the runtime's timer where there is no timerfd.
type sysTimer struct{ coarseTimer }

func (s *sysTimer) init(*atomic.Bool) { s.coarseTimer.init() }

func (*sysTimer) forceCoarse() {}
