package slo

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []Objective
	}{
		{"READ.p99<=5ms", []Objective{{Text: "READ.p99<=5ms", Op: "READ", Stat: Percentile, Percentile: 99, Cmp: AtMost, Limit: 5000}}},
		{" UPDATE.p99.9 < 20 ms ", []Objective{{Text: "UPDATE.p99.9<20ms", Op: "UPDATE", Stat: Percentile, Percentile: 99.9, Cmp: Below, Limit: 20000}}},
		{"all.max<=1s", []Objective{{Text: "all.max<=1s", Op: All, Stat: Max, Cmp: AtMost, Limit: 1e6}}},
		{"read.mean<=250us", []Objective{{Text: "read.mean<=250us", Op: "read", Stat: Mean, Cmp: AtMost, Limit: 250}}},
		{"insert-FAILED.p50<=1.5ms", []Objective{{Text: "insert-FAILED.p50<=1.5ms", Op: "insert-FAILED", Stat: Percentile, Percentile: 50, Cmp: AtMost, Limit: 1500}}},
		{"my.op.p99<=5ms", []Objective{{Text: "my.op.p99<=5ms", Op: "my.op", Stat: Percentile, Percentile: 99, Cmp: AtMost, Limit: 5000}}},
		{"errors<=0.1%", []Objective{{Text: "errors<=0.1%", Stat: ErrorRate, Cmp: AtMost, Limit: 0.001}}},
		{"errors<0.001", []Objective{{Text: "errors<0.001", Stat: ErrorRate, Cmp: Below, Limit: 0.001}}},
		{"throughput>=10000", []Objective{{Text: "throughput>=10000", Stat: Throughput, Cmp: AtLeast, Limit: 10000}}},
		{"READ.p99<=5ms, errors<=0%, throughput>2.5e3/s", []Objective{
			{Text: "READ.p99<=5ms", Op: "READ", Stat: Percentile, Percentile: 99, Cmp: AtMost, Limit: 5000},
			{Text: "errors<=0%", Stat: ErrorRate, Cmp: AtMost, Limit: 0},
			{Text: "throughput>2.5e3/s", Stat: Throughput, Cmp: Above, Limit: 2500},
		}},
	} {
		got, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if len(got) != len(c.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Parse(%q)[%d] = %+v, want %+v", c.in, i, got[i], c.want[i])
			}
		}
	}
}

// Every refusal names the objective as written and says what is wanted.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "no objective"},
		{"READ.p99<=5ms,,errors<=1%", "empty objective"},
		{"READ.p99<=5", "READ.p99<=5: latency \"5\": give its unit"},
		{"READ.p100<=5ms", "percentile \"p100\""},
		{"READ.p0<=5ms", "percentile \"p0\""},
		{"READ.p99>=5ms", "bounded from above"},
		{"READ.median<=5ms", "statistic \"median\": want pNN, mean or max"},
		{"READ<=5ms", "want OPERATION.STATISTIC"},
		{"READ.p99<=-5ms", "above 0"},
		{"READ.p99<=2h", "give its unit"},
		{"READ.p99<=3601s", "at most 1h0m0s"},
		{"errors>=1%", "bounded from above"},
		{"errors<=150%", "from 0 to 1"},
		{"throughput<=100", "bounded from below"},
		{"throughput>=0", "above 0"},
		{"throughput>=NaN", "above 0"},
		{"p99=5ms", "want SUBJECT<=VALUE"},
		{"READ.p99<=", "no value"},
		{strings.Repeat("errors<=1%,", MaxObjectives) + "errors<=1%", "more than 256"},
	} {
		_, err := Parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

// SplitSubject cuts at the first dot followed by a statistic, else at the
// last dot; ParseStat reads what follows.
func TestSplitSubject(t *testing.T) {
	for _, c := range []struct {
		in, op, stat string
		ok           bool
	}{
		{"READ.p99", "READ", "p99", true},
		{"my.op.P99.9", "my.op", "p99.9", true},
		{"all.Mean", All, "mean", true},
		{"x.p100.5", "x", "p100.5", true}, // a wrong percentile, not an operation x.p100
		{"READ..p50", "READ.", "p50", true},
		{"a.b.throughput", "a.b", "throughput", true},
		{"READ.p99.x", "READ.p99", "x", true},
		{"x.", "", "", false},
		{".p99", "", "", false},
		{"a.b.", "", "", false},
		{"READ", "", "", false},
	} {
		op, stat, ok := SplitSubject(c.in)
		if op != c.op || stat != c.stat || ok != c.ok {
			t.Errorf("SplitSubject(%q) = %q, %q, %v, want %q, %q, %v", c.in, op, stat, ok, c.op, c.stat, c.ok)
		}
	}
	for _, c := range []struct {
		in   string
		stat Stat
		p    float64
		ok   bool
		err  string
	}{
		{"max", Max, 0, true, ""},
		{"AVG", Mean, 0, true, ""},
		{"p99.9", Percentile, 99.9, true, ""},
		{"p1e1", Percentile, 10, true, ""},
		{"median", 0, 0, false, ""},
		{"throughput", 0, 0, false, ""},
		{"p0", 0, 0, false, `percentile "p0": want p followed by a number above 0 and below 100`},
		{"p100", 0, 0, false, `percentile "p100"`},
		{"pNaN", 0, 0, false, `percentile "pnan"`},
		{"p", 0, 0, false, `percentile "p"`},
	} {
		stat, p, ok, err := ParseStat(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseStat(%q) error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || stat != c.stat || p != c.p || ok != c.ok {
			t.Errorf("ParseStat(%q) = %v, %v, %v, %v, want %v, %v, %v", c.in, stat, p, ok, err, c.stat, c.p, c.ok)
		}
	}
}

// EachItem refuses at the first wrong item in the list's order: an item
// that f refuses before a later empty item or the item past the limit.
func TestEachItem(t *testing.T) {
	refuseBad := func(text string) error {
		if text == "bad" {
			return errors.New("refused")
		}
		return nil
	}
	for _, c := range []struct{ in, want string }{
		{" a , b c ", ""},
		{"a,bad,,d", "bad: refused"},
		{"a,,bad", `"a,,bad": an empty item between commas`},
		{"a,b,bad", "more than 2 items"},
		{"bad,b,c", "bad: refused"},
		{"a,", `"a,": an empty item between commas`},
	} {
		var got []string
		err := EachItem(c.in, "item", 2, func(text string) error {
			got = append(got, text)
			return refuseBad(text)
		})
		switch {
		case c.want == "" && (err != nil || strings.Join(got, "|") != "a|bc"):
			t.Errorf("EachItem(%q): %q, %v", c.in, got, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("EachItem(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

// ParseItems returns what parse makes of each item in order, or the first
// error by EachItem's rules, and no values with it.
func TestParseItems(t *testing.T) {
	length := func(text string) (int, error) {
		if text == "bad" {
			return 0, errors.New("refused")
		}
		return len(text), nil
	}
	for _, c := range []struct {
		in   string
		want []int
		err  string
	}{
		{"a", []int{1}, ""},
		{" a , b c ", []int{1, 2}, ""},
		{"a,bad", nil, "bad: refused"},
		{"a,,b", nil, `"a,,b": an empty item between commas`},
		{"a,b,c", nil, "more than 2 items"},
	} {
		got, err := ParseItems(c.in, "item", 2, length)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if !slices.Equal(got, c.want) || errText != c.err {
			t.Errorf("ParseItems(%q) = %v, %q, want %v, %q", c.in, got, errText, c.want, c.err)
		}
	}
}

// fixed is a Source with known figures.
type fixed struct {
	pct      map[string]map[float64]float64
	mean     map[string]float64
	max      map[string]float64
	count    map[string]int64
	ops, err int64
	tput     float64
}

func (f fixed) Ops() []string {
	var n []string
	for k := range f.mean {
		if k != All {
			n = append(n, k)
		}
	}
	return n
}
func (f fixed) Percentile(op string, p float64) (float64, bool) {
	v, ok := f.pct[op][p]
	return v, ok
}
func (f fixed) Mean(op string) (float64, bool) { v, ok := f.mean[op]; return v, ok }
func (f fixed) Max(op string) (float64, bool)  { v, ok := f.max[op]; return v, ok }
func (f fixed) Count(op string) int64          { return f.count[op] }
func (f fixed) Operations() int64              { return f.ops }
func (f fixed) Errors() int64                  { return f.err }
func (f fixed) Throughput() float64            { return f.tput }

func TestEvaluate(t *testing.T) {
	src := fixed{
		pct:   map[string]map[float64]float64{"READ": {99: 4800, 99.9: 9000}, All: {99: 7000}},
		mean:  map[string]float64{"READ": 800, "UPDATE": 1200, All: 1000},
		max:   map[string]float64{"READ": 20000, "UPDATE": 1e6, All: 1e6},
		count: map[string]int64{"READ": 10000, "UPDATE": 10000, All: 20000},
		ops:   10000, err: 10, tput: 9500,
	}
	objs, err := Parse("read.p99<=5ms, READ.p99.9<=5ms, ALL.p99<7ms, UPDATE.max<=1s, UPDATE.max<1s, errors<=0.1%, errors<0.1%, throughput>=10000, SCAN.p99<=1s, READ.p50<=1ms")
	if err != nil {
		t.Fatal(err)
	}
	want := []Verdict{Pass, Fail, Fail, Pass, Fail, Pass, Fail, Fail, NoData, NoData}
	rs := Evaluate(objs, src)
	for i, r := range rs {
		if r.Verdict != want[i] {
			t.Errorf("%s: %v (measured %v), want %v", r.Text, r.Verdict, r.Measured, want[i])
		}
	}
	if rs[0].Measured != 4800 || rs[5].Measured != 0.001 || rs[7].Measured != 9500 {
		t.Errorf("measured %v %v %v, want 4800 0.001 9500", rs[0].Measured, rs[5].Measured, rs[7].Measured)
	}
	if Passed(rs) {
		t.Error("Passed with failures")
	}
	if !Passed(rs[:1]) {
		t.Error("not Passed with one passing result")
	}
	// No operation at all: nothing can be judged.
	empty := Evaluate(objs[5:8], fixed{})
	for _, r := range empty {
		if r.Verdict != NoData {
			t.Errorf("%s on an empty run: %v, want NO DATA", r.Text, r.Verdict)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"READ.p99<=5ms", "errors<=0.1%, throughput>=1e4", "a.b.p99.9<1us", "ALL.max<=1s", ",", "x.p<=1ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		objs, err := Parse(s)
		if err != nil {
			return
		}
		if len(objs) == 0 || len(objs) > MaxObjectives {
			t.Fatalf("%q: %d objectives", s, len(objs))
		}
		for _, o := range objs {
			switch o.Stat {
			case Percentile:
				if !(o.Percentile > 0 && o.Percentile < 100) {
					t.Fatalf("%q: percentile %v", s, o.Percentile)
				}
				fallthrough
			case Mean, Max:
				if !(o.Limit > 0 && o.Limit <= 3.6e9) || o.Op == "" || (o.Cmp != AtMost && o.Cmp != Below) {
					t.Fatalf("%q: %+v", s, o)
				}
			case ErrorRate:
				if !(o.Limit >= 0 && o.Limit <= 1) || (o.Cmp != AtMost && o.Cmp != Below) {
					t.Fatalf("%q: %+v", s, o)
				}
			case Throughput:
				if !(o.Limit > 0 && o.Limit <= 1e12) || (o.Cmp != AtLeast && o.Cmp != Above) {
					t.Fatalf("%q: %+v", s, o)
				}
			}
			// What was parsed reads back the same.
			again, err := Parse(o.Text)
			if err != nil || len(again) != 1 || again[0] != o {
				t.Fatalf("%q: %+v reads back as %+v, %v", s, o, again, err)
			}
		}
	})
}
