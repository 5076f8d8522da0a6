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
	return ParseItems(s, "objective", MaxObjectives, parseOne)
}

// EachItem calls f with each item of the comma-separated list s, its
// spaces removed, in order, and stops at the first error, which it returns
// prefixed with the item as written. An empty item between commas, or an
// item past the first limit, is refused when the list reaches it; noun
// names an item in those errors ("an empty objective between commas",
// "more than 256 objectives"). A blank s is the caller's to refuse first,
// with its own example.
func EachItem(s, noun string, limit int, f func(text string) error) error {
	n := 0
	for _, item := range strings.Split(s, ",") {
		text := strings.Join(strings.Fields(item), "")
		if text == "" {
			return fmt.Errorf("%q: an empty %s between commas", s, noun)
		}
		if n == limit {
			return fmt.Errorf("more than %d %ss", limit, noun)
		}
		if err := f(text); err != nil {
			return fmt.Errorf("%s: %w", text, err)
		}
		n++
	}
	return nil
}

// ParseItems is EachItem collecting what parse makes of each item, in
// order: the list's values, or EachItem's error.
func ParseItems[T any](s, noun string, limit int, parse func(text string) (T, error)) ([]T, error) {
	var out []T
	err := EachItem(s, noun, limit, func(text string) error {
		v, err := parse(text)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
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
	op, stat, ok := SplitSubject(subject)
	if !ok {
		return o, errors.New("want OPERATION.STATISTIC (READ.p99, ALL.max, UPDATE.mean), errors or throughput")
	}
	o.Op = op
	if !upper {
		return o, errors.New("a latency is bounded from above (READ.p99<=5ms)")
	}
	st, p, ok, err := ParseStat(stat)
	if err != nil {
		return o, err
	}
	if !ok {
		return o, fmt.Errorf("statistic %q: want pNN, mean or max", stat)
	}
	o.Stat, o.Percentile = st, p
	us, err := parseLatency(rest)
	if err != nil {
		return o, err
	}
	o.Limit = us
	return o, nil
}

// SplitSubject splits a subject OPERATION.STATISTIC (READ.p99, ALL.max,
// my.op.p99.9) into its operation, All for "all" in any case, and its
// statistic in lower case. An operation name may hold dots and a
// percentile has one of its own: the operation ends at the first dot
// followed by a statistic (max, mean, avg, p and a number), else at the
// last dot (READ.median, READ.throughput). ok is false when that dot has
// nothing before or after it.
func SplitSubject(subject string) (op, stat string, ok bool) {
	dot := strings.LastIndex(subject, ".")
	for j := 0; j < len(subject); j++ {
		if subject[j] == '.' && isStat(subject[j+1:]) {
			dot = j
			break
		}
	}
	if dot <= 0 || dot == len(subject)-1 {
		return "", "", false
	}
	op = subject[:dot]
	if strings.EqualFold(op, All) {
		op = All
	}
	return op, strings.ToLower(subject[dot+1:]), true
}

// isStat tells whether s reads as a statistic, a percentile out of range
// included (p100 is a wrong percentile, not part of an operation name).
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

// ParseStat reads a latency statistic as SplitSubject returns it: max,
// mean (or avg), or p followed by a percentile in (0, 100). err is for a
// statistic that starts with p and is no such percentile; otherwise ok is
// false for any other statistic, which the caller takes or names itself.
func ParseStat(stat string) (s Stat, percentile float64, ok bool, err error) {
	stat = strings.ToLower(stat)
	switch {
	case stat == "max":
		return Max, 0, true, nil
	case stat == "mean" || stat == "avg":
		return Mean, 0, true, nil
	case strings.HasPrefix(stat, "p"):
		p, err := strconv.ParseFloat(stat[1:], 64)
		if err != nil || !(p > 0 && p < 100) {
			return 0, 0, false, fmt.Errorf("percentile %q: want p followed by a number above 0 and below 100 (p50, p99, p99.9)", stat)
		}
		return Percentile, p, true, nil
	}
	return 0, 0, false, nil
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
