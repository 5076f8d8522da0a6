package ycsb

import (
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

// TestBindingProps: the binding is told what the phase does, from the
// workload's properties, on a copy of the run's properties.
func TestBindingProps(t *testing.T) {
	for _, tc := range []struct {
		name                string
		set                 map[string]string
		reads, transactions string
	}{
		{"the defaults read", nil, "true", "false"},
		{"a run with scans only reads", map[string]string{"readproportion": "0", "updateproportion": "0.5", "scanproportion": "0.5"}, "true", "false"},
		{"a write-only run", map[string]string{"readproportion": "0", "updateproportion": "1"}, "false", "false"},
		{"a load", map[string]string{"dotransactions": "false"}, "false", "false"},
		{"the closed economy", map[string]string{"workload": "site.ycsb.workloads.ClosedEconomyWorkload"}, "true", "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := props.FromMap(tc.set)
			bp, err := bindingProps(p)
			if err != nil {
				t.Fatal(err)
			}
			reads, _ := bp.Get(db.PropPhaseReads)
			txns, _ := bp.Get(db.PropPhaseTransactions)
			if reads != tc.reads || txns != tc.transactions {
				t.Errorf("%s=%q, %s=%q; want %q, %q", db.PropPhaseReads, reads, db.PropPhaseTransactions, txns, tc.reads, tc.transactions)
			}
			if p.Has(db.PropPhaseReads) || p.Has(db.PropPhaseTransactions) {
				t.Errorf("the run's own properties changed: %v", p.Map())
			}
		})
	}
	if _, err := bindingProps(props.FromMap(map[string]string{"readproportion": "-1"})); err == nil {
		t.Error("a bad proportion: no error")
	}
}
