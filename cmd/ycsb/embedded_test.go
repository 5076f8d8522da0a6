package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// TestEmbeddedFleetRefused: an embedded engine runs in each client's own
// process, so a fleet of clients (client.count) or of pods (ycsb kube)
// would each benchmark a store of its own. Both are refused in one line
// naming the binding and the option, exit 2, with nothing written and the
// engine's directory never created.
func TestEmbeddedFleetRefused(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	bin := ycsbtest.Binary(t)
	workload, err := filepath.Abs("../../workloads/workloada")
	if err != nil {
		t.Fatal(err)
	}
	const fleet = "ycsb: client.count: %s is an embedded engine, in each client's own process: every client would benchmark a store of its own (and processes cannot share engine.dir: the engine locks it); run one process, with -threads for more work\n"
	const kube = "ycsb: ycsb kube cannot run %s, an embedded engine in each pod's own process: every pod would benchmark a store of its own, and a run's pods an empty one; run ycsb load and ycsb run on one machine, with -threads for more work\n"
	for _, tc := range []struct {
		name, binding, want string
		args                []string
	}{
		{"load", "pebble", fleet, []string{"load", "pebble", "-p", "client.count=2", "-p", "client.index=0"}},
		{"run", "pebble", fleet, []string{"run", "pebble", "-p", "client.count=2", "-p", "client.index=1", "-p", "operationcount=10"}},
		{"capacity", "pebble", fleet, []string{"capacity", "pebble", "-p", "client.count=2", "-p", "client.index=0", "-p", "slo=READ.p99<=10ms",
			"-p", "client.rendezvous=127.0.0.1:1"}},
		// rocksdb is refused alike, whether this binary has it or not.
		{"rocksdb run", "rocksdb", fleet, []string{"run", "rocksdb", "-p", "client.count=2", "-p", "client.index=0", "-p", "operationcount=10"}},
		{"kube load", "pebble", kube, []string{"kube", "load", "pebble", "-clients", "3"}},
		{"kube run, one pod", "pebble", kube, []string{"kube", "run", "pebble", "-clients", "1"}},
		{"kube capacity", "pebble", kube, []string{"kube", "capacity", "pebble", "-clients", "2", "-p", "slo=READ.p99<=10ms"}},
		{"kube -db alias", "rocksdb", kube, []string{"kube", "run", "-db", "site.ycsb.db.rocksdb.RocksDBClient", "-clients", "2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			dir := filepath.Join(work, "store")
			args := append(tc.args, "-P", workload, "-p", "recordcount=20",
				"-p", "engine.dir="+dir, "-p", "exportfile="+filepath.Join(work, "out.txt"))
			cmd := exec.Command(bin, args...)
			cmd.Dir = work
			var so, se strings.Builder
			cmd.Stdout, cmd.Stderr = &so, &se
			cmd.Run()
			want := strings.Replace(tc.want, "%s", tc.binding, 1)
			if code := cmd.ProcessState.ExitCode(); code != 2 || se.String() != want || so.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, so.String(), se.String(), want)
			}
			if entries, _ := os.ReadDir(work); len(entries) != 0 {
				t.Errorf("created %v", entries)
			}
		})
	}
}
