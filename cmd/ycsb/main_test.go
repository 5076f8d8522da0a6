package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/stopsignal"
	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// TestSignalsPrintTheReport sends real signals to a running binary: the run
// stops, the report of the work done is printed, and the exit code says it
// was interrupted.
func TestSignalsPrintTheReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	bin := ycsbtest.Binary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "run", "basic", "-P", "../../workloads/workloada",
				"-p", "operationcount=0", "-p", "basicdb.simulatedelay=1")
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitStarted(t, cmd, &stderr)
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("still running 20 s after %v", sig)
			}
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Errorf("exit code %d, want 130; stderr:\n%s", code, stderr.String())
			}
			out := stdout.String()
			if !strings.Contains(out, "[OVERALL], RunTime(ms), ") || !strings.Contains(out, "[READ], Return=OK, ") {
				t.Errorf("no report after %v:\n%s", sig, out)
			}
			if strings.Contains(out, "Return=ERROR") || strings.Contains(stderr.String(), "panic") {
				t.Errorf("interrupted operations counted as errors or a panic:\n%s\n%s", out, stderr.String())
			}
		})
	}
}

// startRun starts a run of the basic binding with 4 threads that only a
// signal ends, in a process group of its own (as a shell's job is), and
// waits until it has started: its signal handling set up and "Starting
// test." said, however slow the machine is to get there, then 700 ms
// for operations to be done.
func startRun(t *testing.T, bin string, extra ...string) (*exec.Cmd, *lockedBuffer, *lockedBuffer) {
	t.Helper()
	args := append([]string{"run", "basic", "-P", "../../workloads/workloada", "-threads", "4",
		"-p", "operationcount=100000000", "-p", "basicdb.simulatedelay=1"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitStarted(t, cmd, &stderr)
	return cmd, &stdout, &stderr
}

// waitStarted waits until the run cmd says "Starting test." on stderr (its
// signal handling set up), however slow the machine is to get there, then
// 700 ms for operations to be done.
func waitStarted(t *testing.T, cmd *exec.Cmd, stderr *lockedBuffer) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(stderr.String(), "Starting test."); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no \"Starting test.\" on stderr within 20 s:\n%s", stderr.String())
		}
	}
	time.Sleep(700 * time.Millisecond)
}

// wait waits for cmd, killing it (and failing) if it is still running after
// limit: a safety net, not a timing assertion.
func wait(t *testing.T, cmd *exec.Cmd, limit time.Duration, stderr fmt.Stringer) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		t.Fatalf("still running %v after the signals; stderr:\n%s", limit, stderr.String())
	}
}

// TestSignalsTogetherAreOne: two signals that arrive together (timeout(1)
// signals the process and then its process group) are one request: the
// run stops, prints its report marked interrupted, and exits 130 rather
// than as a second Ctrl-C would.
func TestSignalsTogetherAreOne(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	bin := ycsbtest.Binary(t)
	for _, tc := range []struct {
		name string
		send func(pid int)
		by   string
	}{
		{"SIGTERM twice to the process", func(pid int) {
			syscall.Kill(pid, syscall.SIGTERM)
			syscall.Kill(pid, syscall.SIGTERM)
		}, "SIGTERM"},
		{"SIGTERM to the process then its group", func(pid int) {
			syscall.Kill(pid, syscall.SIGTERM)
			syscall.Kill(-pid, syscall.SIGTERM)
		}, "SIGTERM"},
		{"SIGINT then SIGTERM", func(pid int) {
			syscall.Kill(pid, syscall.SIGINT)
			syscall.Kill(pid, syscall.SIGTERM)
		}, "SIGINT"},
		{"SIGINT three times to the group", func(pid int) {
			for range 3 {
				syscall.Kill(-pid, syscall.SIGINT)
			}
		}, "SIGINT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, stdout, stderr := startRun(t, bin)
			tc.send(cmd.Process.Pid)
			wait(t, cmd, 20*time.Second, stderr)
			checkInterrupted(t, cmd.ProcessState.ExitCode(), 130, stdout.String(), stderr.String(), tc.by)
		})
	}
}

// checkInterrupted asserts the exit code and a report marked interrupted
// by the signal by, with its one line on stderr.
func checkInterrupted(t *testing.T, code, want int, out, errs, by string) {
	t.Helper()
	if code != want {
		t.Errorf("exit code %d, want %d; stderr:\n%s", code, want, errs)
	}
	if strings.Contains(errs, "interrupted again") {
		t.Errorf("taken as a second Ctrl-C:\n%s", errs)
	}
	if !strings.Contains(out, "[OVERALL], RunTime(ms), ") || !strings.Contains(out, "[READ], Return=OK, ") {
		t.Errorf("no report:\n%s", out)
	}
	if !strings.Contains(out, "[OVERALL], Interrupted, by "+by+" after ") || !strings.Contains(out, " of 100000000 operations\n") {
		t.Errorf("the report is not marked interrupted by %s:\n%s", by, out)
	}
	if n := strings.Count(errs, "Run interrupted by "+by+" after "); n != 1 {
		t.Errorf("%d lines on stderr say the run was interrupted, want 1:\n%s", n, errs)
	}
}

// TestTimeout runs the binary under the real timeout(1), which sends
// SIGTERM to the child and then to the process group: the report is
// printed every time; timeout exits 124 itself, and with
// --preserve-status passes on ycsb's 130.
func TestTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	timeout, err := exec.LookPath("timeout")
	if err != nil {
		t.Skip("no timeout(1)")
	}
	bin := ycsbtest.Binary(t)
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"1"}, 124},
		{[]string{"--preserve-status", "1"}, 130},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append(tc.args, bin, "run", "basic", "-P", "../../workloads/workloada", "-threads", "4",
				"-p", "operationcount=100000000", "-p", "basicdb.simulatedelay=1")
			cmd := exec.Command(timeout, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			wait(t, cmd, 30*time.Second, &stderr)
			checkInterrupted(t, cmd.ProcessState.ExitCode(), tc.want, stdout.String(), stderr.String(), "SIGTERM")
		})
	}
}

// TestSecondInterruptExits: a second SIGINT after stopsignal.Window ends
// the process at once with 130 and no report, even while the binding is
// still busy (here a 5 s simulated delay that the stop grace period would
// otherwise wait for).
func TestSecondInterruptExits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	bin := ycsbtest.Binary(t)
	cmd, stdout, stderr := startRun(t, bin, "-p", "basicdb.simulatedelay=5000", "-p", "basicdb.randomizedelay=false")
	cmd.Process.Signal(syscall.SIGINT)
	// Well after Window: the process may take a while on a busy machine
	// to note the first signal's arrival.
	time.Sleep(stopsignal.Window + time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	wait(t, cmd, 20*time.Second, stderr)
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit code %d, want 130; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "ycsb: interrupted again: exiting without a report\n") {
		t.Errorf("stderr does not say it exits without a report:\n%s", stderr.String())
	}
	if strings.Contains(stdout.String(), "[OVERALL]") {
		t.Errorf("a report after the second SIGINT:\n%s", stdout.String())
	}
}
