package settings

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// splitShell splits a line into words as a POSIX shell does for the
// forms users type: '...', "..." (with \" \\ \$ \` escapes) and a backslash
// escaping the next character. It does no expansion.
func splitShell(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == ' ' || ch == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\\':
			if i+1 >= len(line) {
				return nil, fmt.Errorf("trailing backslash")
			}
			i++
			cur.WriteByte(line[i])
			inWord = true
		case ch == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated '")
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, fmt.Errorf("unterminated \"")
			}
			inWord = true
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// defaults returns the settings of the bare command, to leave unchanged
// groups out of the short form.
func defaults(c Command) *Settings {
	s := &Settings{}
	s.Command.Type = c
	if c == CmdUser {
		s.Command.Ops = []OpRatio{{"q", 1}}
	}
	setDefaults(s)
	return s
}

func optDist(d *Dist) string {
	if d == nil {
		return "-"
	}
	return d.String()
}

// short renders the settings one line per group; groups equal to the
// command's defaults are left out, except command, rate and pop.
func short(s *Settings) string {
	var b strings.Builder
	line := func(name string, v any, def any, always bool) {
		if always || !reflect.DeepEqual(v, def) {
			fmt.Fprintf(&b, "%s: %+v\n", name, v)
		}
	}
	c := s.Command
	switch c.Type {
	case CmdHelp:
		return fmt.Sprintf("help topic=%q\n", s.HelpTopic)
	case CmdPrint:
		return fmt.Sprintf("print dist=%s (%s)\n", s.PrintDist, s.PrintDist.describe())
	case CmdVersion:
		return "version\n"
	}
	fmt.Fprintf(&b, "command: %s", c.Type)
	switch c.Stop {
	case StopCount:
		fmt.Fprintf(&b, " n=%d", c.Count)
	case StopDuration:
		fmt.Fprintf(&b, " duration=%s", c.Duration)
	default:
		fmt.Fprintf(&b, " err<%g n>%d n<%d", c.TargetUncertainty, c.MinMeasurements, c.MaxMeasurements)
	}
	fmt.Fprintf(&b, " cl=%s serial-cl=%s truncate=%s warmup=%t", c.CL, c.SerialCL, c.Truncate, !c.NoWarmup)
	if c.Type != CmdUser {
		fmt.Fprintf(&b, " keysize=%d add=%s", c.KeySize, c.Add)
	}
	if c.Type == CmdMixed || c.Type == CmdUser {
		fmt.Fprintf(&b, " clustering=%s", c.Clustering)
	}
	for _, r := range c.Ratios {
		fmt.Fprintf(&b, " %s=%g", r.Command, r.Weight)
	}
	for _, r := range c.Ops {
		fmt.Fprintf(&b, " op:%s=%g", r.Op, r.Weight)
	}
	if len(c.Profiles) > 0 {
		fmt.Fprintf(&b, " profiles=%q", c.Profiles)
	}
	b.WriteString("\n")
	r := s.Rate
	if r.Ramp() {
		fmt.Fprintf(&b, "rate: ramp %d..%d auto=%t\n", r.MinThreads, r.MaxThreads, r.Auto)
	} else {
		fmt.Fprintf(&b, "rate: threads=%d ops/s=%d fixed=%t\n", r.Threads, r.OpsPerSecond, r.Fixed)
	}
	p := s.Population
	if p.Dist != nil {
		fmt.Fprintf(&b, "pop: dist=%s order=%s\n", p.Dist, p.Order)
	} else {
		fmt.Fprintf(&b, "pop: seq=%d..%d wrap=%t read-lookback=%s order=%s\n", p.SeqMin, p.SeqMax, p.Wrap, optDist(p.ReadLookback), p.Order)
	}
	d := defaults(c.Type)
	in := s.Insert
	if !reflect.DeepEqual(in, d.Insert) {
		sel := "-"
		if in.SelectRatio != nil {
			sel = in.SelectRatio.String()
		}
		fmt.Fprintf(&b, "insert: revisit=%s visits=%s partitions=%s batchtype=%s select-ratio=%s row-population-ratio=%s\n",
			in.Revisit, in.Visits, optDist(in.Partitions), in.BatchType, sel, in.RowPopulationRatio)
	}
	col := s.Columns
	if !reflect.DeepEqual(col, d.Columns) {
		ts := "-"
		if col.Timestamp != nil {
			ts = fmt.Sprint(*col.Timestamp)
		}
		fmt.Fprintf(&b, "col: n=%s size=%s names=%q columns=%d comparator=%s timestamp=%s slice=%t super=%d\n",
			col.Count, col.Size, col.Names, len(col.ColumnNames()), col.Comparator, ts, col.Slice, col.Super)
	}
	line("errors", s.Errors, d.Errors, false)
	line("log", s.Log, d.Log, false)
	line("mode", s.Mode, d.Mode, false)
	line("node", s.Node, d.Node, false)
	line("schema", s.Schema, d.Schema, false)
	line("transport", s.Transport, d.Transport, false)
	line("port", s.Port, d.Port, false)
	line("graph", s.Graph, d.Graph, false)
	line("tokenrange", s.TokenRange, d.TokenRange, false)
	if c := s.Rate.Capacity; c != nil {
		fmt.Fprintf(&b, "capacity: start=%g growth=%g resolution=%g step=%v cooldown=%v threads %d..%d\n", c.Start, c.Growth, c.Resolution, c.Step, c.Cooldown, s.Rate.MinThreads, s.Rate.MaxThreads)
	}
	if o := s.SLO; o.Objectives != nil {
		var objs []string
		for _, x := range o.Objectives {
			objs = append(objs, fmt.Sprintf("%s{op=%s stat=%d p=%g cmp=%s limit=%g}", x.Text, x.Op, x.Stat, x.Percentile, x.Cmp, x.Limit))
		}
		fmt.Fprintf(&b, "slo: %s abort=%t\n", strings.Join(objs, " "), o.Abort)
	}
	return b.String()
}

// TestParse runs every command line of testdata/parse.txt and compares
// the results with testdata/parse.golden.
func TestParse(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "parse.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || strings.TrimSpace(text) == "" {
			out.WriteString(text + "\n")
			continue
		}
		args, err := splitShell(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		fmt.Fprintf(&out, "$ %s\n", text)
		s, notes, err := Parse(args)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("%s: message has several lines: %q", text, msg)
			}
			if _, ok := err.(*Error); !ok {
				t.Errorf("%s: error is %T, not *Error", text, err)
			}
			fmt.Fprintf(&out, "error: %s\n\n", msg)
			continue
		}
		out.WriteString(short(s))
		for _, n := range notes {
			fmt.Fprintf(&out, "note: %s\n", n)
		}
		if s.Command.Type <= CmdUser {
			_ = s.String() // must not panic
		}
		out.WriteString("\n")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "parse.golden"), []byte(out.String()))
}

// TestSettingsString compares the settings block with the original's
// output for the same command lines (see testdata/settings-*.txt).
func TestSettingsString(t *testing.T) {
	for _, tc := range []struct{ name, line string }{
		{"write", "write n=10 -node 127.0.0.1 -port native=1"},
		{"mixed", `mixed ratio(write=1,read=3) n=100000 cl=ONE -pop dist=UNIFORM(1..1000000) -schema keyspace="keyspace1" -mode native cql3 -rate threads>=16 threads<=256 -log file=mixed.log -node 10.0.0.10`},
		{"read", "read duration=3m -rate threads>=16 auto -node 10.0.0.19,10.0.0.20,10.0.0.21 -col names=b,a -errors delay-policy=linear -schema replication(strategy=NetworkTopologyStrategy,dc1=3) compaction(strategy=LeveledCompactionStrategy,sstable_size_in_mb=160)"},
		{"user", "user profile=blog.yaml ops(insert=1,timeline=2) -rate threads=10 fixed=100/s -log no-settings"},
		// The passwords are never printed (the original prints them).
		{"tls", "write n=10 -node 127.0.0.1 -mode native cql3 user=u password=pw1 -transport truststore=/tls/ts.p12 truststore-password=tspw keystore=/tls/ks.jks keystore-password=kspw"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, err := splitShell(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			s, _, err := Parse(args)
			if err != nil {
				t.Fatal(err)
			}
			got := s.String()
			for _, pw := range []string{"pw1", "tspw", "kspw"} {
				if strings.Contains(got, pw) {
					t.Errorf("the settings print a password:\n%s", got)
				}
			}
			ycsbtest.Golden(t, filepath.Join("testdata", "settings-"+tc.name+".txt"), []byte("$ "+tc.line+"\n"+got))
		})
	}
}

func TestSplitShell(t *testing.T) {
	got, err := splitShell(`a "b c" 'd e' f\(1\) "x\"y" g"h"i`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b c", "d e", "f(1)", `x"y`, "ghi"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
