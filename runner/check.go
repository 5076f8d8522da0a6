package runner

import (
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/workload"
)

// Check reads and checks p as a run of the CoreWorkload on another machine
// would in its prepare phase: the Client's properties (client.count and
// client.index among them), the measurements', the workload's and, when
// the binding is a db.Checker, the binding's, with the errors a run gives.
// It connects to nothing and looks at no file: output paths and the field
// length histogram are those of the machine the run will be on. ycsb kube
// checks each pod's configuration with it before printing the manifests.
//
// now is the time starttime must be ahead of.
func Check(p *props.Properties, d db.Driver, now time.Time) error {
	s, err := parseSettingsOn(p, false, now)
	if err != nil {
		return err
	}
	if _, err := measurement.ParseConfig(p); err != nil {
		return err
	}
	if _, err := p.Seconds("report.interval", 1, 0.01); err != nil {
		return err
	}
	if _, err := workload.ParseConfigFor(p, s.transactions, s.clients); err != nil {
		return err
	}
	return db.Check(d, p)
}
