package postgres

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// TestRestartMidRun restarts a PostgreSQL instance of its own in the middle
// of a `ycsb run jdbc` with maxexecutiontime: the run must count the failed
// operations as Return=ERROR, reconnect, and end with its report and exit
// code 0. The shared server of the other tests is never touched.
func TestRestartMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and restarts a server of its own; skipped with -short")
	}
	t.Parallel() // a server, port and directory of its own
	srv := startOwnServer(t)
	out, _ := runThroughRestart(t, srv, "workloada", 10, "-s", "-p", "db.driver=org.postgresql.Driver",
		"-p", "table=ycsb_fault", "-p", "recordcount=2000", "-p", "threadcount=4")
	if !strings.Contains(out, "[OVERALL], RunTime(ms), ") {
		t.Errorf("no [OVERALL] line:\n%s", out)
	}
	errors := 0
	for _, m := range regexp.MustCompile(`\[(READ|UPDATE)\], Return=ERROR, (\d+)`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[2])
		errors += n
	}
	if errors == 0 {
		t.Errorf("no Return=ERROR counts after a restart:\n%s", out)
	}
	oks := regexp.MustCompile(`\[READ\], Return=OK, (\d+)`).FindStringSubmatch(out)
	if oks == nil {
		t.Errorf("no successful reads:\n%s", out)
	}
	m := regexp.MustCompile(`\[CONNECTIONS\], Reconnects, (\d+)`).FindStringSubmatch(out)
	if m == nil || m[1] == "0" {
		t.Errorf("no reconnects reported:\n%s", out)
	}
	t.Logf("errors %d, reads OK %s, reconnects %s", errors, oks[1], m[1])
}

// TestEconomyRestartMidRun restarts a PostgreSQL instance of its own in the
// middle of a closed-economy run at SERIALIZABLE: the transfers cut by the
// restart are counted as errors, the run goes on once the server is back,
// and the balances still add up, since a transaction either committed
// whole or not at all.
func TestEconomyRestartMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and restarts a server of its own; skipped with -short")
	}
	t.Parallel() // a server, port and directory of its own
	srv := startOwnServer(t)
	out, _ := runThroughRestart(t, srv, "closedeconomy", 8, "-p", "table=economy_fault", "-p", "recordcount=50",
		"-p", "threadcount=8", "-p", "jdbc.isolation=serializable")
	m := regexp.MustCompile(`\[READ-MODIFY-WRITE\], Return=ERROR, (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Errorf("no failed transfers after a restart:\n%s", out)
	}
	for _, want := range []string{"[VALIDATE], STATUS, SUCCESS", "[VALIDATE], COUNTED CASH, 1000000", "[VALIDATE], ACCOUNTS, 50"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
}

// runThroughRestart loads workload (a file of workloads/) into srv with
// args, runs it for limit seconds with operationcount=0, restarts srv 3 s
// into the run, and returns the run's stdout and stderr once it has ended
// with exit code 0.
func runThroughRestart(t *testing.T, srv *ownServer, workload string, limit int, args ...string) (string, string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := ycsbtest.Binary(t)
	common := append([]string{"-P", filepath.Join(root, "workloads", workload),
		"-p", "db.url=" + srv.JDBC(), "-p", "db.user=ycsb", "-p", "db.passwd=ycsb"}, args...)
	load := exec.Command(bin, append([]string{"load", "jdbc", "-p", "jdbc.createtable=true"}, common...)...)
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("load: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	run := exec.Command(bin, append(append([]string{"run", "jdbc"}, common...),
		"-p", "operationcount=0", "-p", "maxexecutiontime="+strconv.Itoa(limit))...)
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	srv.Restart()
	done := make(chan error, 1)
	go func() { done <- run.Wait() }()
	select {
	case err = <-done:
	case <-time.After(time.Duration(limit+50) * time.Second):
		run.Process.Kill()
		t.Fatalf("the run did not end 50 s after maxexecutiontime\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	if err != nil {
		t.Fatalf("run exited with %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), "db.passwd=ycsb") {
		t.Errorf("the password is in the output:\n%s\n%s", stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}
