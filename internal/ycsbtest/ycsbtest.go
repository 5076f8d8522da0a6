// Package ycsbtest helps tests that run the real ycsb binary.
package ycsbtest

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
)

// Build compiles cmd/ycsb into dir and returns the binary's path.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "ycsb")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/goycsb/ycsb/cmd/ycsb").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/ycsb: %v\n%s", err, out)
	}
	return bin, nil
}

// Binary builds cmd/ycsb into a temporary directory of t.
func Binary(t testing.TB) string {
	t.Helper()
	bin, err := Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}
