package mysql

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// cli runs the ycsb binary with args and returns its stdout and stderr.
type cli struct {
	t    *testing.T
	bin  string
	root string
}

func newCLI(t *testing.T) cli {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return cli{t: t, bin: ycsbtest.Binary(t), root: root}
}

func (c cli) workload(name string) string { return filepath.Join(c.root, "workloads", name) }

// run runs the binary to its end; a non-zero exit is fatal unless
// allowFail.
func (c cli) run(allowFail bool, args ...string) (string, string) {
	c.t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(c.bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil && !allowFail {
		c.t.Fatalf("ycsb %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	if strings.Contains(out.String()+errOut.String(), "db.passwd=ycsb") {
		c.t.Errorf("the password is in the output:\n%s\n%s", out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}

// sum adds up the counts of the report lines matching re's second group.
func sum(re, out string) int {
	n := 0
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(out, -1) {
		v, _ := strconv.Atoi(m[len(m)-1])
		n += v
	}
	return n
}

// TestFrozenServer runs `ycsb run jdbc` through a proxy of the test's own
// that stops forwarding mid-run (a server that hangs: connections open,
// nothing answers) and forwards again later. The operations that ran out
// of db.timeout are counted SERVICE_UNAVAILABLE, the sessions connect
// again once it answers, and a Ctrl-C during a freeze ends the run within
// seconds with its report.
func TestFrozenServer(t *testing.T) {
	if testing.Short() {
		t.Skip("freezes a proxy for seconds; skipped with -short")
	}
	h := needMySQL(t)
	table := testTable(t, h, "ycsb_frozen", "")
	tg := testTarget(t)
	c := newCLI(t)
	c.run(false, "load", "jdbc", "-P", c.workload("workloada"), "-p", "db.url="+jdbcURL(t, ""), "-p", "db.user="+tg.user,
		"-p", "db.passwd="+tg.passwd, "-p", "table="+table, "-p", "recordcount=1000", "-threads", "4")
	proxy := dbtest.NewProxy(t, hostPort(t))
	url := "jdbc:mysql://127.0.0.1:" + proxy.PortString() + "/" + tg.dbname
	common := []string{"-P", c.workload("workloada"), "-p", "db.driver=com.mysql.cj.jdbc.Driver", "-p", "db.url=" + url,
		"-p", "db.user=" + tg.user, "-p", "db.passwd=" + tg.passwd, "-p", "table=" + table, "-p", "recordcount=1000", "-threads", "4"}

	t.Run("freeze and thaw", func(t *testing.T) {
		c.t = t
		go func() {
			time.Sleep(3 * time.Second)
			proxy.Freeze()
			time.Sleep(4 * time.Second)
			proxy.Thaw()
		}()
		start := time.Now()
		out, stderr := c.run(false, append([]string{"run", "jdbc", "-p", "operationcount=0", "-p", "maxexecutiontime=12", "-p", "db.timeout=2"}, common...)...)
		took := time.Since(start)
		if took > 24*time.Second {
			t.Errorf("the run took %v with maxexecutiontime=12\n%s\n%s", took, out, stderr)
		}
		unavailable := sum(`\[(READ|UPDATE)\], Return=SERVICE_UNAVAILABLE, (\d+)`, out)
		if unavailable == 0 {
			t.Errorf("no operation counted SERVICE_UNAVAILABLE after db.timeout=2 with the server frozen:\n%s", out)
		}
		m := regexp.MustCompile(`\[CONNECTIONS\], Reconnects, (\d+)`).FindStringSubmatch(out)
		if m == nil || m[1] == "0" {
			t.Errorf("no reconnects reported after the thaw:\n%s", out)
		}
		t.Logf("%d operations timed out; reconnects %v; %v", unavailable, m, took.Round(100*time.Millisecond))
	})

	t.Run("interrupt", func(t *testing.T) {
		c.t = t
		var out, errOut bytes.Buffer
		cmd := exec.Command(c.bin, append([]string{"run", "jdbc", "-p", "operationcount=0", "-p", "maxexecutiontime=120"}, common...)...)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := ycsbtest.Watch(cmd)
		time.Sleep(3 * time.Second)
		proxy.Freeze()
		defer proxy.Thaw()
		time.Sleep(2 * time.Second)
		after := ycsbtest.SignalWithin(t, cmd, done, syscall.SIGINT, 30*time.Second, func() string { return out.String() + "\n" + errOut.String() })
		t.Logf("the run ended %v after SIGINT with the server frozen", after.Round(10*time.Millisecond))
		if after > 4*time.Second {
			t.Errorf("the run ended %v after SIGINT, want within about 2 s\n%s\n%s", after, out.String(), errOut.String())
		}
		if !strings.Contains(out.String(), "[OVERALL], RunTime(ms), ") {
			t.Errorf("no report after SIGINT:\n%s\n%s", out.String(), errOut.String())
		}
	})

	t.Run("down", func(t *testing.T) {
		// Every connection closed and new ones refused: errors counted,
		// with backoff (a few dozen a second per thread, not a spin).
		c.t = t
		go func() {
			time.Sleep(2 * time.Second)
			proxy.Kill()
		}()
		out, stderr := c.run(false, append([]string{"run", "jdbc", "-p", "operationcount=0", "-p", "maxexecutiontime=6"}, common...)...)
		errs := sum(`\[(READ|UPDATE)\], Return=ERROR, (\d+)`, out)
		if errs == 0 {
			t.Errorf("no errors counted with the server down:\n%s\n%s", out, stderr)
		}
		if errs > 4*4*30 {
			t.Errorf("%d errors in 4 s at 4 threads: no backoff\n%s", errs, out)
		}
		t.Logf("%d errors with the server down", errs)
	})
}

// reportedInserts is what a report counts as inserted: [INSERT]
// Return=OK plus Return=BATCHED_OK.
func reportedInserts(report string) int {
	return sum(`(?m)^\[INSERT\], Return=(OK|BATCHED_OK), (\d+)$`, report)
}

// TestStopDuringBatchedLoadKeepsTheCount: Ctrl-C or SIGTERM in the middle
// of a batched load: what was buffered is sent, and the report counts
// exactly the rows in the table.
func TestStopDuringBatchedLoadKeepsTheCount(t *testing.T) {
	h := needMySQL(t)
	c := newCLI(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			table := testTable(t, h, "ycsb_stopbatch", "")
			var stdout, stderr bytes.Buffer
			load := exec.Command(c.bin, "load", "mysql", "-P", c.workload("workloada"), "-p", "db.url="+testURL(), "-p", "table="+table,
				"-p", "batch.size=500", "-p", "recordcount=10000000", "-threads", "4", "-target", "3000")
			load.Stdout, load.Stderr = &stdout, &stderr
			if err := load.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2500 * time.Millisecond)
			load.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- load.Wait() }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				load.Process.Kill()
				t.Fatalf("load did not end 30 s after %v\n%s", sig, stderr.String())
			}
			var n int
			if err := h.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if got := reportedInserts(stdout.String()); got != n || n == 0 {
				t.Errorf("after %v the report counts %d inserts, the table holds %d rows\n%s\n%s", sig, got, n, stdout.String(), stderr.String())
			}
		})
	}
}

// TestLoadCutMidway: the connections die under a load's inserts after the
// server ran them. The load says how many it knows of and how many are of
// unknown outcome, and the two add up to the rows in the table: a batch
// whose answer was lost is unknown whole.
func TestLoadCutMidway(t *testing.T) {
	h := needMySQL(t)
	c := newCLI(t)
	for _, tc := range []struct {
		name  string
		batch string
	}{{"single rows", "1"}, {"batches", "50"}} {
		t.Run(tc.name, func(t *testing.T) {
			table := testTable(t, h, "ycsb_cut", "")
			tg := testTarget(t)
			proxy := dbtest.NewCutProxy(t, hostPort(t))
			var stdout, stderr bytes.Buffer
			load := exec.Command(c.bin, "load", "mysql", "-P", c.workload("workloada"),
				"-p", "db.url=mysql://"+tg.user+":"+tg.passwd+"@"+proxy.Addr()+"/"+tg.dbname, "-p", "table="+table,
				"-p", "recordcount=100000", "-p", "batch.size="+tc.batch, "-threads", "4", "-target", "2000", "-p", "report.json=-")
			load.Stdout, load.Stderr = &stdout, &stderr
			if err := load.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- load.Wait() }()
			for rows := 0; rows < 1000; {
				time.Sleep(50 * time.Millisecond)
				if err := h.QueryRow("SELECT count(*) FROM " + table).Scan(&rows); err != nil {
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
			if err := h.QueryRow("SELECT count(*) FROM " + table).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if ee, ok := runErr.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Errorf("exit %v, want 1 (load incomplete)\n%s", runErr, stderr.String())
			}
			m := regexp.MustCompile(`load incomplete: at least (\d+) of 100000 records inserted; (\d+) more with unknown outcome`).FindStringSubmatch(stderr.String())
			if m == nil {
				t.Fatalf("no 'at least N ... K more with unknown outcome' line (%d rows in the table, %d answers cut):\n%s", rows, proxy.Cuts(), stderr.String())
			}
			known, _ := strconv.ParseInt(m[1], 10, 64)
			unknown, _ := strconv.ParseInt(m[2], 10, 64)
			if got := int64(reportedInserts(stdout.String())); got != known {
				t.Errorf("the report counts %d inserts, the line %d", got, known)
			}
			if known+unknown != rows {
				t.Errorf("%d known + %d unknown inserts; the table holds %d rows", known, unknown, rows)
			}
			t.Logf("%d rows: %d known, %d of unknown outcome; %d answers cut", rows, known, unknown, proxy.Cuts())
		})
	}
}
