package ycsbtest

import (
	"os"
	"testing"
)

// InCI reports whether the tests run in CI, where a missing server is a
// failure rather than a reason to skip.
func InCI() bool { return os.Getenv("CI") == "true" }

// NoServers reports whether server tests are switched off (YCSB_NO_SERVERS,
// set by `make unit`).
func NoServers() bool { return os.Getenv("YCSB_NO_SERVERS") != "" }

// SkipServerTests skips t when server tests are switched off, before it
// touches any server.
func SkipServerTests(t testing.TB) {
	t.Helper()
	if NoServers() {
		t.Skip("YCSB_NO_SERVERS is set: no server tests")
	}
}

// NeedServer skips (outside CI) or fails (in CI) when a test's server cannot
// be reached. With YCSB_NO_SERVERS set it always skips.
func NeedServer(t testing.TB, what string, err error) {
	t.Helper()
	SkipServerTests(t)
	if err == nil {
		return
	}
	if InCI() {
		t.Fatalf("%s is required in CI but not available: %v", what, err)
	}
	t.Skipf("skipping: %s not available (%v); start it with the Makefile target, or set CI=true to make this a failure", what, err)
}
