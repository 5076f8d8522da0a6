// Package slo reads service level objectives as a user writes them
// ("READ.p99<=5ms, ALL.max<=1s, errors<=0.1%, throughput>=10000") and
// judges a run's figures against them. It knows no run: a front end gives
// it the figures through Source.
package slo

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Stat is what an objective bounds.
type Stat uint8

const (
	Percentile Stat = iota // a latency percentile of one operation (or ALL)
	Mean                   // the mean latency
	Max                    // the largest latency
	ErrorRate              // failed operations over all operations
	Throughput             // operations per second
)

// Cmp is an objective's comparison.
type Cmp uint8

const (
	AtMost  Cmp = iota // <=
	Below              // <
	AtLeast            // >=
	Above              // >
)

func (c Cmp) String() string { return [...]string{"<=", "<", ">=", ">"}[c] }

// All is the operation name that stands for every operation of the run.
const All = "ALL"

// Objective is one threshold.
type Objective struct {
	Text string // as written, spaces removed
	// Op is the operation (as written; matched without regard to case),
	// All, or "" for ErrorRate and Throughput.
	Op         string
	Stat       Stat
	Percentile float64 // of Percentile, in (0, 100)
	Cmp        Cmp
	// Limit is in microseconds for latencies, a fraction (0..1) for
	// ErrorRate, operations per second for Throughput.
	Limit float64
}

// MaxLatency bounds a latency limit: a run measures up to an hour.
const MaxLatency = time.Hour

// MaxObjectives bounds a list.
const MaxObjectives = 256

// Parse reads a comma-separated list of objectives. The error names the
// objective as written.
func Parse(s string) ([]Objective, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("no objective (e.g. READ.p99<=5ms, errors<=0.1%, throughput>=1000)")
	}
	var out []Objective
	for _, item := range strings.Split(s, ",") {
		text := strings.Join(strings.Fields(item), "")
		if text == "" {
			return nil, fmt.Errorf("%q: an empty objective between commas", s)
		}
		if len(out) == MaxObjectives {
			return nil, fmt.Errorf("more than %d objectives", MaxObjectives)
		}
		o, err := parseOne(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", text, err)
		}
		out = append(out, o)
	}
	return out, nil
}

func parseOne(text string) (Objective, error) {
	o := Objective{Text: text}
	i := strings.IndexAny(text, "<>")
	if i <= 0 {
		return o, errors.New("want SUBJECT<=VALUE (or <, >=, >)")
	}
	subject, rest := text[:i], text[i:]
	switch {
	case strings.HasPrefix(rest, "<="):
		o.Cmp, rest = AtMost, rest[2:]
	case strings.HasPrefix(rest, ">="):
		o.Cmp, rest = AtLeast, rest[2:]
	case rest[0] == '<':
		o.Cmp, rest = Below, rest[1:]
	default:
		o.Cmp, rest = Above, rest[1:]
	}
	if rest == "" {
		return o, errors.New("no value after the comparison")
	}
	upper := o.Cmp == AtMost || o.Cmp == Below
	switch strings.ToLower(subject) {
	case "errors", "error", "errorrate":
		if !upper {
			return o, errors.New("an error rate is bounded from above (errors<=0.1%)")
		}
		o.Stat = ErrorRate
		v, err := parseRate(rest)
		if err != nil {
			return o, err
		}
		o.Limit = v
		return o, nil
	case "throughput", "tput":
		if upper {
			return o, errors.New("a throughput is bounded from below (throughput>=1000)")
		}
		o.Stat = Throughput
		num := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(rest), "/s"), "ops")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsNaN(v) || v <= 0 || v > 1e12 {
			return o, fmt.Errorf("throughput %q: want operations per second, above 0 and at most 1e12", rest)
		}
		o.Limit = v
		return o, nil
	}
	dot := strings.LastIndex(subject, ".")
	// A percentile may have a dot of its own (p99.9): the operation ends
	// at the first dot followed by a statistic.
	for j := 0; j < len(subject); j++ {
		if subject[j] == '.' && isStat(subject[j+1:]) {
			dot = j
			break
		}
	}
	if dot <= 0 || dot == len(subject)-1 {
		return o, errors.New("want OPERATION.STATISTIC (READ.p99, ALL.max, UPDATE.mean), errors or throughput")
	}
	o.Op = subject[:dot]
	if strings.EqualFold(o.Op, All) {
		o.Op = All
	}
	if !upper {
		return o, errors.New("a latency is bounded from above (READ.p99<=5ms)")
	}
	stat := strings.ToLower(subject[dot+1:])
	switch {
	case stat == "max":
		o.Stat = Max
	case stat == "mean" || stat == "avg":
		o.Stat = Mean
	case strings.HasPrefix(stat, "p"):
		p, err := strconv.ParseFloat(stat[1:], 64)
		if err != nil || !(p > 0 && p < 100) {
			return o, fmt.Errorf("percentile %q: want p followed by a number above 0 and below 100 (p50, p99, p99.9)", stat)
		}
		o.Stat, o.Percentile = Percentile, p
	default:
		return o, fmt.Errorf("statistic %q: want pNN, mean or max", stat)
	}
	us, err := parseLatency(rest)
	if err != nil {
		return o, err
	}
	o.Limit = us
	return o, nil
}

func isStat(s string) bool {
	s = strings.ToLower(s)
	if s == "max" || s == "mean" || s == "avg" {
		return true
	}
	if len(s) < 2 || s[0] != 'p' {
		return false
	}
	_, err := strconv.ParseFloat(s[1:], 64)
	return err == nil
}

// parseLatency reads a latency with its unit (us, µs, ms, s) into
// microseconds.
func parseLatency(v string) (float64, error) {
	units := []struct {
		suffix string
		us     float64
	}{{"us", 1}, {"µs", 1}, {"ms", 1e3}, {"s", 1e6}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(strings.ToLower(v), u.suffix); ok {
			f, err := strconv.ParseFloat(num, 64)
			if err != nil || math.IsNaN(f) || f <= 0 {
				return 0, fmt.Errorf("latency %q: want a number above 0 with its unit (us, ms, s)", v)
			}
			us := f * u.us
			if us > float64(MaxLatency/time.Microsecond) {
				return 0, fmt.Errorf("latency %q: at most %v", v, MaxLatency)
			}
			return us, nil
		}
	}
	return 0, fmt.Errorf("latency %q: give its unit (us, ms or s)", v)
}

// parseRate reads an error rate: a percentage (0.1%) or a fraction (0.001).
func parseRate(v string) (float64, error) {
	num, pct := strings.CutSuffix(v, "%")
	f, err := strconv.ParseFloat(num, 64)
	if err == nil && pct {
		f /= 100
	}
	if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
		return 0, fmt.Errorf("error rate %q: want a percentage (0.1%%) or a fraction (0.001) from 0 to 1", v)
	}
	return f, nil
}
