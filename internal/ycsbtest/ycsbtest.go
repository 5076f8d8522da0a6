// Package ycsbtest helps tests: building the real ycsb binary, comparing
// output with golden files.
package ycsbtest

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Golden compares got with the golden file at path (testdata/...). With
// go test -update it first writes got there.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run with -update to accept):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// Build compiles cmd/ycsb into dir and returns the binary's path.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "ycsb")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/goycsb/ycsb/cmd/ycsb").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/ycsb: %v\n%s", err, out)
	}
	return bin, nil
}

// binary is the one build of cmd/ycsb of a test binary (Binary), in dir,
// which Main makes before the tests run and removes after.
var binary struct {
	dir  string
	once sync.Once
	path string
	err  error
}

// Main runs a package's tests (call it from TestMain) and removes the
// binary Binary built for them: a package whose tests call Binary has
//
//	func TestMain(m *testing.M) { ycsbtest.Main(m) }
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "ycsbtest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary.dir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Binary is cmd/ycsb built for the test binary, once: every test of the
// package runs the same file (go build links it again each time, seconds
// on two cores). It is the executable go run keeps in the build cache
// (since Go 1.24), so the packages of one go test ./... (and the next go
// test, while the sources are the same) share one link; where that cache
// is not found, a build of the package's own. The package's TestMain must
// call Main.
func Binary(t testing.TB) string {
	t.Helper()
	if binary.dir == "" {
		t.Fatal("ycsbtest.Binary: the package's TestMain must call ycsbtest.Main, which removes the binary")
	}
	binary.once.Do(func() {
		if binary.path = cachedBinary(); binary.path == "" {
			binary.path, binary.err = Build(binary.dir)
		}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}

// cachedBinary is the path of cmd/ycsb in the build cache, or "". go run
// -exec echo prints the path of the executable it would run: the cached
// one, or, the first time, a temporary one it removes on return and
// caches, so that asking again finds it.
func cachedBinary() string {
	for range 2 {
		out, err := exec.Command("go", "run", "-exec", "echo", "github.com/goycsb/ycsb/cmd/ycsb").Output()
		if err != nil {
			return ""
		}
		path := strings.TrimSpace(string(out))
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && filepath.Base(path) == "ycsb" {
			return path
		}
	}
	return ""
}

// FreeAddr is a 127.0.0.1 address nothing listens on: a port taken and
// released, for a server a test starts later (or never).
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// WaitingParallel sets how many of a package's parallel tests run at once
// (go test's -parallel, GOMAXPROCS by default) to n, unless the command
// line gave -parallel. For packages whose tests mostly wait (on servers
// starting, paced runs, other processes): on two cores GOMAXPROCS of them
// at a time leaves the machine idle. Call it from TestMain before m.Run.
func WaitingParallel(n int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic(err)
		}
	}
}
