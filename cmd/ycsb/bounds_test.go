package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// TestInputThatCannotWork: sizes no benchmark can run with are one line
// naming the property, exit 2, before anything is allocated or created
// (they used to panic or run out of memory).
func TestInputThatCannotWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	bin := ycsbtest.Binary(t)
	wl, err := filepath.Abs("../../workloads/workloada")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"dev zero", []string{"run", "basic", "-P", "/dev/zero"}, "/dev/zero"},
		{"fieldlength", []string{"load", "basic", "-P", wl, "-p", "fieldlength=10000000000"}, "fieldlength"},
		{"fieldcount", []string{"load", "basic", "-P", wl, "-p", "fieldcount=100000000"}, "fieldcount"},
		{"recordcount with zipfian", []string{"run", "basic", "-P", wl, "-p", "recordcount=9223372036854775807"}, "recordcount"},
		{"threads", []string{"run", "basic", "-P", wl, "-threads", "1000000"}, "threadcount"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, c.args...)
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != 2 {
				t.Fatalf("exit code %d, want 2\nstdout:\n%.500s\nstderr:\n%.2000s", code, stdout.String(), stderr.String())
			}
			msg := strings.TrimSpace(stderr.String())
			if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, c.want) || strings.Contains(msg, "goroutine") {
				t.Errorf("stderr is not one line naming %s:\n%s", c.want, msg)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("created %d files", len(entries))
			}
		})
	}
}
