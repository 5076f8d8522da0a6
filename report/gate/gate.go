// Package gate is the regression gates of ycsb compare -gate: parsing a
// gate list ("READ.p99:+10%, throughput:-5%"), judging each gate of two
// JSON reports (a circular block bootstrap for latency, Welch's test for
// throughput, with report/merge's comparison) and writing the verdicts.
package gate

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/measurement/slo"
)

// GateStat is what a regression gate compares.
type GateStat uint8

const (
	GatePercentile GateStat = iota // a latency percentile
	GateMean                       // the mean latency
	GateThroughput                 // operations per second
)

// Gate is one regression tolerance of ycsb compare -gate: how much worse
// B may be than A.
type Gate struct {
	Text string // as written, spaces removed
	// Op is the operation as written (matched without regard to case),
	// slo.All, or "" for the overall throughput.
	Op         string
	Stat       GateStat
	Percentile float64 // of GatePercentile, in (0, 100)
	// Tolerance is a fraction: B's latency may be up to A's·(1+Tolerance),
	// B's throughput down to A's·(1−Tolerance).
	Tolerance float64
}

// Bounds of a gate list.
const (
	MaxGates             = 256
	MaxLatencyTolerance  = 1000 // percent
	MaxThroughputPercent = 100  // percent, exclusive: B may not be allowed to stop
	maxGateOpLen         = 100
)

// ParseGates reads a comma-separated list of gates
// ("READ.p99:+10%, throughput:-5%"). An error names the gate as written.
func ParseGates(s string) ([]Gate, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("no gate (e.g. READ.p99:+10%, throughput:-5%)")
	}
	return slo.ParseItems(s, "gate", MaxGates, parseGate)
}

// parseGate reads one gate. Its subject is an objective's
// (slo.SplitSubject), with a statistic of its own, an operation's
// throughput, and without the maximum.
func parseGate(text string) (Gate, error) {
	g := Gate{Text: text}
	i := strings.LastIndex(text, ":")
	if i <= 0 {
		return g, errors.New("want OPERATION.STATISTIC:+N% (READ.p99:+10%) or throughput:-N%")
	}
	subject, tol := text[:i], text[i+1:]
	if strings.EqualFold(subject, "throughput") {
		g.Stat = GateThroughput
	} else {
		op, stat, ok := slo.SplitSubject(subject)
		if !ok {
			return g, errors.New("want OPERATION.STATISTIC (READ.p99, ALL.mean, READ.throughput) or throughput before the colon")
		}
		if len(op) > maxGateOpLen {
			return g, fmt.Errorf("operation name longer than %d characters", maxGateOpLen)
		}
		g.Op = op
		if stat == "throughput" {
			if g.Op == slo.All {
				return g, errors.New("the throughput of all operations is written throughput:-N%")
			}
			g.Stat = GateThroughput
		} else {
			st, p, ok, err := slo.ParseStat(stat)
			switch {
			case err != nil:
				return g, err
			case !ok:
				return g, fmt.Errorf("statistic %q: want pNN, mean or throughput", stat)
			case st == slo.Max:
				return g, errors.New("the maximum is one sample of each run, which no test can judge; gate a high percentile instead (p99.9)")
			case st == slo.Mean:
				g.Stat = GateMean
			default:
				g.Stat, g.Percentile = GatePercentile, p
			}
		}
	}
	v, err := parseTolerance(g.Stat, tol)
	if err != nil {
		return g, err
	}
	g.Tolerance = v
	return g, nil
}

// parseTolerance reads "+10%" for a latency, "-5%" for a throughput, into
// a fraction.
func parseTolerance(stat GateStat, s string) (float64, error) {
	want, limit, what := "+", float64(MaxLatencyTolerance), "a latency tolerance is +N% (B may be up to N% slower)"
	if stat == GateThroughput {
		want, limit, what = "-", MaxThroughputPercent, "a throughput tolerance is -N% (B may be up to N% lower)"
	}
	num, pct := strings.CutSuffix(s, "%")
	if !pct || num == "" || (num[0] != '+' && num[0] != '-') {
		return 0, fmt.Errorf("tolerance %q: %s", s, what)
	}
	if num[:1] != want {
		// -0% and +0% mean the same; any other wrong sign is a mistake.
		if v, err := strconv.ParseFloat(num[1:], 64); err != nil || v != 0 {
			return 0, fmt.Errorf("tolerance %q: %s", s, what)
		}
	}
	v, err := strconv.ParseFloat(num[1:], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || num[1] == '+' || num[1] == '-' {
		return 0, fmt.Errorf("tolerance %q: want a number of percent", s)
	}
	if v < 0 || v > limit || (stat == GateThroughput && v == limit) {
		if stat == GateThroughput {
			return 0, fmt.Errorf("tolerance %q: want from -0%% to below -%d%%", s, MaxThroughputPercent)
		}
		return 0, fmt.Errorf("tolerance %q: want from +0%% to +%d%%", s, MaxLatencyTolerance)
	}
	return v / 100, nil
}
