package slo

import (
	"math"
	"strings"
)

// Source is a run's figures, over its measured window. Latencies are in
// microseconds; an operation the run did not measure reports ok false.
type Source interface {
	// Ops are the operations the run measured, by name.
	Ops() []string
	// Percentile, Mean and Max are op's latency figures; All stands for
	// every operation together (merged histograms).
	Percentile(op string, p float64) (us float64, ok bool)
	Mean(op string) (us float64, ok bool)
	Max(op string) (us float64, ok bool)
	// Operations and Errors count every operation and the failed ones
	// (Errors is negative when unknown); Throughput is operations per
	// second.
	Operations() int64
	Errors() int64
	Throughput() float64
}

// Verdict is an objective's outcome.
type Verdict uint8

const (
	Pass Verdict = iota
	Fail
	// NoData: the run measured nothing the objective reads (an operation
	// it did not run, or no operation at all). It fails the run, as an
	// objective nobody could check is not met.
	NoData
)

func (v Verdict) String() string { return [...]string{"PASS", "FAIL", "NO DATA"}[v] }

// Result is an objective with what the run measured.
type Result struct {
	Objective
	Measured float64 // in the objective's unit (µs, fraction, ops/s)
	Verdict  Verdict
}

// Evaluate judges every objective against src.
func Evaluate(objs []Objective, src Source) []Result {
	out := make([]Result, 0, len(objs))
	ops := src.Ops()
	for _, o := range objs {
		r := Result{Objective: o, Verdict: NoData}
		var v float64
		ok := true
		switch o.Stat {
		case ErrorRate:
			n := src.Operations()
			e := src.Errors()
			if ok = n > 0 && e >= 0; ok {
				v = float64(e) / float64(n)
			}
		case Throughput:
			v, ok = src.Throughput(), src.Operations() > 0
		default:
			name, found := match(o.Op, ops)
			if !found {
				ok = false
				break
			}
			switch o.Stat {
			case Percentile:
				v, ok = src.Percentile(name, o.Percentile)
			case Mean:
				v, ok = src.Mean(name)
			case Max:
				v, ok = src.Max(name)
			}
		}
		if ok && !math.IsNaN(v) {
			r.Measured = v
			r.Verdict = Fail
			if meets(o.Cmp, v, o.Limit) {
				r.Verdict = Pass
			}
		}
		out = append(out, r)
	}
	return out
}

// match finds op among the run's operations, case aside; All is always
// there.
func match(op string, ops []string) (string, bool) {
	if op == All {
		return All, true
	}
	for _, n := range ops {
		if strings.EqualFold(n, op) {
			return n, true
		}
	}
	return "", false
}

func meets(c Cmp, v, limit float64) bool {
	switch c {
	case AtMost:
		return v <= limit
	case Below:
		return v < limit
	case AtLeast:
		return v >= limit
	default:
		return v > limit
	}
}

// Passed says whether every result passed.
func Passed(rs []Result) bool {
	for _, r := range rs {
		if r.Verdict != Pass {
			return false
		}
	}
	return true
}
