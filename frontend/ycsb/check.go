package ycsb

import (
	"strconv"
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
// binding is d's name as given; now is the time starttime must be ahead of.
func Check(p *props.Properties, d db.Driver, binding string, now time.Time) error {
	s, err := parseSettingsOn(p, false, now)
	if err != nil {
		return err
	}
	if err := checkEmbeddedFleet(s.clients, binding); err != nil {
		return err
	}
	if _, err := measurement.ParseConfig(p); err != nil {
		return err
	}
	if _, err := p.Seconds("report.interval", 1, 0.01); err != nil {
		return err
	}
	wcfg, err := workload.ParseConfigFor(p, s.transactions, s.clients)
	if err != nil {
		return err
	}
	bp, err := bindingProps(p)
	if err != nil {
		return err
	}
	if err := checkTransactions(wcfg, d, binding, bp); err != nil {
		return err
	}
	return db.Check(d, bp)
}

// checkTransactions refuses the closed economy on a binding whose sessions
// would run no transactions, before anything is opened: its transfers
// would otherwise all fail, or worse, run one statement at a time.
func checkTransactions(wcfg *workload.Config, d db.Driver, binding string, p *props.Properties) error {
	if wcfg.Economy == nil {
		return nil
	}
	return workload.CheckTransactions(d, binding, p)
}

// bindingProps is p as the binding reads it: a copy with what the phase
// does (db.PropPhaseReads, db.PropPhaseTransactions), which the binding
// contract cannot read from the workload's properties.
func bindingProps(p *props.Properties) (*props.Properties, error) {
	reads, err := workload.PhaseReads(p)
	if err != nil {
		return nil, err
	}
	bp := p.Clone()
	bp.Set(db.PropPhaseReads, strconv.FormatBool(reads))
	bp.Set(db.PropPhaseTransactions, strconv.FormatBool(workload.RunsTransactions(p)))
	return bp, nil
}
