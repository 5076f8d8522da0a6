package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/workload"
)

// The closed economy (issue 29, part 4) against the real PostgreSQL: five
// accounts, 16 threads, transfers on every pair of them.

// economyTable creates a fresh table of the reference's schema for one test.
func economyTable(t *testing.T, c *pgx.Conn, name string) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.Exec(ctx, "DROP TABLE IF EXISTS "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Exec(context.Background(), "DROP TABLE IF EXISTS "+name) })
}

// economyArgs are a contended economy: the shipped workload file on 5
// accounts of 1,000 each.
func economyArgs(table string, extra ...string) []string {
	return append([]string{"jdbc", "-P", filepath.Join("..", "..", "workloads", "closedeconomy"),
		"-p", "recordcount=5", "-p", "total_cash=5000", "-p", "requestdistribution=uniform",
		"-p", "operationcount=3000", "-p", "readproportion=0.1", "-p", "readmodifywriteproportion=0.9",
		"-p", "db.url=" + pgURL(), "-p", "table=" + table, "-p", "jdbc.createtable=true",
		"-threads", "16"}, extra...)
}

// economyRun loads the economy and runs it with extra, returning the run's
// exit code, stdout, stderr and JSON report.
func economyRun(t *testing.T, bin, table string, extra ...string) (int, string, string, *jsonreport.Report) {
	t.Helper()
	load := exec.Command(bin, append([]string{"load"}, economyArgs(table)...)...)
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("load: %v\n%s", err, out)
	}
	return economyRunOnly(t, bin, table, extra...)
}

// economyRunOnly runs the economy on the table as it is, without a load.
func economyRunOnly(t *testing.T, bin, table string, extra ...string) (int, string, string, *jsonreport.Report) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(bin, append(append([]string{"run"}, economyArgs(table, extra...)...), "-p", "report.json="+path)...)
	var so, se strings.Builder
	cmd.Stdout, cmd.Stderr = &so, &se
	cmd.Run()
	return cmd.ProcessState.ExitCode(), so.String(), se.String(), readReports(t, path)[0]
}

// row returns the value of a report row "[sec], name, value".
func row(t *testing.T, out, sec, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\[` + regexp.QuoteMeta(sec) + `\], ` + regexp.QuoteMeta(name) + `, (.*)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no row [%s], %s in\n%s", sec, name, out)
	}
	return m[1]
}

func rowInt(t *testing.T, out, sec, name string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(row(t, out, sec, name), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEconomySerializable: at SERIALIZABLE the transfers conflict and are
// retried, every one of them is counted, and the money adds up.
func TestEconomySerializable(t *testing.T) {
	c := needPG(t)
	bin := ycsbtest.Binary(t)
	economyTable(t, c, "econ_ser")
	code, out, errOut, rep := economyRun(t, bin, "econ_ser", "-p", "jdbc.isolation=serializable")
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "warning:") {
		t.Errorf("warnings on stderr:\n%s", errOut)
	}
	if got := row(t, out, "VALIDATE", "STATUS"); got != "SUCCESS" {
		t.Errorf("STATUS %s, want SUCCESS", got)
	}
	if got := rowInt(t, out, "VALIDATE", "COUNTED CASH"); got != 5000 {
		t.Errorf("COUNTED CASH %d, want 5000", got)
	}
	retries := rowInt(t, out, "READ-MODIFY-WRITE", "Retries")
	if retries <= 0 {
		t.Errorf("Retries %d, want some under this contention", retries)
	}
	if got := rowInt(t, out, "TXN-RETRIES", "Retries"); got != retries {
		t.Errorf("[TXN-RETRIES], Retries, %d; the transfers' row says %d", got, retries)
	}
	// Every operation counted: the transfers' outcomes and the reads add
	// up to operationcount, and so does the anomaly score's denominator.
	var done int64
	for _, st := range []string{"OK", "ERROR"} {
		for _, op := range []string{"READ", "READ-MODIFY-WRITE"} {
			if m := regexp.MustCompile(`(?m)^\[` + op + `\], Return=` + st + `, (\d+)$`).FindStringSubmatch(out); m != nil {
				n, _ := strconv.ParseInt(m[1], 10, 64)
				done += n
			}
		}
	}
	if done != 3000 {
		t.Errorf("%d operations returned, want 3000\n%s", done, out)
	}
	v := rep.Validation
	if v == nil || v.Status != workload.ValidationSuccess || v.CountedCash != 5000 || v.Operations != 3000 || v.AnomalyScore != 0 || v.Accounts != 5 {
		t.Errorf("JSON validation %+v", v)
	}
	var sum int64
	if err := c.QueryRow(context.Background(), "SELECT SUM(CAST(field0 AS BIGINT)) FROM econ_ser").Scan(&sum); err != nil || sum != 5000 {
		t.Errorf("the table holds %d (%v), want 5000", sum, err)
	}
}

// TestEconomyReadCommitted: at READ COMMITTED without FOR UPDATE two
// transfers read the same balance and both write it back changed by one:
// money appears or vanishes, and the validation must find it (the test of
// the validator). With FOR UPDATE the reads lock, and it holds again.
func TestEconomyReadCommitted(t *testing.T) {
	c := needPG(t)
	bin := ycsbtest.Binary(t)
	economyTable(t, c, "econ_rc")
	code, out, errOut, rep := economyRun(t, bin, "econ_rc", "-p", "jdbc.isolation=read_committed")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the invariant broke)\n%s\n%s", code, out, errOut)
	}
	if got := row(t, out, "VALIDATE", "STATUS"); got != "FAILED" {
		t.Errorf("STATUS %s, want FAILED", got)
	}
	counted := rowInt(t, out, "VALIDATE", "COUNTED CASH")
	if counted == 5000 {
		t.Error("COUNTED CASH 5000: no anomaly found")
	}
	var sum int64
	if err := c.QueryRow(context.Background(), "SELECT SUM(CAST(field0 AS BIGINT)) FROM econ_rc").Scan(&sum); err != nil || sum != counted {
		t.Errorf("the table holds %d (%v), the report counted %d", sum, err, counted)
	}
	v := rep.Validation
	want := float64(max(counted-5000, 5000-counted)) / 3000
	if v == nil || v.Status != workload.ValidationFailed || v.AnomalyScore != want {
		t.Errorf("JSON validation %+v, want anomaly score %g", v, want)
	}
	if !strings.Contains(errOut, "ycsb: closed economy: the invariant broke") {
		t.Errorf("stderr does not say the invariant broke:\n%s", errOut)
	}

	economyTable(t, c, "econ_rc")
	code, out, errOut, _ = economyRun(t, bin, "econ_rc", "-p", "jdbc.isolation=read_committed", "-p", "jdbc.selectforupdate=true")
	if code != 0 || row(t, out, "VALIDATE", "STATUS") != "SUCCESS" {
		t.Fatalf("with FOR UPDATE: exit %d, want 0 and SUCCESS\n%s\n%s", code, out, errOut)
	}
}

// TestEconomyAfterABrokenRun: a clean run (FOR UPDATE) on the table a
// READ COMMITTED run left short counts the balances at its start, passes,
// and states the earlier loss apart: the broken run's loss is not blamed
// on it.
func TestEconomyAfterABrokenRun(t *testing.T) {
	c := needPG(t)
	bin := ycsbtest.Binary(t)
	economyTable(t, c, "econ_after")
	code, out, errOut, _ := economyRun(t, bin, "econ_after", "-p", "jdbc.isolation=read_committed")
	if code != 1 {
		t.Fatalf("the broken run: exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	left := rowInt(t, out, "VALIDATE", "COUNTED CASH")
	if got := rowInt(t, out, "VALIDATE", "START CASH"); got != 5000 {
		t.Errorf("the broken run's START CASH %d, want 5000", got)
	}
	code, out, errOut, rep := economyRunOnly(t, bin, "econ_after", "-p", "jdbc.isolation=read_committed", "-p", "jdbc.selectforupdate=true")
	if code != 0 {
		t.Fatalf("the clean run after it: exit %d, want 0\n%s\n%s", code, out, errOut)
	}
	for name, want := range map[string]int64{"TOTAL CASH": 5000, "START CASH": left, "COUNTED CASH": left, "EARLIER CHANGE": left - 5000} {
		if got := rowInt(t, out, "VALIDATE", name); got != want {
			t.Errorf("[VALIDATE], %s, %d; want %d", name, got, want)
		}
	}
	if got := row(t, out, "VALIDATE", "STATUS"); got != "SUCCESS" {
		t.Errorf("STATUS %s, want SUCCESS", got)
	}
	if !strings.Contains(errOut, "closed economy: before this run the accounts held "+strconv.FormatInt(left, 10)) {
		t.Errorf("stderr does not state the earlier change:\n%s", errOut)
	}
	v := rep.Validation
	if v == nil || v.Status != workload.ValidationSuccess || v.StartCash == nil || *v.StartCash != left || *v.EarlierChange != left-5000 || v.AnomalyScore != 0 {
		t.Errorf("JSON validation %+v", v)
	}
}

// TestEconomyRefusedWithoutTransactions: a binding without transactions
// refuses the closed economy in one line naming it, exit 2, before it
// opens anything (pebble's directory is never created).
func TestEconomyRefusedWithoutTransactions(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	bin := ycsbtest.Binary(t)
	dir := filepath.Join(t.TempDir(), "store")
	for _, phase := range []string{"load", "run"} {
		cmd := exec.Command(bin, phase, "pebble", "-p", "workload=site.ycsb.workloads.ClosedEconomyWorkload",
			"-p", "recordcount=10", "-p", "pebble.dir="+dir)
		var so, se strings.Builder
		cmd.Stdout, cmd.Stderr = &so, &se
		cmd.Run()
		want := "ycsb: workload: site.ycsb.workloads.ClosedEconomyWorkload runs each transfer in a transaction, and binding pebble has none (bindings with transactions: cockroach, jdbc, mariadb, mysql, postgresql, tidb)\n"
		if code := cmd.ProcessState.ExitCode(); code != 2 || se.String() != want || so.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q", phase, code, so.String(), se.String(), want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("pebble.dir was created: %v", err)
	}
}

// TestEconomyFleet: two clients load their halves of the accounts and
// transfer over all of them at SERIALIZABLE; each adds up the whole table
// before the common start and when it ends, and ycsb merge judges the fleet on the last check with
// the fleet's operations.
func TestEconomyFleet(t *testing.T) {
	c := needPG(t)
	bin := ycsbtest.Binary(t)
	economyTable(t, c, "econ_fleet")
	// The forks' scripts' schema, the balance an INT: created here, since
	// two clients creating it at once race in PostgreSQL's catalog.
	if _, err := c.Exec(context.Background(), "CREATE TABLE econ_fleet (YCSB_KEY VARCHAR(255) PRIMARY KEY, FIELD0 INT)"); err != nil {
		t.Fatal(err)
	}
	args := func(phase string, extra ...string) []string {
		return append(append([]string{phase}, economyArgs("econ_fleet", "-p", "recordcount=8", "-p", "total_cash=8000", "-threads", "8")...), extra...)
	}
	runAll(t, bin, [][]string{clientArgs(2, 0, args("load")...), clientArgs(2, 1, args("load")...)})
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "c0.json"), filepath.Join(dir, "c1.json")}
	// A common start, so that each client counts the balances before
	// either transfers.
	start := time.Now().Add(5 * time.Second).UTC().Format(time.RFC3339Nano)
	runAll(t, bin, [][]string{
		clientArgs(2, 0, args("run", "-p", "jdbc.isolation=serializable", "-p", "starttime="+start, "-p", "report.json="+paths[0])...),
		clientArgs(2, 1, args("run", "-p", "jdbc.isolation=serializable", "-p", "starttime="+start, "-p", "report.json="+paths[1])...),
	})
	for i, r := range readReports(t, paths...) {
		if v := r.Validation; v == nil || v.Status != workload.ValidationSuccess || v.Operations != 1500 || v.Accounts != 8 {
			t.Errorf("client %d: validation %+v", i, v)
		}
		// Counted before the starttime both share (clientArgs), before any
		// client transferred.
		if v := r.Validation; v == nil || v.StartCash == nil || *v.StartCash != 8000 || v.StartLate {
			t.Errorf("client %d: the start %+v, want 8000 counted in time", i, v)
		}
	}
	cmd := exec.Command(bin, append([]string{"merge"}, paths...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	if got := row(t, string(out), "VALIDATE", "STATUS"); got != "SUCCESS" {
		t.Errorf("merged STATUS %s", got)
	}
	if got := rowInt(t, string(out), "VALIDATE", "ACTUAL OPERATIONS"); got != 3000 {
		t.Errorf("merged ACTUAL OPERATIONS %d, want 3000", got)
	}
	if got := rowInt(t, string(out), "VALIDATE", "COUNTED CASH"); got != 8000 {
		t.Errorf("merged COUNTED CASH %d, want 8000", got)
	}
}
