package main

import (
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

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
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(700 * time.Millisecond)
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

// TestSecondInterruptExits: a second SIGINT ends the process at once with
// 130, even while the binding is still busy (here a 5 s simulated delay
// that the stop grace period would otherwise wait for).
func TestSecondInterruptExits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	bin := ycsbtest.Binary(t)
	cmd := exec.Command(bin, "run", "basic", "-P", "../../workloads/workloada",
		"-p", "operationcount=0", "-p", "basicdb.simulatedelay=5000", "-p", "basicdb.randomizedelay=false")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(1500 * time.Millisecond):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running after the second SIGINT; stderr:\n%s", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit code %d, want 130; stderr:\n%s", code, stderr.String())
	}
}
