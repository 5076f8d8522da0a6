package workload

import (
	"math"

	"github.com/goycsb/ycsb/props"
)

// Mix is the run phase's operation proportions, the CoreWorkload's
// (CoreWorkload.java at 0.17.0), indexed by the Mix kinds below. The
// workload draws its operations from it, and the front end tells the
// binding whether the phase reads (PhaseReads, db.PropPhaseReads).
type Mix [5]float64

// The operation kinds of a Mix, in the reference's order.
const (
	MixRead = iota
	MixUpdate
	MixInsert
	MixScan
	MixReadModifyWrite
)

// mixProperties are the proportions' properties, by kind; mixDefaults
// their defaults.
var (
	mixProperties = [5]string{"readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion"}
	mixDefaults   = Mix{0.95, 0.05, 0, 0, 0}
)

// ReadMix reads the proportions from r, each at least 0, their sum finite;
// errors go to r.
func ReadMix(r *props.Reader) Mix {
	var m Mix
	total := 0.0
	for op, name := range mixProperties {
		m[op] = r.Float64(name, mixDefaults[op], props.Range("a proportion of at least 0", func(f float64) bool { return f >= 0 }))
		total += m[op]
		if math.IsInf(total, 1) && r.Err() == nil {
			// The generator would drop the proportion that overflowed.
			r.Errorf(name, "the operation proportions add up to more than %g: give them in smaller numbers", math.MaxFloat64)
		}
	}
	return m
}

// Reads reports whether the mix reads: reads, scans or read-modify-writes.
func (m *Mix) Reads() bool { return m[MixRead] > 0 || m[MixScan] > 0 || m[MixReadModifyWrite] > 0 }

// PhaseReads reports whether the phase p describes reads: a run
// (dotransactions, default true) whose mix reads. A load never reads. The
// front end tells the binding (db.PropPhaseReads), for bindings that refuse
// a setting only for reads.
func PhaseReads(p *props.Properties) (bool, error) {
	r := props.NewReader(p)
	if !r.Bool("dotransactions", true) {
		return false, r.Err()
	}
	m := ReadMix(r)
	return m.Reads(), r.Err()
}
