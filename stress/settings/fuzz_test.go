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
