package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

// testURL is the server the integration tests use (scripts/postgres.sh start
// prepares it).
func testURL() string {
	if u := os.Getenv("YCSB_PG_URL"); u != "" {
		return u
	}
	return "postgres://ycsb:ycsb@127.0.0.1:5432/ycsb"
}

// needPG skips (or fails in CI) without a server and returns a plain pgx
// connection for test setup.
func needPG(t testing.TB) *pgx.Conn {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, testURL())
	if err == nil {
		err = c.Ping(ctx)
	}
	ycsbtest.NeedServer(t, "PostgreSQL at "+testURL()+" (scripts/postgres.sh start)", err)
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// testTable creates a fresh table with the reference's schema.
func testTable(t testing.TB, c *pgx.Conn, name string) string {
	t.Helper()
	ctx := context.Background()
	if _, err := c.Exec(ctx, "DROP TABLE IF EXISTS "+name); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, dialect{}.createTableSQL(name, 10)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Exec(context.Background(), "DROP TABLE IF EXISTS "+name) })
	return name
}

// driverOf is the driver registered as binding.
func driverOf(t testing.TB, binding string) db.Driver {
	t.Helper()
	if binding == "jdbc" {
		return JDBC // registered by db/jdbc, which imports this package
	}
	drv, _, err := db.Lookup(binding)
	if err != nil {
		t.Fatal(err)
	}
	return drv
}

func openWith(t testing.TB, binding string, m map[string]string) (db.DB, string, error) {
	t.Helper()
	var out bytes.Buffer
	d, err := driverOf(t, binding).Open(context.Background(), props.FromMap(m), &out)
	return d, out.String(), err
}

func mustOpen(t testing.TB, binding string, m map[string]string) db.DB {
	t.Helper()
	d, _, err := openWith(t, binding, m)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return d
}

// jdbcURL turns the test DSN into the JDBC form the reference's users write.
func jdbcURL(extra string) string {
	u := strings.TrimPrefix(strings.TrimPrefix(testURL(), "postgres://"), "postgresql://")
	if at := strings.LastIndexByte(u, '@'); at >= 0 {
		u = u[at+1:]
	}
	if i := strings.IndexByte(u, '?'); i >= 0 {
		u = u[:i]
	}
	s := "jdbc:postgresql://" + u + "?sslmode=disable"
	if extra != "" {
		s += "&" + extra
	}
	return s
}

func TestConformance(t *testing.T) {
	c := needPG(t)
	cases := []struct {
		name    string
		binding string
		props   map[string]string
	}{
		{"postgresql", "postgresql", map[string]string{"db.url": testURL()}},
		{"jdbc", "jdbc", map[string]string{"db.driver": "org.postgresql.Driver", "db.url": jdbcURL(""), "db.user": "ycsb", "db.passwd": "ycsb"}},
		{"jdbc-poolperop", "jdbc", map[string]string{"db.url": jdbcURL(""), "db.user": "ycsb", "db.passwd": "ycsb", propHoldConn: "false"}},
		// Batched inserts (db.batchsize with jdbc.batchupdateapi) are not
		// visible to the session's next read, which the suite expects:
		// TestBatchStatuses covers them.
		{"jdbc-rewrite", "jdbc", map[string]string{"db.url": jdbcURL("reWriteBatchedInserts=true"), "db.user": "ycsb", "db.passwd": "ycsb"}},
		// A db.ReadModifyWriter only with jdbc.rmwintxn: the suite checks it.
		{"jdbc-rmwintxn", "jdbc", map[string]string{"db.url": jdbcURL(""), "db.user": "ycsb", "db.passwd": "ycsb",
			"jdbc.rmwintxn": "true", "jdbc.selectforupdate": "true"}},
		{"jdbc-noautocommit", "jdbc", map[string]string{"db.url": jdbcURL(""), "db.user": "ycsb", "db.passwd": "ycsb",
			"jdbc.autocommit": "false", "jdbc.fetchsize": "2"}},
		{"jdbc-shards", "jdbc", map[string]string{"db.url": jdbcURL("") + ";" + jdbcURL("ApplicationName=shard2"), "db.user": "ycsb", "db.passwd": "ycsb"}},
		{"cockroach-dialect-on-postgres", "cockroach", map[string]string{"db.url": testURL()}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			table := testTable(t, c, "usertable_"+strings.ReplaceAll(tc.name, "-", "_"))
			tc.props["table"] = table
			opts := dbtest.Options{Table: table, Driver: driverOf(t, tc.binding), Props: props.FromMap(tc.props)}
			dbtest.Run(t, func(t *testing.T) db.DB { return mustOpen(t, tc.binding, tc.props) }, opts)
		})
	}
}

func TestOpenErrors(t *testing.T) {
	needPG(t)
	cases := []struct {
		name    string
		binding string
		props   map[string]string
		want    string
		badProp bool // a props error (exit 2 as bad input)
	}{
		{"wrong driver", "jdbc", map[string]string{"db.driver": "com.mysql.jdbc.Driver", "db.url": jdbcURL("")}, "db.driver", true},
		{"no url", "jdbc", map[string]string{}, "db.url", true},
		{"mysql url", "jdbc", map[string]string{"db.url": "jdbc:mysql://127.0.0.1/ycsb"}, "db.url", true},
		{"bad batchsize", "jdbc", map[string]string{"db.url": jdbcURL(""), "db.batchsize": "x"}, "db.batchsize", true},
		{"bad timeout", "jdbc", map[string]string{"db.url": jdbcURL(""), propTimeout: "30s"}, propTimeout, true},
		{"negative timeout", "jdbc", map[string]string{"db.url": jdbcURL(""), propTimeout: "-1"}, propTimeout, true},
		{"bad bool in url", "jdbc", map[string]string{"db.url": jdbcURL("loadBalanceHosts=yes")}, "loadBalanceHosts", true},
		{"families on postgres", "postgresql", map[string]string{"db.url": testURL(), propFamilies: "true"}, propFamilies, true},
		{"refused", "jdbc", map[string]string{"db.url": "jdbc:postgresql://127.0.0.1:1/ycsb?connectTimeout=2", "db.user": "ycsb", "db.passwd": "s3cretpw"}, "connection refused", false},
		{"bad password", "jdbc", map[string]string{"db.url": jdbcURL(""), "db.user": "ycsb", "db.passwd": "wrong-s3cretpw"}, "password authentication failed", false},
		{"bad password in url", "postgresql", map[string]string{"db.url": "postgres://ycsb:wrong-s3cretpw@127.0.0.1:5432/ycsb?sslmode=disable"}, "password authentication failed", false},
		{"missing table", "jdbc", map[string]string{"db.url": jdbcURL(""), "db.user": "ycsb", "db.passwd": "ycsb", "table": "no_such_table"}, "table no_such_table does not exist", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, out, err := openWith(t, tc.binding, tc.props)
			if err == nil {
				d.Close()
				t.Fatalf("Open succeeded, want an error with %q", tc.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q does not mention %q", msg, tc.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error is not one line: %q", msg)
			}
			if strings.Contains(msg+out, "s3cretpw") {
				t.Errorf("password in output: %q / %q", msg, out)
			}
			if got := props.IsBadInput(err); got != tc.badProp {
				t.Errorf("IsBadInput = %v, want %v (%v)", got, tc.badProp, err)
			}
		})
	}
}

func TestCreateTableAndOutput(t *testing.T) {
	c := needPG(t)
	c.Exec(context.Background(), "DROP TABLE IF EXISTS ycsb_created")
	t.Cleanup(func() { c.Exec(context.Background(), "DROP TABLE IF EXISTS ycsb_created") })
	d, out, err := openWith(t, "jdbc", map[string]string{
		"db.url": jdbcURL("autoReconnect=true&ssl=false&password=ycsb&ApplicationName=ycsbtest&connectTimeout=5"), "db.user": "ycsb",
		"table": "ycsb_created", "jdbc.createtable": "true", "fieldcount": "3", "db.batchsize": "128", "jdbc.fetchsize": "10"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want := []string{
		"Adding shard node URL: jdbc:postgresql://127.0.0.1:5432/ycsb?sslmode=disable&autoReconnect=true&ssl=false&password=*****&ApplicationName=ycsbtest&connectTimeout=5\n",
		"jdbc: ignoring URL parameters this binding does not use: autoReconnect\n",
		"Using shards: 1, batchSize:128, fetchSize: 10\n",
	}
	if out != strings.Join(want, "") {
		t.Errorf("output:\n%s\nwant:\n%s", out, strings.Join(want, ""))
	}
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM information_schema.columns WHERE table_name = 'ycsb_created'").Scan(&n); err != nil || n != 4 {
		t.Errorf("created table has %d columns (%v), want 4", n, err)
	}
	var app string
	ss, _ := d.Session(context.Background(), 0, 1)
	defer ss.Close(context.Background())
	sc := ss.(*session)
	conn, err := sc.get(context.Background(), &sc.conns[0])
	if err != nil {
		t.Fatal(err)
	}
	app = conn.ParameterStatus("application_name")
	if app != "ycsbtest" {
		t.Errorf("application_name = %q, want ycsbtest", app)
	}
}

// TestBatchStatuses checks the reference's batching (docs/compatibility.md,
// "jdbc binding"): BATCHED_OK until the batch is full, then OK,
// and the rows are stored once Close returns.
func TestBatchStatuses(t *testing.T) {
	c := needPG(t)
	for _, rewrite := range []bool{false, true} {
		t.Run(fmt.Sprint("rewrite=", rewrite), func(t *testing.T) {
			table := testTable(t, c, fmt.Sprint("ycsb_batch_", rewrite))
			d := mustOpen(t, "jdbc", map[string]string{"db.url": jdbcURL(fmt.Sprint("reWriteBatchedInserts=", rewrite)), "db.user": "ycsb", "db.passwd": "ycsb",
				"table": table, "db.batchsize": "4", "jdbc.batchupdateapi": "true"})
			defer d.Close()
			ss, _ := d.Session(context.Background(), 0, 1)
			var got []db.Status
			for i := 0; i < 10; i++ {
				got = append(got, db.StatusOf(ss.Insert(context.Background(), table, fmt.Sprint("k", i), []db.Field{{Name: "field0", Value: []byte("v")}})))
			}
			want := "[BATCHED_OK BATCHED_OK BATCHED_OK OK BATCHED_OK BATCHED_OK BATCHED_OK OK BATCHED_OK BATCHED_OK]"
			if fmt.Sprint(got) != want {
				t.Errorf("statuses %v, want %v", got, want)
			}
			count := func() (n int) {
				c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n)
				return n
			}
			if n := count(); n != 8 {
				t.Errorf("%d rows before Close, want 8", n)
			}
			if err := ss.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if n := count(); n != 10 {
				t.Errorf("%d rows after Close, want 10", n)
			}
		})
	}
}

// TestRetry40001 makes PostgreSQL return a serialization failure: the
// session's connections run at REPEATABLE READ and a concurrent transaction
// updates the row first. The cockroach dialect retries and counts it.
func TestRetry40001(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_retry")
	ctx := context.Background()
	if _, err := c.Exec(ctx, "INSERT INTO "+table+" (YCSB_KEY, FIELD0) VALUES ('k', 'v0')"); err != nil {
		t.Fatal(err)
	}
	sep := "?"
	if strings.Contains(testURL(), "?") {
		sep = "&"
	}
	url := testURL() + sep + "default_transaction_isolation=repeatable%20read"
	for _, tc := range []struct {
		name        string
		props       map[string]string
		wantStatus  db.Status
		wantRetries int64
	}{
		{"cockroach retries", map[string]string{propDialect: "cockroach"}, db.OK, 1},
		{"postgres dialect does not", map[string]string{propDialect: "postgres"}, db.Error, 0},
		{"bounded", map[string]string{propDialect: "cockroach", propMaxRetries: "0"}, db.Error, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.props["db.url"] = url
			tc.props["table"] = table
			d := mustOpen(t, "postgresql", tc.props)
			defer d.Close()
			ss, _ := d.Session(ctx, 0, 1)
			// Warm the connection and the statement so the update below
			// starts its snapshot at once.
			if err := ss.Update(ctx, table, "k", []db.Field{{Name: "field0", Value: []byte("warm")}}); err != nil {
				t.Fatal(err)
			}
			tx, err := c.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, "UPDATE "+table+" SET FIELD0 = 'other' WHERE YCSB_KEY = 'k'"); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- ss.Update(ctx, table, "k", []db.Field{{Name: "field0", Value: []byte("mine")}}) }()
			time.Sleep(300 * time.Millisecond) // the update waits for the row lock
			if err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			err = <-done
			if st := db.StatusOf(err); st != tc.wantStatus {
				t.Errorf("status %v (%v), want %v", st, err, tc.wantStatus)
			}
			if tc.wantStatus == db.Error && !strings.Contains(fmt.Sprint(err), "40001") {
				t.Errorf("error %v does not carry SQLSTATE 40001", err)
			}
			ss.Close(ctx)
			var retries int64 = -1
			for _, st := range d.(db.StatsReporter).Stats() {
				if st.Section == "TXN-RETRIES" && st.Name == "Retries" {
					retries = st.Value.(int64)
				}
			}
			if tc.wantRetries > 0 && retries != tc.wantRetries {
				t.Errorf("reported retries %d, want %d", retries, tc.wantRetries)
			}
		})
	}
}

// TestReconnect kills the session's backend: the next operation fails, the
// one after that works on a new connection.
func TestReconnect(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_reconnect")
	ctx := context.Background()
	d := mustOpen(t, "postgresql", map[string]string{"db.url": testURL(), "table": table})
	defer d.Close()
	ss, _ := d.Session(ctx, 0, 1)
	defer ss.Close(ctx)
	if err := ss.Insert(ctx, table, "k", []db.Field{{Name: "field0", Value: []byte("v")}}); err != nil {
		t.Fatal(err)
	}
	pid := ss.(*session).conns[0].conn.PID()
	var ok bool
	if err := c.QueryRow(ctx, "SELECT pg_terminate_backend($1)", int(pid)).Scan(&ok); err != nil || !ok {
		t.Skipf("cannot terminate the backend (%v); the test role needs pg_signal_backend or to own it", err)
	}
	time.Sleep(100 * time.Millisecond)
	var r db.Record
	if err := ss.Read(ctx, table, "k", nil, &r); db.StatusOf(err) != db.Error {
		t.Errorf("read on a killed connection: %v, want ERROR", err)
	}
	r.Reset()
	if err := ss.Read(ctx, table, "k", nil, &r); err != nil {
		t.Errorf("read after reconnect: %v", err)
	}
	ss.Close(ctx)
	for _, st := range d.(db.StatsReporter).Stats() {
		if st.Section == "CONNECTIONS" && st.Value.(int64) != 1 {
			t.Errorf("reconnects = %v, want 1", st.Value)
		}
	}
}

// TestLoadBalanceHosts runs two local TCP forwarders to the server and checks
// that loadBalanceHosts=true spreads sessions over both.
func TestLoadBalanceHosts(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_lb")
	target := c.Config().Host + ":" + fmt.Sprint(c.Config().Port)
	var mu sync.Mutex
	counts := map[string]int{}
	p1 := startForwarder(t, target, func(a string) { mu.Lock(); counts[a]++; mu.Unlock() })
	p2 := startForwarder(t, target, func(a string) { mu.Lock(); counts[a]++; mu.Unlock() })
	for _, lb := range []bool{true, false} {
		mu.Lock()
		clear(counts)
		mu.Unlock()
		url := fmt.Sprintf("jdbc:postgresql://%s,%s/%s?sslmode=disable&loadBalanceHosts=%v", p1, p2, c.Config().Database, lb)
		d := mustOpen(t, "jdbc", map[string]string{"db.url": url, "db.user": c.Config().User, "db.passwd": c.Config().Password, "table": table, "threadcount": "6"})
		var sessions []db.Session
		for i := 0; i < 6; i++ {
			ss, _ := d.Session(context.Background(), i, 6)
			var r db.Record
			if err := ss.Read(context.Background(), table, "none", nil, &r); !errors.Is(err, db.ErrNotFound) {
				t.Fatal(err)
			}
			sessions = append(sessions, ss)
		}
		for _, ss := range sessions {
			ss.Close(context.Background())
		}
		d.Close()
		mu.Lock()
		if lb && (counts[p1] < 2 || counts[p2] < 2) {
			t.Errorf("loadBalanceHosts=true: connections per host %v, want both used", counts)
		}
		if !lb && counts[p2] != 0 {
			t.Errorf("loadBalanceHosts=false: connections per host %v, want only the first", counts)
		}
		mu.Unlock()
	}
}

// startForwarder listens on a free loopback port and forwards every
// connection to target, calling onConn with its own address.
func startForwarder(t *testing.T, target string, onConn func(addr string)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	addr := ln.Addr().String()
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			onConn(addr)
			go func() {
				defer in.Close()
				out, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer out.Close()
				go io.Copy(out, in)
				io.Copy(in, out)
			}()
		}
	}()
	return addr
}

// TestCancelInFlight cancels the run's context while an update waits for a
// row lock: the session watches that context itself (not per statement), so
// the statement must still end at once, and the session stays usable with a
// new context.
func TestCancelInFlight(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_cancel")
	bg := context.Background()
	if _, err := c.Exec(bg, "INSERT INTO "+table+" (YCSB_KEY, FIELD0) VALUES ('k', 'v0')"); err != nil {
		t.Fatal(err)
	}
	d := mustOpen(t, "postgresql", map[string]string{"db.url": testURL(), "table": table, "jdbc.batchupdateapi": "true", "db.batchsize": "100"})
	defer d.Close()
	runCtx, cancel := context.WithCancel(bg)
	ss, _ := d.Session(runCtx, 0, 1)
	upd := []db.Field{{Name: "field0", Value: []byte("mine")}}
	if err := ss.Update(runCtx, table, "k", upd); err != nil {
		t.Fatal(err)
	}
	if err := ss.Insert(runCtx, table, "buffered", upd); !errors.Is(err, db.ErrBatched) {
		t.Fatalf("insert: %v, want BATCHED_OK", err)
	}
	tx, err := c.Begin(bg)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(bg)
	if _, err := tx.Exec(bg, "UPDATE "+table+" SET FIELD0 = 'other' WHERE YCSB_KEY = 'k'"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- ss.Update(runCtx, table, "k", upd) }()
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if db.StatusOf(err).IsOK() {
			t.Errorf("update succeeded after cancel")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("update blocked on a row lock did not return after cancel")
	}
	if err := ss.Update(runCtx, table, "k", upd); db.StatusOf(err).IsOK() {
		t.Errorf("update with a cancelled context succeeded")
	}
	tx.Rollback(bg)
	// Close with a live context still sends the buffered insert.
	if err := ss.Close(bg); err != nil {
		t.Fatalf("Close: %v", err)
	}
	var n int
	if err := c.QueryRow(bg, "SELECT count(*) FROM "+table+" WHERE YCSB_KEY = 'buffered'").Scan(&n); err != nil || n != 1 {
		t.Errorf("buffered insert not sent at Close: %d rows (%v)", n, err)
	}
	ss2, _ := d.Session(bg, 0, 1)
	defer ss2.Close(bg)
	var r db.Record
	if err := ss2.Read(bg, table, "k", nil, &r); err != nil {
		t.Errorf("read on a new session: %v", err)
	}
}

// TestTimeout: an operation that gets no answer (an update waiting for a row
// lock) ends after db.timeout as SERVICE_UNAVAILABLE, with the run's kind of
// context and with one without cancellation, holding connections or not;
// the session then goes on with a new connection.
func TestTimeout(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_timeout")
	bg := context.Background()
	if _, err := c.Exec(bg, "INSERT INTO "+table+" (YCSB_KEY, FIELD0) VALUES ('k', 'v0'), ('free', 'v0')"); err != nil {
		t.Fatal(err)
	}
	for _, hold := range []string{"true", "false"} {
		for _, cancellable := range []bool{true, false} {
			t.Run(fmt.Sprintf("holdconn=%s,cancellable=%v", hold, cancellable), func(t *testing.T) {
				d := mustOpen(t, "postgresql", map[string]string{"db.url": testURL(), "table": table, propTimeout: "0.5", propHoldConn: hold})
				defer d.Close()
				ctx := bg
				if cancellable {
					var cancel context.CancelFunc
					ctx, cancel = context.WithCancel(bg)
					defer cancel()
				}
				ss, _ := d.Session(ctx, 0, 1)
				defer ss.Close(bg)
				upd := []db.Field{{Name: "field0", Value: []byte("mine")}}
				if err := ss.Update(ctx, table, "free", upd); err != nil {
					t.Fatal(err)
				}
				tx, err := c.Begin(bg)
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Rollback(bg)
				if _, err := tx.Exec(bg, "UPDATE "+table+" SET FIELD0 = 'other' WHERE YCSB_KEY = 'k'"); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- ss.Update(ctx, table, "k", upd) }()
				select {
				case err := <-done:
					if got := db.StatusOf(err); got != db.ServiceUnavailable {
						t.Errorf("update waiting for a lock: %v (%v), want SERVICE_UNAVAILABLE", got, err)
					} else if !strings.Contains(err.Error(), propTimeout) {
						t.Errorf("error does not name %s: %v", propTimeout, err)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("update blocked on a row lock did not end after db.timeout=0.5")
				}
				tx.Rollback(bg)
				for i := 0; i < 3; i++ {
					if err := ss.Update(ctx, table, "free", upd); err != nil {
						t.Errorf("update after the timeout: %v", err)
					}
				}
			})
		}
	}
}

// TestAutocommitOff checks jdbc.autocommit=false: writes are committed every
// db.batchsize writes and at Close; an insert left in the open transaction
// is BATCHED_OK, the one whose COMMIT went through OK.
func TestAutocommitOff(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_noautocommit")
	bg := context.Background()
	d := mustOpen(t, "jdbc", map[string]string{"db.url": jdbcURL(""), "db.user": "ycsb", "db.passwd": "ycsb", "table": table,
		"jdbc.autocommit": "false", "db.batchsize": "3"})
	defer d.Close()
	ss, _ := d.Session(bg, 0, 1)
	count := func() (n int) {
		c.QueryRow(bg, "SELECT count(*) FROM "+table).Scan(&n)
		return n
	}
	want := []int{0, 0, 3, 3, 3, 6, 6}
	for i, w := range want {
		wantErr := db.ErrBatched
		if (i+1)%3 == 0 {
			wantErr = nil
		}
		if err := ss.Insert(bg, table, fmt.Sprint("k", i), []db.Field{{Name: "field0", Value: []byte("v")}}); err != wantErr {
			ss.Close(bg)
			t.Fatalf("insert %d: %v, want %v", i, err, wantErr)
		}
		if n := count(); n != w {
			t.Errorf("after insert %d: %d rows visible, want %d", i, n, w)
		}
	}
	if err := ss.Close(bg); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 7 {
		t.Errorf("after Close: %d rows, want 7", n)
	}
}
