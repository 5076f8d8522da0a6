package postgres

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// TestFrozenServer runs `ycsb run jdbc` against an instance of its own that
// is frozen with SIGSTOP mid-run: connections stay open and nothing answers,
// not even a cancel request. The run must still end close to
// maxexecutiontime with its report, counting the operations that ran out of
// db.timeout, and a Ctrl-C during the freeze must end it within seconds.
func TestFrozenServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and freezes a server of its own; skipped with -short")
	}
	t.Parallel() // a server, port and directory of its own
	srv := startOwnServer(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := ycsbtest.Binary(t)
	common := []string{"-P", filepath.Join(root, "workloads", "workloada"),
		"-p", "db.driver=org.postgresql.Driver", "-p", "db.url=" + srv.JDBC(), "-p", "db.user=ycsb", "-p", "db.passwd=ycsb",
		"-p", "table=ycsb_frozen", "-p", "recordcount=1000", "-p", "threadcount=4"}
	load := exec.Command(bin, append([]string{"load", "jdbc", "-p", "jdbc.createtable=true"}, common...)...)
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("load: %v\n%s", err, out)
	}

	var ended time.Time // when the last run ended
	// run starts the phase, freezes the server after 3 s, calls during (if
	// any) 2 s later, and returns the output and how long the run took.
	run := func(t *testing.T, phase string, during func(*exec.Cmd), extra ...string) (stdout, stderr string, took time.Duration) {
		var out, errOut bytes.Buffer
		cmd := exec.Command(bin, append([]string{phase, "jdbc", "-s"}, append(common, extra...)...)...)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		time.Sleep(3 * time.Second)
		thaw := srv.Freeze()
		defer thaw()
		if during != nil {
			time.Sleep(2 * time.Second)
			during(cmd)
		}
		select {
		case <-done:
		case <-time.After(90 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("still running 90 s after the start with the server frozen\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
		}
		ended = time.Now()
		took = ended.Sub(start)
		if !strings.Contains(out.String(), "[OVERALL], RunTime(ms), ") {
			t.Errorf("no [OVERALL] line (exit code %d):\nstdout:\n%s\nstderr:\n%s", cmd.ProcessState.ExitCode(), out.String(), errOut.String())
		}
		return out.String(), errOut.String(), took
	}

	t.Run("maxexecutiontime", func(t *testing.T) {
		// The limit, stopGrace (2 s), a session close (5 s at most) and
		// the binary's start and load check.
		const limit = 10 * time.Second
		out, stderr, took := run(t, "run", nil, "-p", "operationcount=0", "-p", "maxexecutiontime=10", "-p", "db.timeout=2")
		t.Logf("the run took %v with maxexecutiontime=10 and the server frozen after 3 s", took.Round(100*time.Millisecond))
		if took > limit+12*time.Second {
			t.Errorf("the run took %v, want under %v\nstdout:\n%s\nstderr:\n%s", took, limit+12*time.Second, out, stderr)
		}
		timedOut := 0
		for _, m := range regexp.MustCompile(`\[(READ|UPDATE)\], Return=SERVICE_UNAVAILABLE, (\d+)`).FindAllStringSubmatch(out, -1) {
			n, _ := strconv.Atoi(m[2])
			timedOut += n
		}
		if timedOut == 0 {
			t.Errorf("no operation counted as SERVICE_UNAVAILABLE after db.timeout=2 with the server frozen:\n%s", out)
		}
		t.Logf("%d operations timed out", timedOut)
	})

	t.Run("close", func(t *testing.T) {
		// A load whose rows stay buffered until the sessions close, which
		// is when the server is frozen: the close gives up after its 5 s
		// and the rows are counted as lost, not inserted.
		out, stderr, took := run(t, "load", nil, "-p", "recordcount=1001000", "-p", "insertstart=1000", "-p", "insertcount=1000000",
			"-p", "jdbc.batchupdateapi=true", "-p", "db.batchsize=1000000", "-p", "target=1000", "-p", "maxexecutiontime=5")
		t.Logf("the load took %v with maxexecutiontime=5 and the server frozen after 3 s", took.Round(100*time.Millisecond))
		if limit := 5*time.Second + 12*time.Second; took > limit {
			t.Errorf("the load took %v, want under %v\nstdout:\n%s\nstderr:\n%s", took, limit, out, stderr)
		}
		if strings.Contains(out, "[INSERT], Return=OK") {
			t.Errorf("rows counted as inserted though no batch was sent:\n%s", out)
		}
		if !regexp.MustCompile(`\[INSERT\], Return=(ERROR|SERVICE_UNAVAILABLE), [1-9]`).MatchString(out) {
			t.Errorf("the rows lost with the batch are not counted:\n%s", out)
		}
	})

	t.Run("interrupt", func(t *testing.T) {
		// The default db.timeout (30 s) is longer than the test waits: only
		// the interrupt ends the operations in flight, after stopGrace.
		var sent time.Time
		out, stderr, _ := run(t, "run", func(cmd *exec.Cmd) {
			sent = time.Now()
			cmd.Process.Signal(syscall.SIGINT)
		}, "-p", "operationcount=0", "-p", "maxexecutiontime=120")
		after := ended.Sub(sent)
		t.Logf("the run ended %v after SIGINT with the server frozen", after.Round(100*time.Millisecond))
		if after > 8*time.Second {
			t.Errorf("the run ended %v after SIGINT, want under 8 s\nstdout:\n%s\nstderr:\n%s", after, out, stderr)
		}
	})

	t.Run("open", func(t *testing.T) {
		// A server frozen before the run: the binding's start-up check
		// (connect, version, table) is bounded by db.timeout too, and the
		// run ends with one line and exit code 2.
		thaw := srv.Freeze()
		defer thaw()
		var out, errOut bytes.Buffer
		cmd := exec.Command(bin, append([]string{"run", "jdbc"}, append(common, "-p", "db.timeout=2", "-p", "operationcount=10")...)...)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		start := time.Now()
		err := cmd.Run()
		took := time.Since(start)
		t.Logf("the start-up check gave up after %v with db.timeout=2", took.Round(100*time.Millisecond))
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("exit %v, want 2\nstderr:\n%s", err, errOut.String())
		}
		if took > 8*time.Second {
			t.Errorf("the start-up check took %v with db.timeout=2, want under 8 s\nstderr:\n%s", took, errOut.String())
		}
	})
}
