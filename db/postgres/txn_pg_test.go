package postgres

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// rmwResult is one committed read-modify-write of a key's field0: what it
// read and what it wrote.
type rmwResult struct{ read, wrote string }

// checkChain says whether committed read-modify-writes of one key are
// those of some serial order: each read what the one before it wrote, from
// initial to final, every one of them once. This is the per-key counter of
// issue 29: the chain's length is the number of increments the table
// shows. A lost update (two transactions that read the same value and
// both committed) breaks it.
func checkChain(initial, final string, ops []rmwResult) error {
	next := map[string]string{}
	for _, op := range ops {
		if w, dup := next[op.read]; dup {
			return fmt.Errorf("lost update: %q was read by the writes of %q and %q, both committed", op.read, w, op.wrote)
		}
		next[op.read] = op.wrote
	}
	v, n := initial, 0
	for ; n < len(ops); n++ {
		w, ok := next[v]
		if !ok {
			break
		}
		v = w
	}
	if n != len(ops) || v != final {
		return fmt.Errorf("the chain from %q passes %d of %d committed writes and ends at %q; the table holds %q", initial, n, len(ops), v, final)
	}
	return nil
}

func TestCheckChain(t *testing.T) {
	ok := []rmwResult{{"b", "c"}, {"0", "a"}, {"a", "b"}}
	if err := checkChain("0", "c", ok); err != nil {
		t.Errorf("serial history refused: %v", err)
	}
	if err := checkChain("0", "b", ok); err == nil {
		t.Error("a wrong final value passed")
	}
	if err := checkChain("0", "b", []rmwResult{{"0", "a"}, {"0", "b"}}); err == nil || !strings.Contains(err.Error(), "lost update") {
		t.Errorf("lost update passed: %v", err)
	}
}

func field0(c *pgx.Conn, table, key string) (string, error) {
	var v string
	err := c.QueryRow(context.Background(), "SELECT FIELD0 FROM "+table+" WHERE YCSB_KEY = $1", key).Scan(&v)
	return v, err
}

// waitLocked waits until n backends running a statement on table wait for
// a lock: the interleaving the test needs, reached by polling, not by
// sleeping a guessed time. It polls on a connection of its own: within a
// transaction pg_stat_activity would not change.
func waitLocked(t *testing.T, table string, n int) {
	t.Helper()
	c, err := pgx.Connect(context.Background(), testURL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	for i := 0; i < 1000; i++ {
		var got int
		err := c.QueryRow(context.Background(),
			"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%' || $1 || '%'", table).Scan(&got)
		if err != nil {
			t.Fatal(err)
		}
		if got >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	rows, _ := c.Query(context.Background(), "SELECT coalesce(wait_event_type,''), coalesce(wait_event,''), state, query FROM pg_stat_activity WHERE query ILIKE '%' || $1 || '%'", table)
	for rows.Next() {
		var a, b, st, q string
		rows.Scan(&a, &b, &st, &q)
		t.Logf("%s %s %s %s", a, b, st, q)
	}
	rows.Close()
	t.Fatalf("%d transactions never waited for a lock on %s", n, table)
}

// Two read-modify-writes read the row while a third transaction holds its
// lock, then go on when it commits. Under READ COMMITTED without FOR
// UPDATE both read the old value and both commit: a lost update, which
// the chain check finds. FOR UPDATE makes the second read the first's
// write; SERIALIZABLE makes the late ones fail with 40001 and retry.
func TestRMWLostUpdate(t *testing.T) {
	c := needPG(t)
	for _, tc := range []struct {
		name       string
		iso        string
		forUpdate  bool
		lost       bool
		minRetries int64
	}{
		{"read committed", "read_committed", false, true, 0},
		{"read committed for update", "read_committed", true, false, 0},
		{"serializable", "serializable", false, false, 1},
		{"repeatable read for update", "repeatable_read", true, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			table := testTable(t, c, "txn_lost_"+strings.ReplaceAll(tc.name, " ", "_"))
			if _, err := c.Exec(ctx, "INSERT INTO "+table+" (YCSB_KEY, FIELD0) VALUES ('k', 'x0')"); err != nil {
				t.Fatal(err)
			}
			d := mustOpen(t, "postgresql", map[string]string{"db.url": testURL(), "table": table,
				propRMWInTxn: "true", propIsolation: tc.iso, propSelectForUpdate: strconv.FormatBool(tc.forUpdate)})
			defer d.Close()
			var sessions [2]db.ReadModifyWriter
			for i := range sessions {
				s, err := d.Session(ctx, i, 2)
				if err != nil {
					t.Fatal(err)
				}
				sessions[i] = s.(db.ReadModifyWriter)
				defer s.Close(ctx)
				var r db.Record // connect and prepare first
				if err := s.Read(ctx, table, "k", []string{"field0"}, &r); err != nil {
					t.Fatal(err)
				}
			}
			tx, err := c.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx) // after a failure: c serves the next case
			if _, err := tx.Exec(ctx, "UPDATE "+table+" SET FIELD0 = 'w' WHERE YCSB_KEY = 'k'"); err != nil {
				t.Fatal(err)
			}
			results := make([]rmwResult, 2)
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i, s := range sessions {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var r db.Record
					wrote := fmt.Sprintf("s%d", i)
					errs[i] = s.ReadModifyWrite(ctx, table, "k", []string{"field0"}, &r, []db.Field{{Name: "field0", Value: []byte(wrote)}})
					v, _ := r.Get("field0")
					results[i] = rmwResult{read: string(v), wrote: wrote}
				}()
			}
			waitLocked(t, table, 2)
			if err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("session %d: %v", i, err)
				}
			}
			final, err := field0(c, table, "k")
			if err != nil {
				t.Fatal(err)
			}
			chain := append(results, rmwResult{"x0", "w"}) // the blocker's write
			err = checkChain("x0", final, chain)
			if tc.lost != (err != nil) {
				t.Errorf("chain check: %v; want a lost update: %v (reads %+v)", err, tc.lost, results)
			}
			var retries int64
			for _, s := range sessions {
				retries += s.(db.RetryCounter).Retries()
			}
			if retries < tc.minRetries || (tc.minRetries == 0 && retries != 0) {
				t.Errorf("%d retries, want %s", retries, map[bool]string{true: "none", false: "some"}[tc.minRetries == 0])
			}
		})
	}
}

// Sixteen sessions run read-modify-writes over three keys under
// SERIALIZABLE: every one either commits or fails with the database's own
// 40001 after its retries, and each key's committed writes form one chain
// ending at the table's value (no update lost).
func TestRMWSerializableParallel(t *testing.T) {
	c := needPG(t)
	ctx := context.Background()
	table := testTable(t, c, "txn_parallel")
	keys := []string{"k0", "k1", "k2"}
	for _, k := range keys {
		if _, err := c.Exec(ctx, "INSERT INTO "+table+" (YCSB_KEY, FIELD0) VALUES ($1, 'x0')", k); err != nil {
			t.Fatal(err)
		}
	}
	d := mustOpen(t, "postgresql", map[string]string{"db.url": testURL(), "table": table, "threadcount": "16",
		propRMWInTxn: "true", propIsolation: "serializable", propTxnRetries: "3"})
	defer d.Close()
	const workers, each = 16, 40
	var (
		mu        sync.Mutex
		committed = map[string][]rmwResult{}
		failed    int
		retries   int64
		wg        sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		s, err := d.Session(ctx, w, workers)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.Close(ctx)
			rmw := s.(db.ReadModifyWriter)
			for i := 0; i < each; i++ {
				key := keys[(w+i)%len(keys)]
				wrote := fmt.Sprintf("w%d-%d", w, i)
				var r db.Record
				err := rmw.ReadModifyWrite(ctx, table, key, []string{"field0"}, &r, []db.Field{{Name: "field0", Value: []byte(wrote)}})
				v, _ := r.Get("field0")
				mu.Lock()
				switch {
				case err == nil:
					committed[key] = append(committed[key], rmwResult{string(v), wrote})
				case db.StatusOf(err) == db.Error && strings.Contains(err.Error(), "retries exhausted") && strings.Contains(err.Error(), "SQLSTATE 40001"):
					failed++
					if r.Len() != 0 {
						t.Errorf("a failed read-modify-write returned a read: %v", r.Fields)
					}
				default:
					t.Errorf("unexpected error: %v", err)
				}
				mu.Unlock()
			}
			mu.Lock()
			retries += s.(db.RetryCounter).Retries()
			mu.Unlock()
		}()
	}
	wg.Wait()
	n := failed
	for _, k := range keys {
		final, err := field0(c, table, k)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkChain("x0", final, committed[k]); err != nil {
			t.Errorf("%s: %v", k, err)
		}
		n += len(committed[k])
	}
	if n != workers*each {
		t.Errorf("%d operations accounted for, want %d", n, workers*each)
	}
	if retries == 0 {
		t.Error("no retries under contention at SERIALIZABLE")
	}
	var reported int64 = -1
	for _, st := range d.(db.StatsReporter).Stats() {
		if st.Section == "TXN-RETRIES" && st.Name == "Retries" {
			reported = st.Value.(int64)
		}
	}
	if reported != retries {
		t.Errorf("[TXN-RETRIES] reports %d, the sessions counted %d", reported, retries)
	}
	t.Logf("%d committed, %d gave up, %d retries", workers*each-failed, failed, retries)
}

// The session default is set on every connection: single statements run
// at jdbc.isolation too.
func TestIsolationOnEveryConnection(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "txn_iso")
	d := mustOpen(t, "postgresql", map[string]string{"db.url": testURL(), "table": table, propIsolation: "TRANSACTION_REPEATABLE_READ"})
	defer d.Close()
	for _, sh := range d.(*pgDB).shards {
		var got string
		if err := sh.pool.QueryRow(context.Background(), "SHOW transaction_isolation").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != "repeatable read" {
			t.Errorf("a pooled connection runs at %q", got)
		}
	}
}

// A contended run (issue 29's known answer): SERIALIZABLE, 16 threads,
// read-modify-writes only over 5 records, with data integrity on. Every
// operation is counted, as OK or ERROR, the retries are reported, and
// there is no READ or UPDATE section: the transaction is one
// READ-MODIFY-WRITE.
func TestContendedRunReport(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "txn_run")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	common := []string{"-P", filepath.Join(root, "workloads", "workloada"), "-p", "db.url=" + testURL(), "-p", "table=" + table,
		"-p", "recordcount=5", "-p", "dataintegrity=true"}
	bin := ycsbtest.Binary(t)
	if out, err := exec.Command(bin, append([]string{"load", "postgresql"}, common...)...).CombinedOutput(); err != nil {
		t.Fatalf("load: %v\n%s", err, out)
	}
	run := append([]string{"run", "postgresql"}, common...)
	run = append(run, "-p", "operationcount=2000", "-p", "readproportion=0", "-p", "updateproportion=0",
		"-p", "readmodifywriteproportion=1", "-threads", "16",
		"-p", "jdbc.rmwintxn=true", "-p", "jdbc.isolation=serializable")
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, run...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run() // exits non-zero when operations failed
	report := stdout.String()
	row := func(section, name string) int64 {
		m := regexp.MustCompile(`(?m)^\[` + regexp.QuoteMeta(section) + `\], ` + regexp.QuoteMeta(name) + `, (\d+)`).FindStringSubmatch(report)
		if m == nil {
			return 0
		}
		v, _ := strconv.ParseInt(m[1], 10, 64)
		return v
	}
	ok, failed := row("READ-MODIFY-WRITE", "Return=OK"), row("READ-MODIFY-WRITE", "Return=ERROR")
	if ok+failed != 2000 {
		t.Errorf("OK %d + ERROR %d: want 2000\n%s\n%s", ok, failed, report, stderr.String())
	}
	if r := row("READ-MODIFY-WRITE", "Retries"); r == 0 || r != row("TXN-RETRIES", "Retries") {
		t.Errorf("[READ-MODIFY-WRITE] Retries %d, [TXN-RETRIES] %d: want the same, above 0", r, row("TXN-RETRIES", "Retries"))
	}
	if strings.Contains(report, "[READ], ") || strings.Contains(report, "[UPDATE], ") {
		t.Errorf("a READ or UPDATE section in a transactional run:\n%s", report)
	}
	if v := row("VERIFY", "Return=OK"); v != ok || row("VERIFY", "Return=UNEXPECTED_STATE") != 0 {
		t.Errorf("VERIFY OK %d for %d committed read-modify-writes", v, ok)
	}
	if failed > 0 && !strings.Contains(stdout.String()+stderr.String(), "SQLSTATE 40001") {
		t.Errorf("failed operations without the database's error:\n%s", stderr.String())
	}
}

// swallowing is a transaction body that writes, then ignores the error of
// a statement that fails: PostgreSQL has aborted the transaction, and
// answers its COMMIT with ROLLBACK, not with an error.
type swallowing struct{ table string }

func (b swallowing) Attempt(ctx context.Context, tx db.Txn) error {
	if err := tx.Update(ctx, b.table, "k", []db.Field{{Name: "field0", Value: []byte("written")}}); err != nil {
		return err
	}
	_ = tx.Update(ctx, b.table, "k", []db.Field{{Name: "nosuchfield", Value: []byte("x")}})
	return nil
}

// TestTransactAbortedNotCommitted: a transaction that PostgreSQL aborted
// is an error, never reported as committed, and nothing of it is kept.
func TestTransactAbortedNotCommitted(t *testing.T) {
	c := needPG(t)
	ctx := context.Background()
	table := testTable(t, c, "txn_aborted")
	if _, err := c.Exec(ctx, "INSERT INTO "+table+" (YCSB_KEY, FIELD0) VALUES ('k', 'before')"); err != nil {
		t.Fatal(err)
	}
	d := mustOpen(t, "postgresql", map[string]string{"db.url": testURL(), "table": table})
	defer d.Close()
	s, err := d.Session(ctx, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if err := s.(db.Transactional).Transact(ctx, swallowing{table}); err == nil {
		t.Fatal("Transact of an aborted transaction returned nil")
	}
	if v, err := field0(c, table, "k"); err != nil || v != "before" {
		t.Errorf("field0 %q (%v), want the value before the aborted transaction", v, err)
	}
	// The session goes on.
	var r db.Record
	if err := s.Read(ctx, table, "k", []string{"field0"}, &r); err != nil {
		t.Errorf("read after the aborted transaction: %v", err)
	}
}
