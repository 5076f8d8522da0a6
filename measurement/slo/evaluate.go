package slo

import (
	"fmt"
	"math"
	"strconv"
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
	// Count is how many of op's operations the latency figures read
	// (All: every operation together).
	Count(op string) int64
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
	// it did not run, or no operation at all), or too few operations for
	// its percentile to mean anything (MinTailOps). It fails the run, as
	// an objective nobody could check is not met.
	NoData
)

func (v Verdict) String() string { return [...]string{"PASS", "FAIL", "NO DATA"}[v] }

// Result is an objective with what the run measured.
type Result struct {
	Objective
	Measured float64 // in the objective's unit (µs, fraction, ops/s); 0 with NoData
	Verdict  Verdict
	// Why says why a result is NoData: nothing measured, or too few
	// operations for the percentile.
	Why string
}

// MinTailOps is how many operations a percentile objective needs beyond
// its percentile: a pNN is judged on at least MinTailOps/(1−NN/100)
// operations (OpsForPercentile), else it is NoData. A p99 of 7 operations
// is their slowest, and one of 500 the fifth slowest: a figure a single
// stall decides, which says nothing of the percentile asked for. Ten is
// the same bar ycsb compare -gate sets for a gated percentile.
const MinTailOps = 10

// OpsForPercentile is the fewest operations that put MinTailOps beyond
// the percentile p (in (0, 100)): ⌈MinTailOps/(1−p/100)⌉; 20 for a p50,
// 1,000 for a p99, 10,000 for a p99.9.
func OpsForPercentile(p float64) int64 {
	x := MinTailOps * 100 / (100 - p)
	// 100−99.9 is 0.09999999999999432 in binary: without the slack
	// p99.9 would ask for 10,001.
	return int64(math.Ceil(x - x*1e-9))
}

// TooFewOps says why n operations are too few to judge the percentile p
// ("a p99 needs at least 1000 operations, 10 beyond it"); "" when they
// are enough.
func TooFewOps(n int64, p float64) string {
	need := OpsForPercentile(p)
	if n >= need {
		return ""
	}
	return fmt.Sprintf("a p%s needs at least %d operations, %d beyond it", strconv.FormatFloat(p, 'f', -1, 64), need, MinTailOps)
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
			} else if n > 0 {
				r.Why = "the report does not count failed operations"
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
				n := src.Count(name)
				if why := TooFewOps(n, o.Percentile); why != "" && n > 0 {
					ok = false
					r.Why = fmt.Sprintf("%s; %s", opsOf(n, name), why)
					break
				}
				v, ok = src.Percentile(name, o.Percentile)
			case Mean:
				v, ok = src.Mean(name)
			case Max:
				v, ok = src.Max(name)
			}
		}
		switch {
		case !ok || math.IsNaN(v):
			if r.Why == "" {
				r.Why = noneMeasured(o)
			}
		default:
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

// opsOf is "7 READ operations", or "7 operations" for All.
func opsOf(n int64, op string) string {
	if op == All {
		return fmt.Sprintf("%d operations", n)
	}
	return fmt.Sprintf("%d %s operations", n, op)
}

// noneMeasured is the Why of an objective the run measured nothing for.
func noneMeasured(o Objective) string {
	if o.Op == "" || o.Op == All {
		return "no operations measured"
	}
	return "no " + o.Op + " operations measured"
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
