package postgres

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// loadResult is what a `ycsb load` said: its output, exit code, and the
// records its last line counts as inserted (known) and of unknown outcome.
type loadResult struct {
	stdout, stderr   string
	code             int
	known, unknown   int64
	incompleteLine   bool
	reportedInserted int64
}

var incompleteRE = regexp.MustCompile(`load incomplete: (?:at least )?(\d+) of \d+ records inserted(?:; (\d+) more with unknown outcome)?`)

// parseLoad reads a load's output.
func parseLoad(t *testing.T, stdout, stderr string, err error) loadResult {
	t.Helper()
	r := loadResult{stdout: stdout, stderr: stderr}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	r.reportedInserted = int64(reportedInserts(t, stdout))
	if m := incompleteRE.FindStringSubmatch(stderr); m != nil {
		r.incompleteLine = true
		r.known, _ = strconv.ParseInt(m[1], 10, 64)
		if m[2] != "" {
			r.unknown, _ = strconv.ParseInt(m[2], 10, 64)
		}
	} else {
		r.known = r.reportedInserted
	}
	return r
}

// proxyJDBC is the JDBC URL of the test server through p.
func proxyJDBC(t *testing.T, p *dbtest.Proxy) string {
	t.Helper()
	u, err := url.Parse(testURL())
	if err != nil {
		t.Fatal(err)
	}
	return "jdbc:postgresql://127.0.0.1:" + p.PortString() + u.Path + "?sslmode=disable"
}

// runningLoad is a `ycsb load jdbc` of workloada under way.
type runningLoad struct {
	cmd            *exec.Cmd
	done           chan error
	stdout, stderr bytes.Buffer // read once it ended
}

// startLoad starts `ycsb load jdbc` of workloada into table at the JDBC
// URL jdbc, as user ycsb.
func startLoad(t *testing.T, jdbc, table string, extra ...string) *runningLoad {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"load", "jdbc", "-P", filepath.Join(root, "workloads", "workloada"),
		"-p", "db.url=" + jdbc, "-p", "db.user=ycsb", "-p", "db.passwd=ycsb", "-p", "table=" + table}, extra...)
	l := &runningLoad{cmd: exec.Command(ycsbtest.Binary(t), args...), done: make(chan error, 1)}
	l.cmd.Stdout, l.cmd.Stderr = &l.stdout, &l.stderr
	if err := l.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { l.done <- l.cmd.Wait() }()
	return l
}

// untilRows waits until table holds n rows; the load ending first fails
// the test.
func (l *runningLoad) untilRows(t *testing.T, c *pgx.Conn, table string, n int64) {
	t.Helper()
	for countRows(t, c, table) < n {
		select {
		case err := <-l.done:
			t.Fatalf("the load ended before %d rows: %v\n%s", n, err, l.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// end waits for the load to end, within d, and returns what it said;
// onHang runs before the test fails if it does not end.
func (l *runningLoad) end(t *testing.T, d time.Duration, onHang func()) loadResult {
	t.Helper()
	select {
	case err := <-l.done:
		return parseLoad(t, l.stdout.String(), l.stderr.String(), err)
	case <-time.After(d):
		l.cmd.Process.Kill()
		if onHang != nil {
			onHang()
		}
		<-l.done
		t.Fatalf("the load did not end within %v\n%s", d, l.stderr.String())
		return loadResult{}
	}
}

// loadThrough runs `ycsb load jdbc` into table through p with keys
// user000000, user000001, ... in order, and returns what it said.
func loadThrough(t *testing.T, p *dbtest.Proxy, table string, extra ...string) loadResult {
	t.Helper()
	l := startLoad(t, proxyJDBC(t, p), table, append([]string{"-p", "insertorder=ordered", "-p", "zeropadding=6"}, extra...)...)
	return l.end(t, 2*time.Minute, nil)
}

// newPGProxy is a proxy of the test's own in front of the test server.
func newPGProxy(t *testing.T) *dbtest.Proxy {
	t.Helper()
	u, err := url.Parse(testURL())
	if err != nil {
		t.Fatal(err)
	}
	return dbtest.NewProxy(t, u.Host)
}

func countRows(t *testing.T, c *pgx.Conn, table string) int64 {
	t.Helper()
	var n int64
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestUncommittedInsertsAreNotDone: with jdbc.autocommit=false and
// db.batchsize=10, an insert is done only once its transaction's COMMIT
// went through. Cut at an insert in the middle of a transaction (the
// server ran it; the connection closed, so the transaction rolled back),
// the load counts none of that transaction's rows; cut at a COMMIT, whose
// outcome the client cannot know, all ten rows of its transaction are of
// unknown outcome, whether the COMMIT reached the server or not. The
// report's inserts are the line's known ones, and the table holds at least
// those and at most the unknown ones more.
func TestUncommittedInsertsAreNotDone(t *testing.T) {
	c := needPG(t)
	for _, tc := range []struct {
		name    string
		match   string
		skip    int
		deliver bool
		// rows in the table after the load, known and unknown as the load
		// must say
		rows, known, unknown int64
	}{
		{"insert cut", "user000125", 0, true, 120, 120, 0},
		{"insert lost", "user000125", 0, false, 120, 120, 0},
		{"commit applied", "COMMIT", 4, true, 50, 40, 10},
		{"commit lost", "COMMIT", 4, false, 40, 40, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := testTable(t, c, "ycsb_commit")
			p := newPGProxy(t)
			p.Cut([]byte(tc.match), tc.skip, tc.deliver)
			r := loadThrough(t, p, table, "-p", "recordcount=1000", "-p", "jdbc.autocommit=false", "-p", "db.batchsize=10", "-threads", "1")
			rows := countRows(t, c, table)
			if p.Cuts() != 1 {
				t.Fatalf("%d cuts, want 1\n%s", p.Cuts(), r.stderr)
			}
			if r.code != 1 || !r.incompleteLine {
				t.Errorf("exit %d, want 1 with a 'load incomplete' line\n%s", r.code, r.stderr)
			}
			if r.reportedInserted != r.known {
				t.Errorf("the report counts %d inserts, its last line %d\n%s", r.reportedInserted, r.known, r.stdout)
			}
			if rows != tc.rows || r.known != tc.known || r.unknown != tc.unknown {
				t.Errorf("%d rows in the table, %d known and %d of unknown outcome; want %d, %d, %d\n%s\n%s",
					rows, r.known, r.unknown, tc.rows, tc.known, tc.unknown, r.stdout, r.stderr)
			}
		})
	}
}

// TestAutocommitOffLoadCutMidway: TestLoadCutMidway with
// jdbc.autocommit=false and db.batchsize=10, 4 threads: each connection's
// next request is run by the server and its answer lost. An insert cut so
// rolls its transaction back; a COMMIT cut so went in, with all of its
// transaction's rows, which are of unknown outcome. So the table holds
// exactly the rows the load knows of plus those of unknown outcome.
func TestAutocommitOffLoadCutMidway(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_cut_noautocommit")
	r, rows, cuts := cutMidLoad(t, c, table, "-p", "recordcount=300000", "-p", "jdbc.autocommit=false", "-p", "db.batchsize=10",
		"-threads", "4", "-target", "4000")
	if r.code != 1 || !r.incompleteLine {
		t.Errorf("exit %d, want 1 with a 'load incomplete' line\n%s", r.code, r.stderr)
	}
	if r.reportedInserted != r.known {
		t.Errorf("the report counts %d inserts, its last line %d", r.reportedInserted, r.known)
	}
	if r.unknown%10 != 0 || rows != r.known+r.unknown {
		t.Errorf("%d rows in the table; the load knows of %d, %d more of unknown outcome (want whole transactions of 10)\n%s\n%s",
			rows, r.known, r.unknown, r.stdout, r.stderr)
	}
	t.Logf("%d rows: %d known, %d of unknown outcome; %d requests cut", rows, r.known, r.unknown, cuts)
}

// TestReadCutLosesTheTransaction: with jdbc.autocommit=false, a read whose
// connection breaks ends the transaction it ran in, with the inserts that
// returned BATCHED_OK in it: the read's error says so (db.LostWrites),
// and the next COMMIT does not count them.
func TestReadCutLosesTheTransaction(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_readcut")
	p := newPGProxy(t)
	bg := context.Background()
	d := mustOpen(t, "jdbc", map[string]string{"db.url": proxyJDBC(t, p), "db.user": "ycsb", "db.passwd": "ycsb", "table": table,
		"jdbc.autocommit": "false", "db.batchsize": "10"})
	defer d.Close()
	ss, err := d.Session(bg, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close(bg)
	v := []db.Field{{Name: "field0", Value: []byte("v")}}
	for i := range 2 {
		if err := ss.Insert(bg, table, fmt.Sprint("k", i), v); err != db.ErrBatched {
			t.Fatalf("insert %d: %v, want BATCHED_OK", i, err)
		}
	}
	p.Cut([]byte("nosuchkey"), 0, true)
	var rec db.Record
	err = ss.Read(bg, table, "nosuchkey", nil, &rec)
	if p.Cuts() != 1 || err == nil {
		t.Fatalf("read: %v after %d cuts, want an error after 1", err, p.Cuts())
	}
	if n := db.LostWrites(err); n != 2 {
		t.Errorf("read: %v: %d writes lost, want 2", err, n)
	}
	for i := 2; i < 10; i++ {
		want := db.ErrBatched
		if i == 9 {
			want = nil // the tenth write: the COMMIT
		}
		if err := ss.Insert(bg, table, fmt.Sprint("k", i), v); err != want {
			t.Fatalf("insert %d: %v, want %v", i, err, want)
		}
	}
	if n := countRows(t, c, table); n != 8 {
		t.Errorf("%d rows, want the 8 inserted after the cut", n)
	}
}

// TestStopCommitsTheOpenTransaction: SIGINT in the middle of a load with
// jdbc.autocommit=false commits each session's open transaction at its
// close, so that the inserts it acknowledged as BATCHED_OK are in the
// table: the report counts exactly the rows there.
func TestStopCommitsTheOpenTransaction(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_stopcommit")
	// Paced so that every session holds an open transaction at the stop.
	l := startLoad(t, jdbcURL(""), table, "-p", "recordcount=10000000", "-p", "jdbc.autocommit=false", "-p", "db.batchsize=1000",
		"-threads", "4", "-target", "6000")
	l.untilRows(t, c, table, 1000)
	l.cmd.Process.Signal(syscall.SIGINT)
	r := l.end(t, 30*time.Second, nil)
	rows := countRows(t, c, table)
	if r.code != 130 || r.reportedInserted != rows || rows == 0 {
		t.Errorf("exit %d; the report counts %d inserts, the table holds %d rows\n%s\n%s", r.code, r.reportedInserted, rows, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "[INSERT], Return=BATCHED_OK, ") {
		t.Errorf("no insert left in an open transaction (BATCHED_OK)\n%s", r.stdout)
	}
}
