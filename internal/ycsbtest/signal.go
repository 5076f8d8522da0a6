package ycsbtest

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// Watch waits for cmd, which Start started, in a goroutine of its own: the
// channel closes when the process has ended (cmd.ProcessState is set).
func Watch(cmd *exec.Cmd) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	return done
}

// SignalWithin sends sig to cmd, watched by done (Watch), and waits for it
// to end: it returns how long that took after the signal. A process still
// running limit after the signal is killed and fails t, with what show
// returns (its output).
func SignalWithin(t testing.TB, cmd *exec.Cmd, done <-chan struct{}, sig os.Signal, limit time.Duration, show func() string) time.Duration {
	t.Helper()
	sent := time.Now()
	cmd.Process.Signal(sig)
	select {
	case <-done:
		return time.Since(sent)
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running %v after %v:\n%s", limit, sig, show())
		return 0
	}
}
