package cassandra

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db/dbtest"
)

// countCQL counts the rows of keyspace.usertable on the test node, not
// through any proxy.
func countCQL(t *testing.T, keyspace string) int64 {
	t.Helper()
	cc := gocql.NewCluster(testHost)
	cc.Events.DisableSchemaEvents = true // as cqlcluster's: gocql's race at a session's start
	fmt.Sscan(testPort(), &cc.Port)
	cc.Timeout = 30 * time.Second
	cc.Consistency = gocql.One
	s, err := cc.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int64
	if err := s.Query("SELECT count(*) FROM " + keyspace + ".usertable").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStopWhileFrozen: a load whose node stops answering (a proxy of the
// test's own freezes every connection) is stopped by its time limit or by
// SIGINT with writes in flight, which the thaw delivers to the node after
// the load ended. The load counts them as of unknown outcome and says it
// is incomplete: the table holds at least the inserts it reports and at
// most the unknown ones more. So it does when the proxy cuts every
// connection mid-load and refuses new ones (cut).
func TestStopWhileFrozen(t *testing.T) {
	needCassandra(t)
	var incomplete = regexp.MustCompile(`load incomplete: (?:at least )?(\d+) of \d+ records inserted(?:; (\d+) more with unknown outcome)?`)
	for _, tc := range []struct {
		name  string
		extra []string
		sig   syscall.Signal // 0: the time limit stops the load
		cut   bool           // the proxy cuts every connection instead of freezing
		code  int
	}{
		{"maxexecutiontime", []string{"-p", "maxexecutiontime=5"}, 0, false, 1},
		{"SIGINT", nil, syscall.SIGINT, false, 130},
		{"cut", nil, 0, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keyspace := "ycsb_stopfrozen_" + strings.ToLower(tc.name)
			dropKeyspace(t, t, testHost, keyspace)
			p := dbtest.NewProxy(t, testHost+":"+testPort())
			args := append([]string{"load", "cassandra-cql", "-P", "workloads/workloada", "-p", "hosts=" + testHost,
				"-p", "port=" + p.PortString(), "-p", "cassandra.keyspace=" + keyspace, "-p", "cassandra.createschema=true",
				"-p", "recordcount=10000000", "-threads", "8"}, tc.extra...)
			var stdout bytes.Buffer
			stderr := &stampWriter{mark: "Starting test."}
			load := exec.Command(ycsbBinary(t), args...)
			load.Dir = repoRoot(t)
			load.Stdout, load.Stderr = &stdout, stderr
			if err := load.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- load.Wait() }()
			// Freeze once the load is under way.
			for !strings.Contains(stderr.String(), "Starting test.") {
				select {
				case err := <-done:
					t.Fatalf("the load ended before the freeze: %v\n%s", err, stderr.String())
				case <-time.After(50 * time.Millisecond):
				}
			}
			time.Sleep(1500 * time.Millisecond)
			if tc.cut {
				p.Kill()
			} else {
				p.Freeze()
			}
			var sent time.Time
			if tc.sig != 0 {
				time.Sleep(500 * time.Millisecond)
				sent = time.Now()
				load.Process.Signal(tc.sig)
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				load.Process.Kill()
				p.Thaw()
				t.Fatalf("the load did not end with the node frozen\n%s", stderr.String())
			}
			if tc.sig != 0 {
				took := time.Since(sent)
				t.Logf("the load ended %v after %v", took.Round(10*time.Millisecond), tc.sig)
				if took > 5*time.Second {
					t.Errorf("the load ended %v after %v, want within 5 s", took, tc.sig)
				}
			}
			p.Thaw()
			// What the proxy held reaches the node now: wait for the count
			// to settle.
			time.Sleep(2 * time.Second)
			rows := countCQL(t, keyspace)
			for i := 0; i < 10; i++ {
				time.Sleep(500 * time.Millisecond)
				n := countCQL(t, keyspace)
				if n == rows {
					break
				}
				rows = n
			}
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, stderr.String())
			}
			m := incomplete.FindStringSubmatch(stderr.String())
			if m == nil {
				t.Fatalf("no 'load incomplete' line (%d rows in the table)\n%s\n%s", rows, stdout.String(), stderr.String())
			}
			if m[2] == "" && !tc.cut {
				t.Errorf("no insert of unknown outcome, with the writes in flight at the stop\n%s", stderr.String())
			}
			known, _ := strconv.ParseInt(m[1], 10, 64)
			unknown, _ := strconv.ParseInt(m[2], 10, 64)
			reported := int64(0)
			if m := regexp.MustCompile(`(?m)^\[INSERT\], Return=OK, (\d+)$`).FindStringSubmatch(stdout.String()); m != nil {
				reported, _ = strconv.ParseInt(m[1], 10, 64)
			}
			if reported != known {
				t.Errorf("the report counts %d inserts, its last line %d", reported, known)
			}
			if rows < known || rows > known+unknown {
				t.Errorf("the table holds %d rows; the load says at least %d, %d more with unknown outcome\n%s\n%s",
					rows, known, unknown, stdout.String(), stderr.String())
			}
			t.Logf("%d rows: %d known, %d of unknown outcome", rows, known, unknown)
		})
	}
}
