package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// fleetArgs is the command line of client index of count meeting at addr.
func fleetArgs(wl, addr string, count, index int, extra ...string) []string {
	args := []string{"run", "basic", "-P", wl, "-p", "recordcount=1000", "-p", "operationcount=300",
		"-p", "client.count=" + strconv.Itoa(count), "-p", "client.index=" + strconv.Itoa(index), "-p", "client.rendezvous=" + addr}
	for _, e := range extra {
		args = append(args, "-p", e)
	}
	return args
}

// TestRendezvousProcesses: three processes started 2 s apart, client 0
// the second (so client 2 connects before anyone listens), measure over
// one window, although their clocks are not consulted to agree on it.
func TestRendezvousProcesses(t *testing.T) {
	bin, wl := binaryAndWorkload(t)
	addr, dir := ycsbtest.FreeAddr(t), t.TempDir()
	order := []int{2, 0, 1}
	outs := make([]outcome, 3)
	launched := make([]time.Time, 3)
	var wg sync.WaitGroup
	for k, index := range order {
		if k > 0 {
			time.Sleep(2 * time.Second)
		}
		launched[index] = time.Now()
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[index] = runBinary(t, bin, 0, fleetArgs(wl, addr, 3, index, "report.json="+filepath.Join(dir, strconv.Itoa(index)+".json"))...)
		}()
	}
	wg.Wait()
	reps := make([]*jsonreport.Report, 3)
	for i, o := range outs {
		if o.code != 0 {
			t.Fatalf("client %d: exit %d\n%s", i, o.code, o.stderr)
		}
		data, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(i)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if reps[i], err = jsonreport.Read(data); err != nil {
			t.Fatal(err)
		}
	}
	for i, rep := range reps {
		if d := rep.Start.Sub(reps[0].Start).Abs(); d > 100*time.Millisecond {
			t.Errorf("client %d started %v apart from client 0", i, d)
		}
		// Nobody started before the last was launched, 4 s after the first.
		if !rep.Start.After(launched[order[2]]) {
			t.Errorf("client %d started at %v, before client %d was launched at %v", i, rep.Start, order[2], launched[order[2]])
		}
		if rep.Client == nil || rep.Client.Index != i || rep.Operations != 100 || rep.StartTime == nil {
			t.Errorf("client %d: %+v, %d operations, starttime %v", i, rep.Client, rep.Operations, rep.StartTime)
		}
	}
	for _, want := range []string{"Rendezvous: client 0 listening on " + addr, "Rendezvous: client 2 checked in from 127.0.0.1:", "Rendezvous: all 3 clients checked in; starting in 500ms"} {
		if !strings.Contains(outs[0].stderr, want) {
			t.Errorf("client 0's stderr lacks %q:\n%s", want, outs[0].stderr)
		}
	}
	if !strings.Contains(outs[2].stderr, "Rendezvous: checked in, 2 of 3 clients so far") {
		t.Errorf("client 2's stderr:\n%s", outs[2].stderr)
	}
}

// TestRendezvousRefusals: clients of another experiment are refused (exit
// 2, one line); client 0 says whom it refused, and, never joined, fails
// after its timeout naming the missing client and why it was refused, with
// nothing run or written.
func TestRendezvousRefusals(t *testing.T) {
	bin, wl := binaryAndWorkload(t)
	addr := ycsbtest.FreeAddr(t)
	var coord outcome
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		coord = runBinary(t, bin, 0, fleetArgs(wl, addr, 2, 0, "client.rendezvous.timeout=4", "report.json=r.json")...)
	}()
	time.Sleep(500 * time.Millisecond)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{fleetArgs(wl, addr, 2, 1, "readproportion=0.9", "updateproportion=0.1"), "the experiment's fingerprint is "},
		{fleetArgs(wl, addr, 3, 1), "client.count=3, but client 0 has client.count=2: a client of another run"},
	} {
		// The refusal comes after setup, below the start-up lines.
		o := runBinary(t, bin, 0, append(tc.args, "-p", "report.json=r.json")...)
		lines := strings.Split(strings.TrimSpace(o.stderr), "\n")
		msg := lines[len(lines)-1]
		if o.code != 2 || o.created != 0 || !strings.HasPrefix(msg, "ycsb: client.rendezvous="+addr+" (nothing was run): client 1: refused by client 0: ") || !strings.Contains(msg, tc.want) {
			t.Errorf("exit %d, %d files, last line %q; want 2, none, a refusal about %q", o.code, o.created, msg, tc.want)
		}
	}
	wg.Wait()
	if coord.code != 1 || !strings.Contains(coord.stderr, "ycsb: client.rendezvous="+addr+" (nothing was run): client 0: 1 of 2 clients checked in within client.rendezvous.timeout 4s at "+addr+"; never came: client.index 1; refused: client.index 1 (client.count=3, but client 0 has client.count=2: a client of another run)\n") ||
		strings.Count(coord.stderr, "Rendezvous: refused a client from 127.0.0.1:") != 2 {
		t.Errorf("client 0: exit %d\n%s", coord.code, coord.stderr)
	}
	if coord.created != 0 || strings.Contains(coord.stdout, "[OVERALL]") {
		t.Errorf("client 0 wrote %d files or a report:\n%s", coord.created, coord.stdout)
	}
}

// TestRendezvousInterrupted: Ctrl-C during the wait exits 130 at once,
// with nothing run.
func TestRendezvousInterrupted(t *testing.T) {
	bin, wl := binaryAndWorkload(t)
	for _, index := range []int{0, 1} {
		// Signalled once it waits, not after a guessed time.
		o := runBinaryUntil(t, bin, "Rendezvous: client "+strconv.Itoa(index), fleetArgs(wl, ycsbtest.FreeAddr(t), 2, index, "report.json=r.json")...)
		if o.code != 130 || !strings.Contains(o.stderr, "interrupted while waiting for the rendezvous at 127.0.0.1:") || o.created != 0 || strings.Contains(o.stdout, "[OVERALL]") {
			t.Errorf("client %d: exit %d, %d files\n%s\n%s", index, o.code, o.created, o.stdout, o.stderr)
		}
		if o.sinceSignal > 2*time.Second {
			t.Errorf("client %d: ended %v after SIGINT", index, o.sinceSignal)
		}
	}
}
