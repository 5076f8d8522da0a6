package ycsbtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// awaitClusterStart waits while the file is empty and returns how the
// start ended; without YCSB_CLUSTER_STARTED it does not wait.
func TestAwaitClusterStart(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("YCSB_CLUSTER_STARTED", "")
	if err := awaitClusterStart(); err != nil {
		t.Errorf("unset: %v", err)
	}

	path := filepath.Join(dir, "started")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("YCSB_CLUSTER_STARTED", path)
	go func() {
		time.Sleep(700 * time.Millisecond)
		os.WriteFile(path, []byte("ready\n"), 0o644)
	}()
	start := time.Now()
	if err := awaitClusterStart(); err != nil {
		t.Errorf("ready: %v", err)
	}
	if waited := time.Since(start); waited < 700*time.Millisecond {
		t.Errorf("returned after %v, before the file said ready", waited)
	}

	if err := os.WriteFile(path, []byte("failed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := awaitClusterStart(); err == nil || !strings.Contains(err.Error(), "failed") {
		t.Errorf("failed: %v, want the start's failure", err)
	}

	t.Setenv("YCSB_CLUSTER_STARTED", filepath.Join(dir, "absent"))
	if err := awaitClusterStart(); err == nil || !strings.Contains(err.Error(), "YCSB_CLUSTER_STARTED=") {
		t.Errorf("absent file: %v, want an error naming the variable", err)
	}
}
