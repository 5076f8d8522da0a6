package stress

import (
	"strings"

	"github.com/goycsb/ycsb/measurement"
)

// userSlots are the runner's measurement slots the ops of ops(...) are
// recorded under, in their order: every one but CLEANUP, which the runner
// records itself as it closes its sessions.
var userSlots = func() []measurement.Op {
	var s []measurement.Op
	for o := measurement.Op(0); o < measurement.NumOps; o++ {
		if o != measurement.Cleanup {
			s = append(s, o)
		}
	}
	return s
}()

// userReportNames are the names the runner gives the slots of user's ops
// (READ, READ-FAILED, Intended-READ, ...) with, in place of the slot's, the
// op's name as typed in ops(...), as the original's Timer names it and as
// the interval lines and the Results block show it.
func userReportNames(ops []*userOp) map[string]string {
	names := map[string]string{}
	for _, o := range ops {
		slot := o.slot.String()
		for k := 0; k < measurement.NumKinds; k++ {
			n := measurement.Name(o.slot, measurement.Kind(k))
			op := o.name + strings.TrimPrefix(n, slot)
			names[n] = op
			names["Intended-"+n] = "Intended-" + op
		}
	}
	return names
}
