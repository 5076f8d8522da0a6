package db

import "github.com/goycsb/ycsb/props"

// Properties the front end sets, on the copy of the run's properties it
// opens (or checks) the binding with, for a binding that refuses a setting
// only for some runs: the binding contract knows no workload, so the front
// end, which does, says what the phase does. Absent (a binding opened by
// ycsb shell or by a program of its own) a phase reads and runs no
// transactions.
const (
	// PropPhaseReads is "true" when the phase reads: a run whose operation
	// mix reads, scans or read-modify-writes (workload.PhaseReads).
	PropPhaseReads = "phase.reads"
	// PropPhaseTransactions is "true" when the workload is the closed
	// economy, whose transfers are the binding's transactions
	// (workload.RunsTransactions).
	PropPhaseTransactions = "phase.transactions"
)

// PhaseReads reports whether the front end says that the phase of p reads
// (PropPhaseReads; true when it says nothing).
func PhaseReads(p *props.Properties) (bool, error) {
	return p.Bool(PropPhaseReads, true)
}
