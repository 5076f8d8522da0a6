package runner

import (
	"github.com/goycsb/ycsb/engine"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// coreWorkload is the CoreWorkload as an engine.Workload.
type coreWorkload struct{ *workload.CoreWorkload }

func (c coreWorkload) NewWorker(s *measurement.Session, seed uint64) engine.Transactor {
	return c.CoreWorkload.NewWorker(s, seed)
}
