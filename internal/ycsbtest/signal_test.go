package ycsbtest

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestSignalWithin: a process that a signal ends is waited for and the
// time it took after the signal returned.
func TestSignalWithin(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	done := Watch(cmd)
	after := SignalWithin(t, cmd, done, syscall.SIGTERM, 10*time.Second, func() string { return "" })
	if after <= 0 || after > 5*time.Second || cmd.ProcessState == nil || cmd.ProcessState.Success() {
		t.Errorf("ended %v after SIGTERM, state %v: want a prompt end by the signal", after, cmd.ProcessState)
	}
}
