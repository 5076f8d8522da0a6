package ycsb

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

func TestRendezvousBadInput(t *testing.T) {
	fleet := map[string]string{"client.count": "3", "client.index": "1"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range fleet {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		p    map[string]string
		want string
	}{
		{map[string]string{"client.rendezvous": "127.0.0.1:7070"}, "client.rendezvous: needs a fleet to meet: client.count of 2 or more"},
		{map[string]string{"client.rendezvous": "127.0.0.1:7070", "client.count": "1", "client.index": "0"}, "client.rendezvous: needs a fleet"},
		{with("client.rendezvous", "127.0.0.1:7070", "starttime", time.Now().Add(time.Minute).Format(time.RFC3339)), "client.rendezvous: give client.rendezvous or starttime, not both"},
		{with("client.rendezvous", "127.0.0.1"), `client.rendezvous: expected HOST:PORT, where client 0 listens and the others connect (for example 10.0.0.5:7070), got "127.0.0.1"`},
		{with("client.rendezvous", ":7070"), `client.rendezvous: expected HOST:PORT, where client 0 listens and the others connect (for example 10.0.0.5:7070), got ":7070"`},
		{with("client.rendezvous", "h:0"), `client.rendezvous: expected HOST:PORT, where client 0 listens and the others connect (for example 10.0.0.5:7070), got "h:0"`},
		{with("client.rendezvous", "h:65536"), `client.rendezvous: expected HOST:PORT, where client 0 listens and the others connect (for example 10.0.0.5:7070), got "h:65536"`},
		{with("client.rendezvous", "h:http"), `client.rendezvous: expected HOST:PORT, where client 0 listens and the others connect (for example 10.0.0.5:7070), got "h:http"`},
		{with("client.rendezvous.timeout", "60"), "client.rendezvous.timeout: needs client.rendezvous"},
		{with("client.rendezvous", "h:7070", "client.rendezvous.timeout", "0"), "client.rendezvous.timeout"},
		{with("client.rendezvous", "h:7070", "client.rendezvous.timeout", "86401"), "client.rendezvous.timeout"},
		{with("client.rendezvous", "h:7070", "client.rendezvous.timeout", "NaN"), "client.rendezvous.timeout"},
	} {
		_, stderr, err := runBasic(t, context.Background(), tc.p)
		if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line of bad input with %q", tc.p, err, tc.want)
		}
		if stderr != "" {
			t.Errorf("%v: output before the check:\n%s", tc.p, stderr)
		}
	}
}

// TestRendezvousRuns: three clients started 300 ms apart, client 0 the
// second, start measuring together, and record the start in the report.
func TestRendezvousRuns(t *testing.T) {
	addr, dir := ycsbtest.FreeAddr(t), t.TempDir()
	var wg sync.WaitGroup
	errs, stderrs := make([]error, 3), make([]string, 3)
	for k, index := range []int{1, 0, 2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(k) * 300 * time.Millisecond)
			_, stderrs[index], errs[index] = runBasic(t, context.Background(), map[string]string{
				"client.count": "3", "client.index": strconv.Itoa(index), "client.rendezvous": addr,
				"operationcount": "30", "report.json": filepath.Join(dir, strconv.Itoa(index)+".json"),
			})
		}()
	}
	wg.Wait()
	for i := range 3 {
		if errs[i] != nil {
			t.Fatalf("client %d: %v\n%s", i, errs[i], stderrs[i])
		}
	}
	first := readReport(t, filepath.Join(dir, "0.json"))
	for i := range 3 {
		rep := readReport(t, filepath.Join(dir, strconv.Itoa(i)+".json"))
		if d := rep.Start.Sub(first.Start).Abs(); d > 100*time.Millisecond {
			t.Errorf("client %d started %v apart from client 0", i, d)
		}
		if rep.StartTime == nil || rep.Start.Before(*rep.StartTime) || rep.Settings["client.rendezvous"] != addr || rep.Operations != 10 {
			t.Errorf("client %d: starttime %v, start %v, settings %v, %d operations", i, rep.StartTime, rep.Start, rep.Settings, rep.Operations)
		}
		if at := strings.Index(stderrs[i], "Rendezvous: "); at < 0 || at > strings.Index(stderrs[i], "Starting test.") {
			t.Errorf("no rendezvous line before the start:\n%s", stderrs[i])
		}
	}
	if !strings.Contains(stderrs[0], "Rendezvous: all 3 clients checked in; starting in 500ms") ||
		!strings.Contains(stderrs[2], "Rendezvous: client 0 says start in ") {
		t.Errorf("rendezvous lines:\n%s\n%s", stderrs[0], stderrs[2])
	}
}

// TestRendezvousFails: a client 0 whose fleet never comes fails after its
// timeout, naming the missing clients, with nothing run; Ctrl-C during the
// wait is an interruption, not bad input.
func TestRendezvousFails(t *testing.T) {
	report := filepath.Join(t.TempDir(), "r.json")
	fleet := map[string]string{"client.count": "3", "client.index": "0", "client.rendezvous": ycsbtest.FreeAddr(t),
		"client.rendezvous.timeout": "1", "report.json": report}
	stdout, _, err := runBasic(t, context.Background(), fleet)
	if err == nil || props.IsBadInput(err) || !strings.HasSuffix(err.Error(), "never came: client.index 1, 2") ||
		!strings.Contains(err.Error(), "(nothing was run): client 0: 1 of 3 clients checked in within client.rendezvous.timeout 1s") {
		t.Errorf("error %v", err)
	}
	if _, serr := os.Stat(report); serr == nil || strings.Contains(stdout, "[OVERALL]") {
		t.Errorf("a report of a run that did not start:\n%s", stdout)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	fleet["client.rendezvous.timeout"], fleet["client.index"] = "60", "1"
	_, _, err = runBasic(t, ctx, fleet)
	if err == nil || props.IsBadInput(err) || !strings.Contains(err.Error(), "interrupted while waiting for the rendezvous at") {
		t.Errorf("error %v, want an interruption", err)
	}
}

// TestFingerprint: the fingerprint changes with any property of the
// experiment, not with a client's index, outputs or secrets.
func TestFingerprint(t *testing.T) {
	base := map[string]string{"workload": "core", "recordcount": "1000", "client.count": "3", "client.index": "0"}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for bk, bv := range base {
			m[bk] = bv
		}
		m[k] = v
		return m
	}
	fp := fingerprint(base)
	if len(fp) != 16 || fp != fingerprint(with("workload", "core")) {
		t.Fatalf("fingerprint %q, not stable", fp)
	}
	for _, kv := range [][2]string{{"client.index", "2"}, {"report.json", "r2.json"}, {"exportfile", "x"}, {"label", "b"},
		{"client.rendezvous.timeout", "60"}, {"hdrhistogram.output.path", "p-"}, {"db.passwd", "x"}, {"cassandra.password", "y"}} {
		if got := fingerprint(with(kv[0], kv[1])); got != fp {
			t.Errorf("%s=%s changes the fingerprint", kv[0], kv[1])
		}
	}
	for _, kv := range [][2]string{{"recordcount", "1001"}, {"client.count", "4"}, {"readproportion", "0.9"}, {"dotransactions", "false"},
		{"threadcount", "8"}, {"client.rendezvous", "h:1"}} {
		if got := fingerprint(with(kv[0], kv[1])); got == fp {
			t.Errorf("%s=%s leaves the fingerprint as it is", kv[0], kv[1])
		}
	}
}
