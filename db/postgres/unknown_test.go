package postgres

import (
	"bytes"
	"context"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// TestLoadCutMidway: the connections die under a load's inserts after
// the server ran them. The load must not claim to have inserted fewer
// rows than the table holds: "at least N of M records inserted; K more
// with unknown outcome", with N exactly the rows it knows of and N+K the
// rows in the table, since each insert cut off here was applied.
func TestLoadCutMidway(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_cut")
	u, err := url.Parse(testURL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := dbtest.NewCutProxy(t, u.Host)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	jdbc := "jdbc:postgresql://" + proxy.Addr() + u.Path + "?sslmode=disable"
	var stdout, stderr bytes.Buffer
	load := exec.Command(ycsbtest.Binary(t), "load", "jdbc", "-P", filepath.Join(root, "workloads", "workloada"),
		"-p", "db.url="+jdbc, "-p", "db.user=ycsb", "-p", "db.passwd=ycsb", "-p", "table="+table,
		"-p", "recordcount=100000", "-p", "db.holdconn=true", "-threads", "4", "-target", "2000", "-p", "report.json=-")
	load.Stdout, load.Stderr = &stdout, &stderr
	if err := load.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- load.Wait() }()
	// Cut once the load is well under way.
	for rows := 0; rows < 500; {
		time.Sleep(50 * time.Millisecond)
		if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			t.Fatalf("the load ended before the cut: %v\n%s", err, stderr.String())
		default:
		}
	}
	proxy.Cut()
	var runErr error
	select {
	case runErr = <-done:
	case <-time.After(60 * time.Second):
		load.Process.Kill()
		t.Fatalf("the load did not end after the cut\n%s", stderr.String())
	}
	var rows int64
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if ee, ok := runErr.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit %v, want 1 (load incomplete)\n%s", runErr, stderr.String())
	}
	m := regexp.MustCompile(`load incomplete: at least (\d+) of 100000 records inserted; (\d+) more with unknown outcome \(the server may have applied them\)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no 'at least N ... K more with unknown outcome' line (%d rows in the table, %d requests cut):\n%s", rows, proxy.Cuts(), stderr.String())
	}
	known, _ := strconv.ParseInt(m[1], 10, 64)
	unknown, _ := strconv.ParseInt(m[2], 10, 64)
	if got := int64(reportedInserts(t, stdout.String())); got != known {
		t.Errorf("the report counts %d inserts, the line %d", got, known)
	}
	if unknown < 1 || unknown > 4 {
		t.Errorf("%d inserts of unknown outcome; want one per thread cut at most, at least one", unknown)
	}
	if known+unknown != rows {
		t.Errorf("%d known + %d unknown inserts; the table holds %d rows", known, unknown, rows)
	}
	if !regexp.MustCompile(`"unknown_outcome":` + m[2] + `\b`).MatchString(stdout.String()) {
		t.Errorf("the JSON report does not carry unknown_outcome %s:\n%s", m[2], stdout.String())
	}
	t.Logf("%d rows: %d known, %d of unknown outcome; %d requests cut", rows, known, unknown, proxy.Cuts())
}
