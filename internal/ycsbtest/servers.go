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

// ServerJVMOptions are the JVM options of the Cassandra nodes tests start
// for themselves (and scripts/test.sh's shared ones): the client compiler
// alone. A test's work is too short for C2's compiling to pay for itself
// (a node's start and 30,000 operations: 9 CPU-seconds against 23-26).
const ServerJVMOptions = "-XX:TieredStopAtLevel=1"

// ServerEnv is the environment for scripts/cassandra.sh or
// cassandra-cluster.sh starting a test's own server: this process's, with
// CASSANDRA_JVM_OPTS=ServerJVMOptions unless it sets CASSANDRA_JVM_OPTS.
func ServerEnv() []string {
	env := os.Environ()
	if os.Getenv("CASSANDRA_JVM_OPTS") == "" {
		env = append(env, "CASSANDRA_JVM_OPTS="+ServerJVMOptions)
	}
	return env
}
