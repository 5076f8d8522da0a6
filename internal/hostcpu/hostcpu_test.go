package hostcpu

import (
	"math"
	"os"
	"testing"
	"time"
)

func TestQuota(t *testing.T) {
	for _, tc := range []struct {
		root  string
		cores float64
		ok    bool
	}{
		{"v2limit", 1.5, true},
		{"v2parent", 0.5, true}, // the parent's quota binds
		{"v2none", 0, false},
		{"v2container", 2, true},
		{"v1limit", 2.5, true},
		{"v1none", 0, false},
		{"nocgroup", 0, false},
	} {
		t.Run(tc.root, func(t *testing.T) {
			cores, ok := Source{Root: "testdata/" + tc.root}.Quota()
			if ok != tc.ok || cores != tc.cores {
				t.Errorf("Quota() = %v, %v; want %v, %v", cores, ok, tc.cores, tc.ok)
			}
		})
	}
}

func TestCoresCappedByQuotaAndLimit(t *testing.T) {
	n, ok := affinity()
	if !ok {
		t.Skip("no affinity on this platform")
	}
	for _, tc := range []struct {
		root  string
		limit int
		want  float64
	}{
		{"v2none", 0, float64(n)},
		{"v2none", 1, 1},
		{"v2parent", 0, math.Min(0.5, float64(n))},
		{"v1limit", 0, math.Min(2.5, float64(n))},
		{"v1limit", 1, 1},
	} {
		got, ok := Source{Root: "testdata/" + tc.root}.Cores(tc.limit)
		if !ok || got != tc.want {
			t.Errorf("%s, limit %d: Cores = %v, %v; want %v", tc.root, tc.limit, got, ok, tc.want)
		}
	}
}

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		file         string
		steal, total uint64
		ok           bool
	}{
		{"a", 100, 9480, true},
		{"b", 200, 10480, true},
		{"old", 0, 0, false},
	} {
		b, err := os.ReadFile("testdata/stat/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		steal, total, ok := parseStat(b)
		if steal != tc.steal || total != tc.total || ok != tc.ok {
			t.Errorf("%s: parseStat = %d, %d, %v; want %d, %d, %v", tc.file, steal, total, ok, tc.steal, tc.total, tc.ok)
		}
	}
}

func TestBetween(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := Sample{At: t0, CPU: 3 * time.Second, cpuOK: true, steal: 100, total: 9480, statOK: true,
		waits: Source{Root: "testdata/tasks/a"}.taskWaits()}
	b := Sample{At: t0.Add(2 * time.Second), CPU: 6 * time.Second, cpuOK: true, steal: 200, total: 10480, statOK: true,
		waits: Source{Root: "testdata/tasks/b"}.taskWaits()}
	u := Between(a, b, 2, true)
	// 3 s of CPU in 2 s; thread 100 waited 0.6 s more, thread 102 (new)
	// 0.2 s, thread 101 exited: 0.8 s in 2 s; 100 of 1000 ticks stolen.
	want := Usage{Wall: 2 * time.Second, Cores: 2, CoresKnown: true, CPU: 1.5, CPUKnown: true,
		Wait: 0.4, WaitKnown: true, StealPct: 10, StealKnown: true}
	if math.Abs(u.Wait-want.Wait) < 1e-12 {
		u.Wait = want.Wait
	}
	if u != want {
		t.Errorf("Between = %+v\nwant %+v", u, want)
	}
}

// More threads than maxTasks: a sample of some of them would count the
// others as born in the next window, with their lifetime's waits; the
// figure is unknown instead.
func TestTaskWaitsTooManyThreads(t *testing.T) {
	src := Source{Root: "testdata/tasks/a"} // two threads
	if w := src.taskWaits(); len(w) != 2 {
		t.Fatalf("taskWaits = %v, want two threads", w)
	}
	defer func(n int) { maxTasks = n }(maxTasks)
	maxTasks = 2
	if w := src.taskWaits(); len(w) != 2 {
		t.Errorf("maxTasks 2, two threads: taskWaits = %v, want both", w)
	}
	maxTasks = 1
	if w := src.taskWaits(); w != nil {
		t.Errorf("maxTasks 1, two threads: taskWaits = %v, want nil (unknown)", w)
	}
}

func TestBetweenUnknown(t *testing.T) {
	t0 := time.Unix(1000, 0)
	u := Between(Sample{At: t0}, Sample{At: t0.Add(time.Second)}, 0, false)
	if u.CoresKnown || u.CPUKnown || u.WaitKnown || u.StealKnown {
		t.Errorf("Between of empty samples = %+v, want all unknown", u)
	}
	// An empty window measures nothing.
	s := Sample{At: t0, cpuOK: true, statOK: true, total: 1}
	if u := Between(s, s, 2, true); u.CPUKnown || u.StealKnown || !u.CoresKnown {
		t.Errorf("Between of one instant = %+v, want only the cores", u)
	}
}

func TestUnescape(t *testing.T) {
	if got := unescape(`/sys/fs/a\040b\134c\0`); got != `/sys/fs/a b\c\0` {
		t.Errorf("unescape = %q", got)
	}
}

// TestSampleOnThisMachine: on Linux every figure is read; a busy loop
// shows as CPU.
func TestSampleOnThisMachine(t *testing.T) {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc")
	}
	a := System.Sample()
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	b := System.Sample()
	cores, ok := System.Cores(0)
	u := Between(a, b, cores, ok)
	if !u.CoresKnown || !u.CPUKnown || !u.WaitKnown || !u.StealKnown {
		t.Fatalf("Usage = %+v, want every figure known", u)
	}
	if u.CPU <= 0 || u.CPU+u.Wait < 0.5 {
		t.Errorf("a busy loop used %.2f cores and waited %.2f, want about one in all", u.CPU, u.Wait)
	}
}
