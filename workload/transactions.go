package workload

import (
	"strings"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

// ClosedEconomyClasses are the names of the YCSB+T closed-economy
// workload, whose transfers need Transactional sessions: the forks' class
// names (akon-dey/YCSB's ClosedEconomyWorkload.java), and ours.
var ClosedEconomyClasses = []string{
	"site.ycsb.workloads.ClosedEconomyWorkload",
	"com.yahoo.ycsb.workloads.ClosedEconomyWorkload",
	"closedeconomy",
}

// RunsTransactions says whether p's workload is the closed economy, whose
// transfers are transactions of the binding's. The front end tells the
// binding (db.PropPhaseTransactions).
func RunsTransactions(p *props.Properties) bool {
	wl := workloadClass(p)
	for _, c := range ClosedEconomyClasses {
		if wl == c {
			return true
		}
	}
	return false
}

// CheckTransactions says whether the binding d, registered as name, runs
// transactions with p (TxnDriver); nil when it does. The error names the
// binding, and the bindings that have them.
func CheckTransactions(d db.Driver, name string, p *props.Properties) error {
	if t, ok := d.(db.TxnDriver); ok {
		return t.Transactions(p)
	}
	wl := workloadClass(p)
	var have []string
	for _, n := range db.Drivers() {
		if e, _, err := db.Lookup(n); err == nil {
			if _, ok := e.(db.TxnDriver); ok {
				have = append(have, n)
			}
		}
	}
	return props.Errorf("workload", "%s runs each transfer in a transaction, and binding %s has none (bindings with transactions: %s)", wl, name, strings.Join(have, ", "))
}

// workloadClass is the workload property, without the note Word makes of
// surrounding spaces (the front end's reading makes it).
func workloadClass(p *props.Properties) string {
	v, _ := p.Get("workload")
	return strings.TrimSpace(v)
}
