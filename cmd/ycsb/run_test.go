package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// binaryAndWorkload builds the binary (skipped with -short) and returns it
// with the absolute path of workloads/workloada.
func binaryAndWorkload(t *testing.T) (bin, workloada string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	wl, err := filepath.Abs("../../workloads/workloada")
	if err != nil {
		t.Fatal(err)
	}
	return ycsbtest.Binary(t), wl
}

// outcome is what one run of the binary left behind.
type outcome struct {
	code           int
	stdout, stderr string
	created        int // entries the run created in its working directory
	sinceSignal    time.Duration
}

// runBinary runs bin with args in an empty directory of its own, at most
// 30 s; with interruptAfter > 0 it sends SIGINT that long after the start.
func runBinary(t *testing.T, bin string, interruptAfter time.Duration, args ...string) outcome {
	t.Helper()
	return runInterrupted(t, bin, func(int, *lockedBuffer) bool {
		if interruptAfter <= 0 {
			return false
		}
		time.Sleep(interruptAfter)
		return true
	}, args...)
}

// runBinaryWhenOpening is runBinary that sends SIGINT once a thread of the
// process waits in open(2) for a named pipe's writer: once it waits, as
// seen from /proc, however slow the machine is to get there.
func runBinaryWhenOpening(t *testing.T, bin string, args ...string) outcome {
	t.Helper()
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skipf("no /proc to see the process wait for the pipe: %v", err)
	}
	return runInterrupted(t, bin, func(pid int, _ *lockedBuffer) bool {
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if waitsForPipe(pid) {
				return true
			}
		}
		t.Errorf("process %d did not wait for a named pipe within 20 s", pid)
		return true
	}, args...)
}

// openatSyscall is openat(2)'s number as /proc/<pid>/task/<tid>/syscall
// shows it ("" where not known).
var openatSyscall = map[string]string{"amd64": "257", "arm64": "56"}[runtime.GOARCH]

// waitsForPipe says a thread of process pid sleeps in the kernel's wait
// for a named pipe's other end (its wchan), or, where /proc does not name
// kernel functions, in openat(2).
func waitsForPipe(pid int) bool {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	for _, task := range tasks {
		if wchan, err := os.ReadFile(filepath.Join(task, "wchan")); err == nil && string(wchan) == "wait_for_partner" {
			return true
		}
		if sc, err := os.ReadFile(filepath.Join(task, "syscall")); err == nil && openatSyscall != "" && strings.HasPrefix(string(sc), openatSyscall+" ") {
			return true
		}
	}
	return false
}

// runBinaryUntil is runBinary that sends SIGINT once stderr holds marker:
// at a known point of the run, however slow the machine is to get there.
func runBinaryUntil(t *testing.T, bin, marker string, args ...string) outcome {
	t.Helper()
	return runInterrupted(t, bin, func(_ int, stderr *lockedBuffer) bool {
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if strings.Contains(stderr.String(), marker) {
				return true
			}
		}
		t.Errorf("no %q on stderr within 20 s:\n%s", marker, stderr.String())
		return true
	}, args...)
}

// lockedBuffer is a bytes.Buffer the process writes while the test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runInterrupted runs bin with args in an empty directory of its own, at
// most 30 s, and sends SIGINT when interrupt, called once it has started
// with its process id, returns true.
func runInterrupted(t *testing.T, bin string, interrupt func(pid int, stderr *lockedBuffer) bool, args ...string) outcome {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if interrupt(cmd.Process.Pid, &stderr) {
		cmd.Process.Signal(syscall.SIGINT)
	}
	signalled := time.Now()
	cmd.Wait()
	entries, _ := os.ReadDir(dir)
	return outcome{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String(),
		created: len(entries), sinceSignal: time.Since(signalled)}
}

// wantBadInput runs bin with args and checks the answer to bad input: exit
// code 2, one line on stderr, nothing created. It returns that line.
func wantBadInput(t *testing.T, bin string, args ...string) string {
	t.Helper()
	o := runBinary(t, bin, 0, args...)
	if o.code != 2 {
		t.Fatalf("exit code %d, want 2\nstdout:\n%.500s\nstderr:\n%.2000s", o.code, o.stdout, o.stderr)
	}
	msg := strings.TrimSpace(o.stderr)
	if strings.Count(msg, "\n") != 0 || strings.Contains(msg, "goroutine") {
		t.Errorf("stderr is not one line:\n%s", msg)
	}
	if o.created != 0 {
		t.Errorf("created %d files", o.created)
	}
	return msg
}
