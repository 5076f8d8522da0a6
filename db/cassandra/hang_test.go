package cassandra

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// freeze stops the node's JVM with SIGSTOP, as a hung node (or host) looks
// to its clients: connections stay open and nothing answers. The returned
// thaw resumes it; it is also registered with t.Cleanup (before the node's
// wipe runs) and may be called more than once.
func (n *ownNode) freeze() (thaw func()) {
	n.t.Helper()
	var home string
	for _, e := range n.env {
		if v, ok := strings.CutPrefix(e, "CASSANDRA_HOME_DIR="); ok {
			home = v
		}
	}
	b, err := os.ReadFile(filepath.Join(home, "cassandra.pid"))
	if err != nil {
		n.t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		n.t.Fatalf("cassandra.pid: %q", b)
	}
	var once sync.Once
	thaw = func() { once.Do(func() { syscall.Kill(pid, syscall.SIGCONT) }) }
	n.t.Cleanup(thaw)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		n.t.Fatal(err)
	}
	return thaw
}

// testFrozenNode (TestOwnNode) runs `ycsb run cassandra-cql` against a
// node of its own that is frozen with SIGSTOP mid-run: the run must still
// end close to maxexecutiontime with its report, counting the requests that
// ran out of cassandra.readtimeoutmillis, and a Ctrl-C during the freeze
// must end it within seconds.
func testFrozenNode(t *testing.T, n *ownNode) {
	if testing.Short() {
		t.Skip("freezes a node of its own; skipped with -short")
	}
	common := []string{"-P", "workloads/workloada", "-p", "hosts=" + testHost, "-p", "port=" + n.port, "-p", "cassandra.keyspace=ycsb_frozen",
		"-p", "cassandra.createschema=true", "-p", "recordcount=1000", "-threads", "4"}
	if stdout, stderr, code := ycsb(t, time.Minute, append([]string{"load", "cassandra-cql"}, common...)...); code != 0 {
		t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
	}

	var ended time.Time // when the last run ended
	// run starts a run, freezes the node after 3 s, calls during (if any)
	// 2 s later, and returns the output and how long the run took from
	// "Starting test." (after the connection and the schema check) to the
	// exit.
	run := func(t *testing.T, during func(*exec.Cmd), extra ...string) (stdout, stderr string, took time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, ycsbBinary(t), append(append([]string{"run", "cassandra-cql", "-s"}, common...), extra...)...)
		cmd.Dir = repoRoot(t)
		var out bytes.Buffer
		errOut := &stampWriter{mark: "Starting test."}
		cmd.Stdout, cmd.Stderr = &out, errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The freeze is the run's: it comes 3 s after "Starting test." (the
		// connection and the schema check done), not 3 s after the start,
		// which a loaded machine may still spend in the setup.
		errOut.started(t, 60*time.Second)
		time.Sleep(3 * time.Second)
		thaw := n.on(t).freeze()
		defer thaw()
		if during != nil {
			time.Sleep(2 * time.Second)
			during(cmd)
		}
		cmd.Wait()
		ended = time.Now()
		took = ended.Sub(errOut.at)
		if ctx.Err() != nil {
			t.Fatalf("still running 90 s after the start with the node frozen\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
		}
		if !strings.Contains(out.String(), "[OVERALL], RunTime(ms), ") {
			t.Errorf("no [OVERALL] line (exit code %d):\nstdout:\n%s\nstderr:\n%s", cmd.ProcessState.ExitCode(), out.String(), errOut.String())
		}
		return out.String(), errOut.String(), took
	}

	t.Run("maxexecutiontime", func(t *testing.T) {
		// The limit, stopGrace (2 s) and the close (2 s); it took 18 to
		// 22 s when the close waited for the driver.
		const limit = 10 * time.Second
		out, stderr, took := run(t, nil, "-p", "operationcount=0", "-p", "maxexecutiontime=10", "-p", "cassandra.readtimeoutmillis=2000")
		t.Logf("the run took %v with maxexecutiontime=10 and the node frozen after 3 s", took.Round(100*time.Millisecond))
		if took > limit+6*time.Second {
			t.Errorf("the run took %v, want under %v\nstdout:\n%s\nstderr:\n%s", took, limit+6*time.Second, out, stderr)
		}
		timedOut := 0
		for _, m := range regexp.MustCompile(`\[(READ|UPDATE)\], Return=SERVICE_UNAVAILABLE, (\d+)`).FindAllStringSubmatch(out, -1) {
			v, _ := strconv.Atoi(m[2])
			timedOut += v
		}
		if timedOut == 0 {
			t.Errorf("no request counted as SERVICE_UNAVAILABLE after cassandra.readtimeoutmillis=2000 with the node frozen:\n%s", out)
		}
		t.Logf("%d requests timed out", timedOut)
	})

	t.Run("interrupt", func(t *testing.T) {
		// The default read timeout (12 s) is longer than the wait: only
		// the interrupt ends the requests in flight, after stopGrace; then
		// the close (2 s).
		var sent time.Time
		out, stderr, _ := run(t, func(cmd *exec.Cmd) {
			sent = time.Now()
			cmd.Process.Signal(syscall.SIGINT)
		}, "-p", "operationcount=0", "-p", "maxexecutiontime=120")
		after := ended.Sub(sent)
		t.Logf("the run ended %v after SIGINT with the node frozen", after.Round(100*time.Millisecond))
		if after > 6*time.Second {
			t.Errorf("the run ended %v after SIGINT, want under 6 s\nstdout:\n%s\nstderr:\n%s", after, out, stderr)
		}
	})
}

// testFrozenSetup (TestOwnNode) sends Ctrl-C to a run whose node froze
// before it started: the connection ends with it (the driver's own
// connect ran on to its timeout; a close after a schema check that the
// freeze caught took 24 s).
func testFrozenSetup(t *testing.T, n *ownNode) {
	if testing.Short() {
		t.Skip("freezes a node of its own; skipped with -short")
	}
	thaw := n.freeze()
	defer thaw()
	cmd := exec.Command(ycsbBinary(t), "run", "cassandra-cql", "-P", "workloads/workloada", "-p", "hosts="+testHost, "-p", "port="+n.port,
		"-p", "cassandra.keyspace=ycsb_frozen_setup", "-p", "operationcount=100")
	cmd.Dir = repoRoot(t)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := ycsbtest.Watch(cmd)
	time.Sleep(2 * time.Second)
	after := ycsbtest.SignalWithin(t, cmd, done, syscall.SIGINT, 30*time.Second, func() string {
		return "stdout:\n" + out.String() + "\nstderr:\n" + errOut.String()
	})
	t.Logf("the run ended %v after SIGINT in its setup, exit %d: %s", after.Round(100*time.Millisecond), cmd.ProcessState.ExitCode(), strings.TrimSpace(errOut.String()))
	// About 2 s, as every command's Ctrl-C; the driver's own connect
	// gave up 3 s after it, its close after a schema check 24 s.
	if after > 2500*time.Millisecond {
		t.Errorf("the run ended %v after SIGINT in its setup, want under 2.5 s\nstdout:\n%s\nstderr:\n%s", after, out.String(), errOut.String())
	}
	if cmd.ProcessState.ExitCode() == 0 || strings.Contains(errOut.String(), "goroutine ") {
		t.Errorf("exit %d after SIGINT in the setup, want a failure without a stack trace\nstderr:\n%s", cmd.ProcessState.ExitCode(), errOut.String())
	}
}

// stampWriter keeps what is written and the time mark first appeared.
type stampWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	mark string
	at   time.Time
}

func (w *stampWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.at.IsZero() && strings.Contains(w.buf.String(), w.mark) {
		w.at = time.Now()
	}
	return len(p), nil
}

// started waits up to limit for the mark, failing the test without it.
func (w *stampWriter) started(t *testing.T, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		w.mu.Lock()
		at := w.at
		w.mu.Unlock()
		if !at.IsZero() {
			return
		}
	}
	t.Fatalf("no %q within %v of the start:\n%s", w.mark, limit, w.String())
}

func (w *stampWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
