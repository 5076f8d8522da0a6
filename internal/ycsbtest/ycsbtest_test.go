package ycsbtest

import (
	"flag"
	"os/exec"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// TestBinary: the binary is built once per test binary and is cmd/ycsb,
// which names its commands when given none it knows; the build cache's
// copy, when there is one, is the one go run would run.
func TestBinary(t *testing.T) {
	bin := Binary(t)
	if again := Binary(t); again != bin {
		t.Errorf("second call %q, want the first's %q", again, bin)
	}
	out, _ := exec.Command(bin, "nosuchcommand").CombinedOutput()
	if !strings.Contains(string(out), `ycsb: unknown command "nosuchcommand"`) {
		t.Errorf("%s nosuchcommand said %q", bin, out)
	}
	if cached := cachedBinary(); cached != "" && cached != bin {
		t.Errorf("Binary %q, but the cached build is %q", bin, cached)
	}
}

// WaitingParallel sets -test.parallel unless the command line gave it.
func TestWaitingParallel(t *testing.T) {
	f := flag.Lookup("test.parallel")
	before := f.Value.String()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	t.Cleanup(func() { f.Value.Set(before) })
	WaitingParallel(7)
	want := "7"
	if given {
		want = before
	}
	if got := f.Value.String(); got != want {
		t.Errorf("-test.parallel %s after WaitingParallel(7) (given on the command line: %v), want %s", got, given, want)
	}
}

// ServerEnv gives a test's own server the client compiler unless
// CASSANDRA_JVM_OPTS says otherwise.
func TestServerEnv(t *testing.T) {
	last := func(env []string) string {
		v := ""
		for _, e := range env {
			if s, ok := strings.CutPrefix(e, "CASSANDRA_JVM_OPTS="); ok {
				v = s
			}
		}
		return v
	}
	t.Setenv("CASSANDRA_JVM_OPTS", "")
	if got := last(ServerEnv()); got != ServerJVMOptions {
		t.Errorf("unset: CASSANDRA_JVM_OPTS=%q, want %q", got, ServerJVMOptions)
	}
	t.Setenv("CASSANDRA_JVM_OPTS", "-Xint")
	if got := last(ServerEnv()); got != "-Xint" {
		t.Errorf("set: CASSANDRA_JVM_OPTS=%q, want the environment's -Xint", got)
	}
}
