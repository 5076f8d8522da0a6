package postgres

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// reportedInserts is what a report counts as inserted: [INSERT] Return=OK
// plus Return=BATCHED_OK.
func reportedInserts(t *testing.T, report string) int {
	t.Helper()
	n := 0
	for _, m := range regexp.MustCompile(`(?m)^\[INSERT\], Return=(OK|BATCHED_OK), (\d+)$`).FindAllStringSubmatch(report, -1) {
		v, _ := strconv.Atoi(m[2])
		n += v
	}
	return n
}

func batchedLoad(t *testing.T, table string, extra ...string) *exec.Cmd {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"load", "jdbc", "-P", filepath.Join(root, "workloads", "workloada"),
		"-p", "db.url=" + jdbcURL(""), "-p", "db.user=ycsb", "-p", "db.passwd=ycsb", "-p", "table=" + table,
		"-p", "jdbc.batchupdateapi=true", "-p", "db.batchsize=1000"}, extra...)
	return exec.Command(ycsbtest.Binary(t), args...)
}

// A batch that fails takes its buffered rows with it: the report must count
// them under the error, not as BATCHED_OK, and the load must say it is
// incomplete. Here a row already in the table makes the third batch of 1000
// fail on its primary key, and the loader stops there, as the reference's
// does after a failed insert.
func TestFailedBatchIsNotCountedAsInserted(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_lostbatch")
	if _, err := c.Exec(context.Background(), "INSERT INTO "+table+" (YCSB_KEY) VALUES ('user2500')"); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	load := batchedLoad(t, table, "-p", "recordcount=5000", "-p", "insertorder=ordered", "-threads", "1")
	load.Stdout, load.Stderr = &stdout, &stderr
	err := load.Run()
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	written := n - 1 // the row that was there before
	if got := reportedInserts(t, stdout.String()); got != written {
		t.Errorf("report counts %d inserts; the table gained %d rows\n%s\n%s", got, written, stdout.String(), stderr.String())
	}
	if m := regexp.MustCompile(`(?m)^\[INSERT\], Return=ERROR, (\d+)$`).FindStringSubmatch(stdout.String()); m == nil || m[1] != "1000" {
		t.Errorf("want the failed batch's 1000 rows as [INSERT], Return=ERROR, got %q\n%s", m, stdout.String())
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit %v, want 1 (load incomplete)\n%s", err, stderr.String())
	}
	if !regexp.MustCompile(`load incomplete: 2000 of 5000 records inserted`).MatchString(stderr.String()) {
		t.Errorf("no 'load incomplete: 2000 of 5000' line:\n%s", stderr.String())
	}
}

// Ctrl-C or SIGTERM in the middle of a batched load: what was buffered is
// sent, and the report counts exactly the rows in the table.
func TestStopDuringBatchedLoadKeepsTheCount(t *testing.T) {
	c := needPG(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			table := testTable(t, c, "ycsb_stopbatch")
			var stdout, stderr bytes.Buffer
			// Paced so that every session holds a partial batch at the stop.
			load := batchedLoad(t, table, "-p", "recordcount=10000000", "-threads", "4", "-target", "6000")
			load.Stdout, load.Stderr = &stdout, &stderr
			if err := load.Start(); err != nil {
				t.Fatal(err)
			}
			done := ycsbtest.Watch(load)
			time.Sleep(2500 * time.Millisecond)
			ycsbtest.SignalWithin(t, load, done, sig, 30*time.Second, stderr.String)
			var n int
			if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			got := reportedInserts(t, stdout.String())
			if got != n || n == 0 {
				t.Errorf("after %v the report counts %d inserts, the table holds %d rows\n%s\n%s", sig, got, n, stdout.String(), stderr.String())
			}
			if n%1000 == 0 {
				t.Logf("the table holds %d rows: the stop found no partial batch", n)
			}
		})
	}
}
