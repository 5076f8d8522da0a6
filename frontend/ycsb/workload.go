package ycsb

import (
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/session"
	"github.com/goycsb/ycsb/workload"
)

// runWorkload is the workload property's workload as an run.Workload.
type runWorkload struct{ workload.Workload }

func (w runWorkload) NewWorker(s *session.Session, seed uint64) run.Transactor {
	return w.NewTransactor(s, seed)
}

// validator is the workload's check after the run (the closed economy's);
// nil when it has none.
func (w runWorkload) validator() workload.Validator {
	v, _ := w.Workload.(workload.Validator)
	return v
}
