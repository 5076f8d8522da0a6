package stress

import (
	"strings"
	"sync"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/lazyhdr"
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

// userWaits are a user run's wait times (intended start to start) by op,
// for -log hdrfile= under a rate (track): the runner records service and
// response times only.
type userWaits struct {
	track   bool
	mu      sync.Mutex
	workers []*workerWaits
}

// workerWaits are one worker's wait times by slot.
type workerWaits struct {
	mu    sync.Mutex
	hists [measurement.NumOps]*lazyhdr.Histogram
}

// newWorker is a new worker's histograms for ops, nil when waits are not
// tracked.
func (u *userWaits) newWorker(ops []*userOp) *workerWaits {
	if !u.track {
		return nil
	}
	ww := &workerWaits{}
	for _, o := range ops {
		ww.hists[o.slot] = lazyhdr.New(1, histMaxUs, 3)
	}
	u.mu.Lock()
	u.workers = append(u.workers, ww)
	u.mu.Unlock()
	return ww
}

// record files the wait of the operation in slot that started at start
// (a Now value), when the runner gave it an intended start.
func (ww *workerWaits) record(s *measurement.Session, slot measurement.Op, start int64) {
	if ww == nil {
		return
	}
	in := s.Intended()
	if in == 0 {
		return
	}
	ww.mu.Lock()
	ww.hists[slot].RecordValue(max(0, start-in) / 1000)
	ww.mu.Unlock()
}

// harvest adds every worker's wait times since the last call to into, by
// slot, and clears them.
func (u *userWaits) harvest(into *[measurement.NumOps]*hdrhistogram.Histogram) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, ww := range u.workers {
		ww.mu.Lock()
		for slot, h := range ww.hists {
			if h != nil && into[slot] != nil && h.TotalCount() > 0 {
				h.MergeInto(into[slot])
				h.Reset()
			}
		}
		ww.mu.Unlock()
	}
}
