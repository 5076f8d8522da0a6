package slo

import (
	"errors"
	"fmt"
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
)

// Latency says which latency the objectives read.
type Latency uint8

const (
	// Service is each operation's time from its actual start: a run
	// without a target.
	Service Latency = iota
	// Intended is from each operation's intended start (measurement.interval
	// intended or both, with a target): a server that falls behind its
	// schedule cannot hide the queue.
	Intended
)

func (l Latency) String() string { return [...]string{"service", "intended"}[l] }

// alwaysLeftOut are the measurements that are never a database operation
// of their own: CLEANUP is a session's close; VERIFY and
// SCAN-LATENCY-PER-RECORD measure something else.
var alwaysLeftOut = []string{measurement.CleanupName, "VERIFY", "SCAN-LATENCY-PER-RECORD"}

// LeftOut says whether All leaves out operation's measurements, those that
// are not a database operation of their own: CLEANUP, VERIFY,
// SCAN-LATENCY-PER-RECORD, and the reference's READ-MODIFY-WRITE, whose
// read and update are measured as READ and UPDATE too. A read-modify-write
// run as one transaction (jdbc.rmwintxn, the closed economy's transfers)
// is an operation of its own, with statuses of its own and no READ or
// UPDATE: rmwOwn says the run's were (measurement.Snapshot.OwnRMW,
// jsonreport.Report.OwnRMW).
func LeftOut(operation string, rmwOwn bool) bool {
	if operation == measurement.ReadModifyWriteName {
		return !rmwOwn
	}
	return slices.Contains(alwaysLeftOut, operation)
}

// Sample is one measurement's histogram, as a report names it.
type Sample struct {
	Operation string // READ for READ, READ-FAILED and Intended-READ
	Intended  bool   // Intended-READ
	// LeftOut keeps it out of All (LeftOut).
	LeftOut bool
	Hist    *hdrhistogram.Histogram
}

// Figures is a Source over histograms: a run's, or a merged fleet's.
type Figures struct {
	ops     []string
	latency map[string]*hdrhistogram.Histogram // by operation, and All
	stats   map[string]*measurement.Stats
	n       int64
	failed  int64
	known   bool // failed is known
	perSec  float64
}

// NewFigures builds the figures of a run: its measurements' histograms
// (those of the latency l: with Intended, the Intended- measurements when
// there are any), its operation and failure counts (failedKnown false for
// a report that did not record them) and its throughput. An operation's
// latency counts its failures too: a timeout is the slowest answer, not
// one to leave out.
func NewFigures(samples []Sample, l Latency, ops, failed int64, failedKnown bool, perSec float64) (*Figures, error) {
	f := &Figures{latency: map[string]*hdrhistogram.Histogram{}, stats: map[string]*measurement.Stats{},
		n: ops, failed: failed, known: failedKnown, perSec: perSec}
	useIntended := false
	if l == Intended {
		for _, s := range samples {
			useIntended = useIntended || s.Intended
		}
	}
	var all *hdrhistogram.Histogram
	for _, s := range samples {
		if s.Intended != useIntended || s.Hist == nil || s.Hist.TotalCount() == 0 {
			continue
		}
		if err := addTo(f.latency, s.Operation, s.Hist); err != nil {
			return nil, err
		}
		if !slices.Contains(f.ops, s.Operation) {
			f.ops = append(f.ops, s.Operation)
		}
		if s.LeftOut {
			continue
		}
		if all == nil {
			all = hdrhistogram.New(s.Hist.LowestTrackableValue(), s.Hist.HighestTrackableValue(), int(s.Hist.SignificantFigures()))
		}
		if dropped := all.Merge(s.Hist); dropped > 0 {
			return nil, fmt.Errorf("slo: %d latencies of %s out of range of the others", dropped, s.Operation)
		}
	}
	if all != nil {
		f.latency[All] = all
	}
	return f, nil
}

func addTo(m map[string]*hdrhistogram.Histogram, op string, h *hdrhistogram.Histogram) error {
	cur := m[op]
	if cur == nil {
		m[op] = hdrhistogram.Import(h.Export())
		return nil
	}
	if dropped := cur.Merge(h); dropped > 0 {
		return errors.New("slo: latencies of " + op + " out of range of the others")
	}
	return nil
}

func (f *Figures) stat(op string) (*measurement.Stats, bool) {
	if st, ok := f.stats[op]; ok {
		return st, true
	}
	h := f.latency[op]
	if h == nil || h.TotalCount() == 0 {
		return nil, false
	}
	st := measurement.StatsOf(h)
	f.stats[op] = &st
	return &st, true
}

func (f *Figures) Ops() []string { return f.ops }

func (f *Figures) Percentile(op string, p float64) (float64, bool) {
	st, ok := f.stat(op)
	if !ok {
		return 0, false
	}
	return float64(st.Percentile(p)), true
}

func (f *Figures) Mean(op string) (float64, bool) {
	st, ok := f.stat(op)
	if !ok {
		return 0, false
	}
	return st.Mean, true
}

func (f *Figures) Max(op string) (float64, bool) {
	st, ok := f.stat(op)
	if !ok {
		return 0, false
	}
	return float64(st.Max), true
}

func (f *Figures) Count(op string) int64 {
	if h := f.latency[op]; h != nil {
		return h.TotalCount()
	}
	return 0
}

func (f *Figures) Operations() int64 { return f.n }

// Errors is the failed operations, or -1 when the report did not record
// them.
func (f *Figures) Errors() int64 {
	if !f.known {
		return -1
	}
	return f.failed
}

func (f *Figures) Throughput() float64 { return f.perSec }
