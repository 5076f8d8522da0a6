package settings

import (
	"strings"
	"testing"
)

// FuzzParse: Parse never panics, its errors are one line, and accepted
// settings can be printed.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"write n=1000000 cl=LOCAL_QUORUM -rate threads=500 -col size=fixed(2048) n=fixed(32) -schema replication(factor=3) -node 10.0.0.12",
		"mixed ratio(write=1,read=3) n=100000 cl=ONE -pop dist=UNIFORM(1..1000000) -rate threads>=16 threads<=256",
		"user profile=a.yaml ops(insert=1,q=2) -insert partitions=uniform(1..4) select-ratio=fixed(1)/10",
		"read duration=3m -log interval=500ms -graph file=x.html -errors retries=2 -port native=9043",
		"print dist=~qextreme(1..1m,1.5,10)",
		"help -rate",
		"write n=1 -mode native cql3 -schema keyspace=”k”",
		"write n=10 keysize=65535 -col size=uniform(0..200M) n=fixed(1) -insert visits=uniform(1..3) revisit=uniform(0..10) partitions=fixed(65535)",
		"read n=1000000000b -pop seq=1..1000000000b -rate threads=100000 -errors retries=2147483646 max-delay-ms=9223372036854",
		"read err<0.1 n>2147483647 n<2147483647 -pop dist=~qextreme(-1000000000b..1000000000b,0.5,1048576) read-lookback=seq(1..2)",
		"write n=1 -mode native cql3 maxPending=32768 requestTimeout=2147483647 -tokenrange split-factor=1048576",
		"write n=1 -mode native cql3 requestTimeout=100 speculativeDelay=99",
		"write n=1 -mode native cql3 user=u password=a b -node h",
		"write n=1 -rate threads=4 -slo write.p99.9<=5ms, ALL.max<=1s errors<=0.1% abort",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s, _, err := Parse(strings.Split(line, " "))
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("message has several lines: %q", msg)
			}
			return
		}
		if s.Command.Type <= CmdUser {
			_ = s.String()
			checkBounds(t, s)
		}
		if s.Command.Type == CmdPrint {
			checkDist(t, "print dist=", s.PrintDist)
		}
	})
}

// checkBounds fails t when accepted settings are beyond a bound of
// limits.go.
func checkBounds(t *testing.T, s *Settings) {
	t.Helper()
	c := s.Command
	if c.Count < 0 || c.Count > MaxDistValue {
		t.Fatalf("n=%d", c.Count)
	}
	if c.Type.Predefined() && (c.KeySize < 1 || c.KeySize > MaxKeyBytes) {
		t.Fatalf("keysize=%d", c.KeySize)
	}
	col := s.Columns
	if col.Size.Min < 0 || col.Size.Max > MaxFrameBytes || col.Count.Max < 1 || col.Count.Max > MaxColumns {
		t.Fatalf("-col n=%s size=%s", col.Count, col.Size)
	}
	if row := int64(c.KeySize) + col.Count.Max*col.Size.Max; row > MaxFrameBytes {
		t.Fatalf("rows of %d bytes: -col n=%s size=%s keysize=%d", row, col.Count, col.Size, c.KeySize)
	}
	r := s.Rate
	for _, n := range []int{r.Threads, r.MinThreads, r.MaxThreads} {
		if n < 0 || n > MaxThreads {
			t.Fatalf("-rate %+v", r)
		}
	}
	if r.OpsPerSecond < 0 || r.OpsPerSecond > MaxInt {
		t.Fatalf("-rate %+v", r)
	}
	p := s.Population
	if p.Dist == nil && (p.SeqMin < 0 || p.SeqMax > MaxDistValue || p.SeqMin > p.SeqMax) {
		t.Fatalf("-pop seq=%d..%d", p.SeqMin, p.SeqMax)
	}
	in := s.Insert
	dists := map[string]*Dist{"add=": &c.Add, "clustering=": &c.Clustering, "-pop dist=": p.Dist, "read-lookback=": p.ReadLookback,
		"revisit=": &in.Revisit, "visits=": &in.Visits, "partitions=": in.Partitions, "row-population-ratio=": &in.RowPopulationRatio.Dist,
		"-col n=": &col.Count, "-col size=": &col.Size}
	if in.SelectRatio != nil {
		dists["select-ratio="] = &in.SelectRatio.Dist
	}
	for name, d := range dists {
		if d != nil {
			checkDist(t, name, *d)
		}
	}
	if in.Revisit.Min < 0 || in.Revisit.Max-in.Revisit.Min+1 > MaxInt {
		t.Fatalf("revisit=%s", in.Revisit)
	}
	if in.Visits.Min < 1 || in.Visits.Max > MaxInt {
		t.Fatalf("visits=%s", in.Visits)
	}
	if in.Partitions != nil && in.Partitions.Max > MaxBatchStatements {
		t.Fatalf("partitions=%s", in.Partitions)
	}
	m := s.Mode
	if m.MaxPending < 0 || m.MaxPending > MaxPending || m.ConnectionsPerHost > MaxInt || m.RequestTimeout <= 0 {
		t.Fatalf("-mode %+v", m)
	}
	e := s.Errors
	if e.Tries() != e.Retries+1 || e.MinDelay < 0 || e.MaxDelay < e.MinDelay {
		t.Fatalf("-errors %+v", e)
	}
	if s.TokenRange.SplitFactor < 1 || s.TokenRange.SplitFactor > MaxTokenRanges {
		t.Fatalf("split-factor=%d", s.TokenRange.SplitFactor)
	}
	if c.MinMeasurements > MaxInt || c.MaxMeasurements > MaxInt || s.Node.RemoteDCHosts > MaxInt || col.Super > MaxInt {
		t.Fatalf("an int option above %d", MaxInt)
	}
}

// checkDist fails t when a distribution's bounds are beyond MaxDistValue
// or its range does not fit an int64.
func checkDist(t *testing.T, name string, d Dist) {
	t.Helper()
	if d.Min < -MaxDistValue || d.Max > MaxDistValue || d.Min > d.Max || d.Max-d.Min+1 <= 0 || d.Quantas > MaxQuantas {
		t.Fatalf("%s%s: beyond the bounds", name, d)
	}
}

// FuzzSecret: a password given as one argument is taken as typed, and no
// message nor the settings block shows it, whatever follows it.
func FuzzSecret(f *testing.F) {
	for _, seed := range []struct{ pw, next string }{{"abc def", ""}, {`p”w'q"é`, "-node"}, {"a,b=(c)", "def"}, {" -x ", "-mode"}, {"x", "password=y"}} {
		f.Add(seed.pw, seed.next)
	}
	f.Fuzz(func(t *testing.T, pw, next string) {
		const mark = "Zq"
		if strings.Contains(next, mark) {
			return
		}
		args := []string{"write", "n=1", "-mode", "native", "cql3", "user=u", "password=" + mark + pw + mark}
		if next != "" {
			args = append(args, next)
		}
		s, _, err := Parse(args)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, mark) || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("%q: %s", args, msg)
			}
			return
		}
		if s.Mode.Password != mark+pw+mark {
			t.Fatalf("%q: password %q", args, s.Mode.Password)
		}
		if strings.Contains(s.String(), mark) {
			t.Fatalf("%q: the settings show the password", args)
		}
	})
}

// FuzzParseDist: an accepted distribution prints as a spec that parses
// back to the same value.
func FuzzParseDist(f *testing.F) {
	for _, seed := range []string{"fixed(1)", "uniform(1..1M)", "gaussian(1..100,2)", "normal(1..10,5,1)", "~exp(1..10)", "extr(1..9,2)", "qextr(1..9,2,3)", "seq(1..5)"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		d, err := ParseDist(spec)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("message has several lines: %q", err.Error())
			}
			return
		}
		back, err := ParseDist(d.String())
		if err != nil {
			t.Fatalf("%q -> %s does not parse: %v", spec, d, err)
		}
		if back.String() != d.String() {
			t.Fatalf("%q -> %s -> %s", spec, d, back)
		}
	})
}
