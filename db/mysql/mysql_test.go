package mysql

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

// testURL is the server the integration tests use (scripts/mariadb.sh
// start prepares it).
func testURL() string {
	if u := os.Getenv("YCSB_MYSQL_URL"); u != "" {
		return u
	}
	return "mysql://ycsb:ycsb@127.0.0.1:3306/ycsb"
}

// testTarget is testURL parsed.
func testTarget(t testing.TB) *target {
	t.Helper()
	tg, err := parseTarget(testURL())
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// hostPort is the test server's address.
func hostPort(t testing.TB) string { return testTarget(t).hosts[0].String() }

// nativeDSN is the test server as go-sql-driver's DSN.
func nativeDSN(t testing.TB) string {
	tg := testTarget(t)
	return fmt.Sprintf("%s:%s@tcp(%s)/%s", tg.user, tg.passwd, tg.hosts[0], tg.dbname)
}

// jdbcURL is the test server as a Connector/J URL (credentials in
// db.user/db.passwd).
func jdbcURL(t testing.TB, extra string) string {
	tg := testTarget(t)
	s := "jdbc:mysql://" + tg.hosts[0].String() + "/" + tg.dbname
	if extra != "" {
		s += "?" + extra
	}
	return s
}

// needMySQL skips (or fails in CI) without a server and returns a
// database/sql handle for test setup.
func needMySQL(t testing.TB) *sql.DB {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	h, err := sql.Open("mysql", nativeDSN(t))
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = h.PingContext(ctx)
		cancel()
	}
	ycsbtest.NeedServer(t, "MariaDB or MySQL at "+hostPort(t)+" (scripts/mariadb.sh start)", err)
	t.Cleanup(func() { h.Close() })
	return h
}

// testTable creates a fresh table with the reference's schema on engine
// ("" the server's default).
func testTable(t testing.TB, h *sql.DB, name string, engine storageEngine) string {
	t.Helper()
	ctx := context.Background()
	if _, err := h.ExecContext(ctx, "DROP TABLE IF EXISTS "+name); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ExecContext(ctx, dialect{engine: engine}.createTableSQL(name, 10)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+name) })
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

func TestConformance(t *testing.T) {
	h := needMySQL(t)
	tg := testTarget(t)
	host, port := tg.hosts[0].Host, tg.hosts[0].Port
	cases := []struct {
		name    string
		binding string
		engine  storageEngine
		props   map[string]string
	}{
		{"jdbc", "jdbc", "", map[string]string{"db.driver": "com.mysql.cj.jdbc.Driver", "db.url": jdbcURL(t, ""), "db.user": tg.user, "db.passwd": tg.passwd}},
		{"jdbc-mariadb-url", "jdbc", "", map[string]string{"db.driver": "org.mariadb.jdbc.Driver", "db.url": strings.Replace(jdbcURL(t, "user="+tg.user+"&password="+tg.passwd), "mysql", "mariadb", 1)}},
		{"goycsb-props", "mysql", "", map[string]string{"mysql.host": host, "mysql.port": port, "mysql.user": tg.user, "mysql.password": tg.passwd, "mysql.db": tg.dbname}},
		{"mariadb-url", "mariadb", "", map[string]string{"db.url": testURL()}},
		{"native-dsn", "tidb", "", map[string]string{"db.url": nativeDSN(t), "mysql.force_index": "false"}},
		// A db.ReadModifyWriter only with jdbc.rmwintxn: the suite checks it.
		{"rmwintxn", "jdbc", "", map[string]string{"db.url": jdbcURL(t, ""), "db.user": tg.user, "db.passwd": tg.passwd,
			"jdbc.rmwintxn": "true", "jdbc.selectforupdate": "true"}},
		{"noautocommit", "jdbc", "", map[string]string{"db.url": jdbcURL(t, ""), "db.user": tg.user, "db.passwd": tg.passwd,
			"jdbc.autocommit": "false", "jdbc.fetchsize": "2"}},
		{"shards", "jdbc", "", map[string]string{"db.url": jdbcURL(t, "") + ";" + jdbcURL(t, "connectTimeout=5000"), "db.user": tg.user, "db.passwd": tg.passwd}},
		{"rocksdb", "mariadb", rocksDB, map[string]string{"db.url": testURL(), propEngine: "rocksdb"}},
		{"innodb", "mariadb", innoDB, map[string]string{"db.url": testURL(), propEngine: "InnoDB"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			table := testTable(t, h, "usertable_"+strings.ReplaceAll(tc.name, "-", "_"), tc.engine)
			tc.props["table"] = table
			opts := dbtest.Options{Table: table, Driver: driverOf(t, tc.binding), Props: props.FromMap(tc.props)}
			dbtest.Run(t, func(t *testing.T) db.DB { return mustOpen(t, tc.binding, tc.props) }, opts)
		})
	}
}

func TestOpenErrors(t *testing.T) {
	h := needMySQL(t)
	tg := testTarget(t)
	testTable(t, h, "ycsb_on_innodb", innoDB)
	cred := func(m map[string]string) map[string]string {
		m["db.user"], m["db.passwd"] = tg.user, tg.passwd
		return m
	}
	cases := []struct {
		name    string
		binding string
		props   map[string]string
		want    string
		badProp bool // a props error (exit 2 as bad input)
	}{
		{"wrong driver", "jdbc", map[string]string{"db.driver": "org.postgresql.Driver", "db.url": jdbcURL(t, "")}, "db.driver", true},
		{"no url", "jdbc", map[string]string{}, "db.url", true},
		{"postgres url", "jdbc", map[string]string{"db.url": "jdbc:postgresql://127.0.0.1/ycsb"}, "db.url", true},
		{"url and host", "mysql", map[string]string{"db.url": testURL(), "mysql.host": "h"}, "mysql.host", true},
		{"bad batchsize", "jdbc", map[string]string{"db.url": jdbcURL(t, ""), "db.batchsize": "x"}, "db.batchsize", true},
		{"bad batch.size", "mysql", map[string]string{"batch.size": "0"}, "batch.size", true},
		{"bad engine", "mysql", map[string]string{propEngine: "myisam"}, propEngine, true},
		{"bad port", "mysql", map[string]string{"mysql.port": "70000"}, "mysql.port", true},
		{"bad timeout", "jdbc", map[string]string{"db.url": jdbcURL(t, ""), "db.timeout": "30s"}, "db.timeout", true},
		{"bad bool in url", "jdbc", map[string]string{"db.url": jdbcURL(t, "useSSL=yes")}, "useSSL", true},
		{"bad protocol", "jdbc", map[string]string{"db.url": "jdbc:mysql:cluster://h/ycsb"}, "cluster", true},
		{"refused", "jdbc", map[string]string{"db.url": "jdbc:mysql://127.0.0.1:1/ycsb?connectTimeout=2000", "db.user": "ycsb", "db.passwd": "s3cretpw"}, "connection refused", false},
		{"bad password", "jdbc", map[string]string{"db.url": jdbcURL(t, ""), "db.user": tg.user, "db.passwd": "wrong-s3cretpw"}, "Access denied", false},
		{"bad password in url", "mysql", map[string]string{"db.url": "mysql://" + tg.user + ":wrong-s3cretpw@" + tg.hosts[0].String() + "/" + tg.dbname}, "Access denied", false},
		{"bad password in native dsn", "mysql", map[string]string{"db.url": tg.user + ":wrong-s3cretpw@tcp(" + tg.hosts[0].String() + ")/" + tg.dbname}, "Access denied", false},
		{"bad password in go-ycsb props", "mysql", map[string]string{"mysql.user": tg.user, "mysql.password": "wrong-s3cretpw", "mysql.port": tg.hosts[0].Port}, "Access denied", false},
		{"missing table", "jdbc", cred(map[string]string{"db.url": jdbcURL(t, ""), "table": "no_such_table"}), "table no_such_table does not exist", false},
		{"engine mismatch", "jdbc", cred(map[string]string{"db.url": jdbcURL(t, ""), "table": "ycsb_on_innodb", propEngine: "rocksdb"}), "is on InnoDB, not ROCKSDB", false},
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

// TestStartupLines: the reference's start-up lines, the URL of every form
// shown with its password masked.
func TestStartupLines(t *testing.T) {
	h := needMySQL(t)
	tg := testTarget(t)
	table := testTable(t, h, "ycsb_lines", "")
	hp := tg.hosts[0].String()
	for _, tc := range []struct {
		name, binding string
		props         map[string]string
		want          string
	}{
		{"jdbc", "jdbc", map[string]string{"db.url": jdbcURL(t, "user="+tg.user+"&password="+tg.passwd+"&autoReconnect=true&rewriteBatchedStatements=true"), "db.batchsize": "128", "jdbc.fetchsize": "10"},
			"Adding shard node URL: jdbc:mysql://" + hp + "/" + tg.dbname + "?user=" + tg.user + "&password=*****&autoReconnect=true&rewriteBatchedStatements=true\n" +
				"jdbc: ignoring URL parameters this binding does not use: autoReconnect\n" +
				"Using shards: 1, batchSize:128, fetchSize: 10\n"},
		{"url", "mariadb", map[string]string{"db.url": "mysql://" + tg.user + ":" + tg.passwd + "@" + hp + "/" + tg.dbname},
			"Adding shard node URL: mysql://" + tg.user + ":*****@" + hp + "/" + tg.dbname + "\nUsing shards: 1, batchSize:-1, fetchSize: -1\n"},
		{"native", "mysql", map[string]string{"db.url": nativeDSN(t), "batch.size": "100"},
			"Adding shard node URL: " + tg.user + ":*****@tcp(" + hp + ")/" + tg.dbname + "\nUsing shards: 1, batchSize:100, fetchSize: -1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.props["table"] = table
			d, out, err := openWith(t, tc.binding, tc.props)
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			if out != tc.want {
				t.Errorf("output:\n%s\nwant:\n%s", out, tc.want)
			}
		})
	}
}

// TestBatchStatuses checks the reference's batching: BATCHED_OK until the
// batch is full, then OK, and the rows are stored once Close returns; a
// batch that spans several statements goes in whole.
func TestBatchStatuses(t *testing.T) {
	h := needMySQL(t)
	tg := testTarget(t)
	table := testTable(t, h, "ycsb_batch", "")
	d := mustOpen(t, "jdbc", map[string]string{"db.url": jdbcURL(t, ""), "db.user": tg.user, "db.passwd": tg.passwd,
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
		h.QueryRow("SELECT count(*) FROM " + table).Scan(&n)
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
}

// TestChunks: a batch is split into statements of equal rows within the
// parameter and size bounds (4 MiB / 1001 bytes a row = 4190 rows).
func TestChunks(t *testing.T) {
	s := &session{}
	var b batchOf
	b.fill(10, 1000, 100)
	if got := fmt.Sprint(s.chunks(&b.Batch)); got != "[1000]" {
		t.Errorf("1000 rows of 1 KB: %s", got)
	}
	b = batchOf{}
	b.fill(10, 10000, 100)
	if got := s.chunks(&b.Batch); len(got) != 3 || got[0] != 4190 || got[2] != 10000-2*4190 {
		t.Errorf("10000 rows of 1 KB: %v", got)
	}
	b = batchOf{}
	b.fill(1, 7000, 1)
	if got := s.chunks(&b.Batch); len(got) != 1 {
		t.Errorf("7000 rows of two parameters: %v", got)
	}
	if got := rowsPerInsert(10); got*11 > maxParams {
		t.Errorf("rowsPerInsert(10) = %d", got)
	}
}

func TestRetryableCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&gomysql.MySQLError{Number: 1213, Message: "Deadlock found"}, true},
		{fmt.Errorf("commit: %w", &gomysql.MySQLError{Number: 1205}), true},
		{&gomysql.MySQLError{Number: 1062, Message: "Duplicate entry"}, false},
		{gomysql.ErrInvalidConn, false},
	} {
		if got := isRetryable(tc.err); got != tc.want {
			t.Errorf("isRetryable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

func TestSentUnsure(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		unknown bool
	}{
		{"answered", sent(&gomysql.MySQLError{Number: 1062}), false},
		{"nothing sent", sent(fmt.Errorf("x: %w", errBadConn)), false},
		{"cut", sent(gomysql.ErrInvalidConn), true},
		{"not sent", gomysql.ErrInvalidConn, false},
	} {
		if got := db.IsOutcomeUnknown(sentUnsure(tc.err)); got != tc.unknown {
			t.Errorf("%s: unknown %v, want %v", tc.name, got, tc.unknown)
		}
	}
}
