package mysql

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
)

// commitLoad is what a `ycsb load jdbc` said: its exit code and the
// records it counts as inserted (known) and of unknown outcome.
type commitLoad struct {
	stdout, stderr string
	code           int
	incomplete     bool
	known, unknown int64
	reported       int64 // the report's [INSERT] OK + BATCHED_OK
}

var incompleteRE = regexp.MustCompile(`load incomplete: (?:at least )?(\d+) of \d+ records inserted(?:; (\d+) more with unknown outcome)?`)

// loadJDBC runs `ycsb load jdbc` of workloada into table through the proxy
// at addr, keys user000000, user000001, ... in order; cut, when not nil,
// runs once the table holds 500 rows.
func loadJDBC(t *testing.T, h *sql.DB, addr, table string, cut func(), extra ...string) commitLoad {
	t.Helper()
	c := newCLI(t)
	tg := testTarget(t)
	args := append([]string{"load", "jdbc", "-P", c.workload("workloada"), "-p", "db.url=jdbc:mysql://" + addr + "/" + tg.dbname,
		"-p", "db.user=" + tg.user, "-p", "db.passwd=" + tg.passwd, "-p", "table=" + table,
		"-p", "insertorder=ordered", "-p", "zeropadding=6", "-p", "jdbc.autocommit=false", "-p", "db.batchsize=10"}, extra...)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(c.bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for cut != nil && countRows(t, h, table) < 500 {
		select {
		case err := <-done:
			t.Fatalf("the load ended before the cut: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if cut != nil {
		cut()
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the load did not end\n%s", stderr.String())
	}
	r := commitLoad{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	r.reported = int64(reportedInserts(r.stdout))
	r.known = r.reported
	if m := incompleteRE.FindStringSubmatch(r.stderr); m != nil {
		r.incomplete = true
		r.known, _ = strconv.ParseInt(m[1], 10, 64)
		if m[2] != "" {
			r.unknown, _ = strconv.ParseInt(m[2], 10, 64)
		}
	}
	return r
}

func countRows(t *testing.T, h *sql.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := h.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestUncommittedInsertsAreNotDone: with jdbc.autocommit=false and
// db.batchsize=10, an insert is done only once its transaction's COMMIT
// went through. Cut at an insert in the middle of a transaction (the
// connection closed, so the server rolled the transaction back), the load
// counts none of that transaction's rows; cut at a COMMIT, whose outcome
// the client cannot know, all ten rows of its transaction are of unknown
// outcome, whether the COMMIT reached the server or not.
func TestUncommittedInsertsAreNotDone(t *testing.T) {
	h := needMySQL(t)
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
			table := testTable(t, h, "ycsb_commit", "")
			p := dbtest.NewProxy(t, hostPort(t))
			p.Cut([]byte(tc.match), tc.skip, tc.deliver)
			r := loadJDBC(t, h, "127.0.0.1:"+p.PortString(), table, nil, "-p", "recordcount=1000", "-threads", "1")
			rows := countRows(t, h, table)
			if p.Cuts() != 1 {
				t.Fatalf("%d cuts, want 1\n%s", p.Cuts(), r.stderr)
			}
			if r.code != 1 || !r.incomplete {
				t.Errorf("exit %d, want 1 with a 'load incomplete' line\n%s", r.code, r.stderr)
			}
			if r.reported != r.known {
				t.Errorf("the report counts %d inserts, its last line %d\n%s", r.reported, r.known, r.stdout)
			}
			if rows != tc.rows || r.known != tc.known || r.unknown != tc.unknown {
				t.Errorf("%d rows in the table, %d known and %d of unknown outcome; want %d, %d, %d\n%s\n%s",
					rows, r.known, r.unknown, tc.rows, tc.known, tc.unknown, r.stdout, r.stderr)
			}
		})
	}
}

// TestAutocommitOffLoadCutMidway: every connection of a load with
// jdbc.autocommit=false and db.batchsize=10 (4 threads) is cut under its
// next request, which the server runs and whose answer is lost. The table
// holds at least the rows the load knows of and at most those of unknown
// outcome more, which come in whole transactions of ten.
func TestAutocommitOffLoadCutMidway(t *testing.T) {
	h := needMySQL(t)
	table := testTable(t, h, "ycsb_cut_noautocommit", "")
	p := dbtest.NewCutProxy(t, hostPort(t))
	r := loadJDBC(t, h, p.Addr(), table, p.Cut, "-p", "recordcount=300000", "-threads", "4", "-target", "4000")
	rows := countRows(t, h, table)
	if r.code != 1 || !r.incomplete {
		t.Errorf("exit %d, want 1 with a 'load incomplete' line\n%s", r.code, r.stderr)
	}
	if r.reported != r.known {
		t.Errorf("the report counts %d inserts, its last line %d", r.reported, r.known)
	}
	if r.unknown%10 != 0 || rows < r.known || rows > r.known+r.unknown {
		t.Errorf("%d rows in the table; the load knows of %d, %d more of unknown outcome (want whole transactions of 10)\n%s\n%s",
			rows, r.known, r.unknown, r.stdout, r.stderr)
	}
	t.Logf("%d rows: %d known, %d of unknown outcome; %d requests cut", rows, r.known, r.unknown, p.Cuts())
}

// openNoAutocommit opens a jdbc session through p with
// jdbc.autocommit=false and db.batchsize=10.
func openNoAutocommit(t *testing.T, p *dbtest.Proxy, table string) db.Session {
	t.Helper()
	tg := testTarget(t)
	d := mustOpen(t, "jdbc", map[string]string{"db.url": "jdbc:mysql://127.0.0.1:" + p.PortString() + "/" + tg.dbname,
		"db.user": tg.user, "db.passwd": tg.passwd, "table": table, "jdbc.autocommit": "false", "db.batchsize": "10"})
	t.Cleanup(func() { d.Close() })
	ss, err := d.Session(context.Background(), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// TestReadCutLosesTheTransaction: with jdbc.autocommit=false, a read whose
// connection breaks ends the transaction it ran in, with the inserts that
// returned BATCHED_OK in it: the read's error says so (db.LostWrites), and
// the next COMMIT does not count them.
func TestReadCutLosesTheTransaction(t *testing.T) {
	h := needMySQL(t)
	table := testTable(t, h, "ycsb_readcut", "")
	p := dbtest.NewProxy(t, hostPort(t))
	ss := openNoAutocommit(t, p, table)
	bg := context.Background()
	defer ss.Close(bg)
	v := []db.Field{{Name: "field0", Value: []byte("v")}}
	for i := range 2 {
		if err := ss.Insert(bg, table, fmt.Sprint("k", i), v); err != db.ErrBatched {
			t.Fatalf("insert %d: %v, want BATCHED_OK", i, err)
		}
	}
	p.Cut([]byte("nosuchkey"), 0, true)
	var rec db.Record
	err := ss.Read(bg, table, "nosuchkey", nil, &rec)
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
	if n := countRows(t, h, table); n != 8 {
		t.Errorf("%d rows, want the 8 inserted after the cut", n)
	}
}

// TestFailedInsertKeepsTheTransaction: unlike PostgreSQL, a statement the
// server refuses (a duplicate key) ends only itself, not the transaction:
// the inserts acknowledged before it stay BATCHED_OK, lost by nothing, and
// the COMMIT puts them in the table.
func TestFailedInsertKeepsTheTransaction(t *testing.T) {
	h := needMySQL(t)
	table := testTable(t, h, "ycsb_dupkey", "")
	ss := openNoAutocommit(t, dbtest.NewProxy(t, hostPort(t)), table)
	bg := context.Background()
	v := []db.Field{{Name: "field0", Value: []byte("v")}}
	for i := range 3 {
		if err := ss.Insert(bg, table, fmt.Sprint("k", i), v); err != db.ErrBatched {
			t.Fatalf("insert %d: %v, want BATCHED_OK", i, err)
		}
	}
	err := ss.Insert(bg, table, "k0", v)
	if err == nil || err == db.ErrBatched || db.LostWrites(err) != 0 || db.IsOutcomeUnknown(err) {
		t.Fatalf("duplicate insert: %v (%d lost), want a plain error with none lost", err, db.LostWrites(err))
	}
	if err := ss.Close(bg); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, h, table); n != 3 {
		t.Errorf("%d rows after Close, want 3", n)
	}
}

// TestFailedBatchLeavesNoRowInTheTransaction: with jdbc.batchupdateapi
// and jdbc.autocommit=false, a batch too large for one statement (6000
// rows of 11 parameters) is sent as several in the session's transaction.
// When a later statement fails (a duplicate key), the rows of the earlier
// ones, counted as lost, must not be committed with the transaction.
func TestFailedBatchLeavesNoRowInTheTransaction(t *testing.T) {
	h := needMySQL(t)
	tg := testTarget(t)
	table := testTable(t, h, "ycsb_batchtxn", "")
	if _, err := h.Exec("INSERT INTO " + table + " (YCSB_KEY) VALUES ('dup')"); err != nil {
		t.Fatal(err)
	}
	d := mustOpen(t, "jdbc", map[string]string{"db.url": jdbcURL(t, ""), "db.user": tg.user, "db.passwd": tg.passwd, "table": table,
		"jdbc.batchupdateapi": "true", "jdbc.autocommit": "false", "db.batchsize": "6000"})
	defer d.Close()
	bg := context.Background()
	ss, err := d.Session(bg, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]db.Field, 10)
	for i := range v {
		v[i] = db.Field{Name: fmt.Sprint("field", i), Value: []byte("v")}
	}
	for i := range 6000 {
		key := fmt.Sprintf("k%05d", i)
		if i == 5990 {
			key = "dup" // in the batch's second statement
		}
		err = ss.Insert(bg, table, key, v)
		if i < 5999 && err != db.ErrBatched {
			t.Fatalf("insert %d: %v, want BATCHED_OK", i, err)
		}
	}
	if err == nil || db.LostWrites(err) != 5999 {
		t.Errorf("the insert that sent the batch: %v (%d lost), want an error losing the 5999 others", err, db.LostWrites(err))
	}
	if err := ss.Close(bg); err != nil {
		t.Errorf("Close: %v", err)
	}
	if n := countRows(t, h, table); n != 1 {
		t.Errorf("%d rows, want the 1 inserted before: the failed batch's are counted lost", n)
	}
}
