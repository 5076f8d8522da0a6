package results

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
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
	// AllOps, or "" for the overall throughput.
	Op         string
	Stat       GateStat
	Percentile float64 // of GatePercentile, in (0, 100)
	// Tolerance is a fraction: B's latency may be up to A's·(1+Tolerance),
	// B's throughput down to A's·(1−Tolerance).
	Tolerance float64
}

// AllOps is the operation name of every operation together.
const AllOps = "ALL"

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
	var out []Gate
	for _, item := range strings.Split(s, ",") {
		text := strings.Join(strings.Fields(item), "")
		if text == "" {
			return nil, fmt.Errorf("%q: an empty gate between commas", s)
		}
		if len(out) == MaxGates {
			return nil, fmt.Errorf("more than %d gates", MaxGates)
		}
		g, err := parseGate(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", text, err)
		}
		out = append(out, g)
	}
	return out, nil
}

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
		dot := strings.Index(subject, ".")
		// An operation name may hold dots; the statistic follows the
		// first dot that is followed by one (READ.p99.9).
		for j := 0; j < len(subject); j++ {
			if subject[j] == '.' && isGateStat(subject[j+1:]) {
				dot = j
				break
			}
		}
		if dot <= 0 || dot == len(subject)-1 {
			return g, errors.New("want OPERATION.STATISTIC (READ.p99, ALL.mean, READ.throughput) or throughput before the colon")
		}
		g.Op = subject[:dot]
		if len(g.Op) > maxGateOpLen {
			return g, fmt.Errorf("operation name longer than %d characters", maxGateOpLen)
		}
		if strings.EqualFold(g.Op, AllOps) {
			g.Op = AllOps
		}
		stat := strings.ToLower(subject[dot+1:])
		switch {
		case stat == "throughput":
			if g.Op == AllOps {
				return g, errors.New("the throughput of all operations is written throughput:-N%")
			}
			g.Stat = GateThroughput
		case stat == "mean" || stat == "avg":
			g.Stat = GateMean
		case stat == "max":
			return g, errors.New("the maximum is one sample of each run, which no test can judge; gate a high percentile instead (p99.9)")
		case strings.HasPrefix(stat, "p"):
			p, err := strconv.ParseFloat(stat[1:], 64)
			if err != nil || !(p > 0 && p < 100) {
				return g, fmt.Errorf("percentile %q: want p followed by a number above 0 and below 100 (p50, p99, p99.9)", stat)
			}
			g.Stat, g.Percentile = GatePercentile, p
		default:
			return g, fmt.Errorf("statistic %q: want pNN, mean or throughput", stat)
		}
	}
	v, err := parseTolerance(g.Stat, tol)
	if err != nil {
		return g, err
	}
	g.Tolerance = v
	return g, nil
}

func isGateStat(s string) bool {
	s = strings.ToLower(s)
	switch s {
	case "max", "mean", "avg", "throughput":
		return true
	}
	if len(s) < 2 || s[0] != 'p' {
		return false
	}
	_, err := strconv.ParseFloat(s[1:], 64)
	return err == nil
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
