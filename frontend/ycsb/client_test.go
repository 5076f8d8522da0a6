package ycsb

import (
	"context"
	"math"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// verdicts are the [CLIENT], Verdict rows of a text report.
func verdicts(out string) []string {
	var vs []string
	for _, m := range regexp.MustCompile(`(?m)^\[CLIENT\], Verdict, (.*)$`).FindAllStringSubmatch(out, -1) {
		vs = append(vs, m[1])
	}
	return vs
}

// notes are the note lines of stderr about the client.
func clientNotes(stderr string) []string {
	var ns []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "note: the client did not keep up") {
			ns = append(ns, l)
		}
	}
	return ns
}

// TestClientCPUBound: the basic binding without a delay does no work of
// its own, so unpaced workers keep every core the client may use busy, or
// wait for it when other processes hold it: the client is the limit. One
// processor (GOMAXPROCS) is the cores it may use, which a busy worker
// fills whatever else runs on the machine.
func TestClientCPUBound(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	out, stderr, err := runBasic(t, context.Background(), map[string]string{"threadcount": "4", "maxexecutiontime": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := row(t, out, "CLIENT", "Cores"); got != "1.0" {
		t.Errorf("[CLIENT], Cores, %s; want 1.0 (GOMAXPROCS)", got)
	}
	if vs := verdicts(out); !slices.Contains(vs, "CPU-BOUND") || slices.Contains(vs, "KEPT UP") {
		t.Errorf("verdicts %v, want CPU-BOUND\n%s", vs, out)
	}
	if ns := clientNotes(stderr); len(ns) != 1 || !strings.Contains(ns[0], "use more client machines") {
		t.Errorf("notes %q, want one advising more client machines", ns)
	}
	// The CLIENT rows come last, after every row of the reference's.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "[CLIENT], Verdict, ") {
		t.Errorf("last row %q, want the verdict", last)
	}
}

// TestClientThreadBound: 4 threads whose every operation sleeps 1 ms offer
// at most 4,000 operations per second: 8,000 is out of reach, 500 is not
// (it would take a mean sleep of 8 ms, which no busy machine has shown).
// The most the threads offer is threads/mean latency, from the report's
// own mean: a machine that oversleeps offers less, and says so.
func TestClientThreadBound(t *testing.T) {
	for _, tc := range []struct {
		target      string
		threadBound bool
		seconds     string // a 2 s window keeps a busy machine's late wake-ups well under LagShare
	}{
		{"8000", true, "1"},
		{"500", false, "2"},
	} {
		t.Run(tc.target, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "report.json")
			out, stderr, err := runBasic(t, context.Background(), map[string]string{"threadcount": "4", "target": tc.target,
				"basicdb.simulatedelay": "1", "basicdb.randomizedelay": "false", "maxexecutiontime": tc.seconds, "report.json": path})
			if err != nil {
				t.Fatal(err)
			}
			offered, err := strconv.ParseFloat(row(t, out, "CLIENT", "MaxOffered(ops/sec)"), 64)
			if err != nil {
				t.Fatal(err)
			}
			// A 1 ms sleep takes at least 1 ms: never more than 4,000/s
			// (4,004 for the histogram's rounding of the mean); about
			// 3,600 on a quiet machine, less on a loaded one.
			if offered > 4004 {
				t.Errorf("[CLIENT], MaxOffered(ops/sec), %v; want at most 4000", offered)
			}
			vs, ns := verdicts(out), clientNotes(stderr)
			rep := readReport(t, path)
			if cv := rep.ClientVerdict; cv != nil && cv.MeanLatencyUs != nil && *cv.MeanLatencyUs >= 1000 {
				if want := 4e6 / *cv.MeanLatencyUs; math.Abs(offered-want) > 0.1 {
					t.Errorf("[CLIENT], MaxOffered(ops/sec), %v; want 4 threads / the mean latency %v µs = %.1f", offered, *cv.MeanLatencyUs, want)
				}
			} else {
				t.Errorf("JSON client_verdict %+v: no mean latency of at least the 1 ms slept", cv)
			}
			if rep.ClientVerdict == nil || rep.ClientVerdict.MaxOfferedOpsSec == nil || rep.ClientVerdict.Threads != 4 ||
				strconv.FormatInt(rep.ClientVerdict.TargetOpsSec, 10) != tc.target || !slices.Equal(rep.ClientVerdict.Verdicts, vs) {
				t.Errorf("JSON client_verdict %+v, want the text report's verdicts %v", rep.ClientVerdict, vs)
			}
			if !tc.threadBound {
				if slices.Contains(vs, "THREAD-BOUND") {
					t.Errorf("verdicts %v, want not THREAD-BOUND\n%s", vs, out)
				}
				return
			}
			if !slices.Contains(vs, "THREAD-BOUND") {
				t.Errorf("verdicts %v, want THREAD-BOUND\n%s", vs, out)
			}
			if len(ns) != 1 || !strings.Contains(ns[0], "4 threads offer at most") || !strings.Contains(ns[0], "raise -threads to at least") {
				t.Errorf("notes %q, want one saying what 4 threads offer and to raise -threads", ns)
			}
		})
	}
}
