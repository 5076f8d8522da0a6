package postgres

import (
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
)

var (
	pg      = dialect{}
	crdb    = dialect{cockroach: true}
	crdbAll = dialect{cockroach: true, upsert: true, followerReads: true, families: true}
)

func TestSQL(t *testing.T) {
	f2 := []string{"field1", "field3"}
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"read all", pg.sql().ReadSQL("usertable", nil), "SELECT * FROM usertable WHERE YCSB_KEY = $1"},
		{"read fields", pg.sql().ReadSQL("usertable", f2), "SELECT field1,field3 FROM usertable WHERE YCSB_KEY = $1"},
		{"scan all", pg.sql().ScanSQL("usertable", nil), "SELECT * FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2"},
		{"scan fields", pg.sql().ScanSQL("usertable", f2), "SELECT YCSB_KEY,field1,field3 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2"},
		{"insert", pg.sql().InsertSQL("usertable", f2, 1), "INSERT INTO usertable (YCSB_KEY,field1,field3) VALUES ($1,$2,$3)"},
		{"insert rewritten", pg.sql().InsertSQL("usertable", f2, 3), "INSERT INTO usertable (YCSB_KEY,field1,field3) VALUES ($1,$2,$3),($4,$5,$6),($7,$8,$9)"},
		{"update", pg.sql().UpdateSQL("usertable", f2), "UPDATE usertable SET field1=$1, field3=$2 WHERE YCSB_KEY = $3"},
		{"delete", pg.sql().DeleteSQL("usertable"), "DELETE FROM usertable WHERE YCSB_KEY = $1"},
		{"create", pg.createTableSQL("usertable", 3), "CREATE TABLE IF NOT EXISTS usertable (YCSB_KEY VARCHAR(255) PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT, FIELD2 TEXT)"},

		// The cockroach dialect without options writes the same SQL.
		{"crdb read", crdb.sql().ReadSQL("usertable", nil), "SELECT * FROM usertable WHERE YCSB_KEY = $1"},
		{"crdb insert", crdb.sql().InsertSQL("usertable", f2, 1), "INSERT INTO usertable (YCSB_KEY,field1,field3) VALUES ($1,$2,$3)"},
		{"crdb create", crdb.createTableSQL("usertable", 2), "CREATE TABLE IF NOT EXISTS usertable (YCSB_KEY VARCHAR(255) PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT)"},

		// With its options.
		{"crdb follower read", crdbAll.sql().ReadSQL("usertable", nil), "SELECT * FROM usertable AS OF SYSTEM TIME follower_read_timestamp() WHERE YCSB_KEY = $1"},
		{"crdb follower read fields", crdbAll.sql().ReadSQL("usertable", f2), "SELECT field1,field3 FROM usertable AS OF SYSTEM TIME follower_read_timestamp() WHERE YCSB_KEY = $1"},
		{"crdb follower scan", crdbAll.sql().ScanSQL("usertable", nil), "SELECT * FROM usertable AS OF SYSTEM TIME follower_read_timestamp() WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2"},
		{"crdb upsert", crdbAll.sql().InsertSQL("usertable", f2, 1), "UPSERT INTO usertable (YCSB_KEY,field1,field3) VALUES ($1,$2,$3)"},
		{"crdb upsert rewritten", crdbAll.sql().InsertSQL("usertable", f2, 2), "UPSERT INTO usertable (YCSB_KEY,field1,field3) VALUES ($1,$2,$3),($4,$5,$6)"},
		{"crdb update stays update", crdbAll.sql().UpdateSQL("usertable", f2), "UPDATE usertable SET field1=$1, field3=$2 WHERE YCSB_KEY = $3"},
		{"crdb families", crdbAll.createTableSQL("usertable", 3),
			"CREATE TABLE IF NOT EXISTS usertable (YCSB_KEY VARCHAR(255) PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT, FIELD2 TEXT, FAMILY (YCSB_KEY), FAMILY (FIELD0), FAMILY (FIELD1), FAMILY (FIELD2))"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got\n  %s\nwant\n  %s", tc.got, tc.want)
			}
		})
	}
}

func TestFamiliesTenFields(t *testing.T) {
	sql := crdbAll.createTableSQL("usertable", 10)
	if n := strings.Count(sql, "FAMILY ("); n != 11 {
		t.Errorf("%d families, want 11 (key + 10 fields): %s", n, sql)
	}
	if !strings.HasSuffix(sql, "FAMILY (FIELD9))") {
		t.Errorf("last family: %s", sql)
	}
}

func TestRowsPerInsert(t *testing.T) {
	if got := rowsPerInsert(10); got != 5957 || got*11 > maxParams {
		t.Errorf("rowsPerInsert(10) = %d", got)
	}
}

func TestParseTarget(t *testing.T) {
	cases := []struct {
		name, url   string
		dsn         string
		display     string
		lb, rewrite bool
		unknown     string
		err         string
	}{
		{name: "issue's cockroach url",
			url:     "jdbc:postgresql://10.0.0.1:26257,10.0.0.2:26257,10.0.0.3:26257/defaultdb?autoReconnect=true&sslmode=disable&ssl=false&reWriteBatchedInserts=true&loadBalanceHosts=true",
			dsn:     "dbname='defaultdb' host='10.0.0.1,10.0.0.2,10.0.0.3' port='26257,26257,26257' sslmode='disable'",
			display: "jdbc:postgresql://10.0.0.1:26257,10.0.0.2:26257,10.0.0.3:26257/defaultdb?autoReconnect=true&sslmode=disable&ssl=false&reWriteBatchedInserts=true&loadBalanceHosts=true",
			lb:      true, rewrite: true, unknown: "autoReconnect"},
		{name: "default port and params",
			url:     "jdbc:postgresql://db.example/ycsb?user=u&password=p%27w&ApplicationName=ycsb&connectTimeout=7&currentSchema=s&ssl=true",
			dsn:     `application_name='ycsb' connect_timeout='7' dbname='ycsb' host='db.example' password='p\'w' port='5432' search_path='s' sslmode='verify-full' user='u'`,
			display: "jdbc:postgresql://db.example:5432/ycsb?user=u&password=*****&ApplicationName=ycsb&connectTimeout=7&currentSchema=s&ssl=true"},
		{name: "ssl=false without sslmode is prefer", url: "jdbc:postgresql://h/d?ssl=false",
			dsn: "dbname='d' host='h' port='5432' sslmode='prefer'", display: "jdbc:postgresql://h:5432/d?ssl=false"},
		{name: "ipv6", url: "jdbc:postgresql://[::1]:5433/d", dsn: "dbname='d' host='::1' port='5433'", display: "jdbc:postgresql://[::1]:5433/d"},
		{name: "local form", url: "jdbc:postgresql:ycsb", dsn: "dbname='ycsb' host='localhost' port='5432'", display: "jdbc:postgresql://localhost:5432/ycsb"},
		{name: "cockroach jdbc wrapper", url: "jdbc:cockroachdb://h:26257/d", dsn: "dbname='d' host='h' port='26257'", display: "jdbc:postgresql://h:26257/d"},
		{name: "postgres url",
			url:     "postgres://u:secret@127.0.0.1:5432/ycsb?sslmode=disable&reWriteBatchedInserts=true&load_balance_hosts=random",
			dsn:     "postgres://u:secret@127.0.0.1:5432/ycsb?sslmode=disable",
			display: "postgres://u:*****@127.0.0.1:5432/ycsb?sslmode=disable", lb: true, rewrite: true},
		{name: "keyword/value", url: "host=127.0.0.1 password='a b' dbname=ycsb", dsn: "host=127.0.0.1 password='a b' dbname=ycsb", display: "host=127.0.0.1 password=***** dbname=ycsb"},
		{name: "sslpassword", url: "jdbc:postgresql://h/d?sslkey=k&sslpassword=pw", dsn: "dbname='d' host='h' port='5432' sslkey='k' sslpassword='pw'",
			display: "jdbc:postgresql://h:5432/d?sslkey=k&sslpassword=*****"},
		{name: "postgres url query password", url: "postgres://u@h/d?password=p%40ss&sslpassword=k",
			dsn: "postgres://u@h/d?password=p%40ss&sslpassword=k", display: "postgres://u@h/d?password=*****&sslpassword=*****"},
		{name: "mysql", url: "jdbc:mysql://h/d", err: "not a PostgreSQL JDBC URL"},
		{name: "garbage", url: "127.0.0.1:5432", err: "not a PostgreSQL URL"},
		{name: "bad port", url: "jdbc:postgresql://h:0/d", err: "bad port"},
		{name: "bad sslmode", url: "jdbc:postgresql://h/d?sslmode=maybe", err: "sslmode"},
		{name: "bad bool", url: "jdbc:postgresql://h/d?reWriteBatchedInserts=1", err: "reWriteBatchedInserts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseTarget(tc.url)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.dsn != tc.dsn {
				t.Errorf("dsn\n  %s\nwant\n  %s", got.dsn, tc.dsn)
			}
			if got.display != tc.display {
				t.Errorf("display\n  %s\nwant\n  %s", got.display, tc.display)
			}
			if got.loadBalance != tc.lb || got.rewriteBatch != tc.rewrite {
				t.Errorf("loadBalance %v rewrite %v, want %v %v", got.loadBalance, got.rewriteBatch, tc.lb, tc.rewrite)
			}
			if u := strings.Join(got.unknown, ","); u != tc.unknown {
				t.Errorf("unknown %q, want %q", u, tc.unknown)
			}
		})
	}
}

// TestOpenErrorsMaskByStructure: errors from Open mask the password where
// it stands in the URL or DSN, and leave the rest of the message alone.
// None of these reaches a server: the URL fails to parse, or the port
// refuses the connection.
func TestOpenErrorsMaskByStructure(t *testing.T) {
	tests := []struct {
		name  string
		props map[string]string
		want  string // in the error
		leaks []string
	}{
		{"url password 1", map[string]string{"db.url": "postgres://u:1@127.0.0.1:5432/db?connect_timeout=soon"},
			"postgres://u:" + secret.Mask + "@127.0.0.1:5432/db", []string{":1@", "xxxxx27"}},
		{"db.passwd 1", map[string]string{"db.url": "jdbc:postgresql://127.0.0.1:1/db?connectTimeout=2", "db.user": "u", "db.passwd": "1"},
			"127.0.0.1", []string{"xxxxx27", "*****27"}},
		{"dsn quoted password", map[string]string{"db.url": `host=127.0.0.1 port=soon password='it\'s; p@ss w;rd=&?'`},
			"password=" + secret.Mask + "`: invalid port", []string{"w;rd", "ss w", "it\\", "s; p"}},
		{"dsn sslpassword", map[string]string{"db.url": "host=127.0.0.1 port=soon sslpassword=k3y"},
			"sslpassword=" + secret.Mask, []string{"k3y"}},
		{"jdbc url with userinfo", map[string]string{"db.url": "jdbc:postgresql://u:hunter2@127.0.0.1/db"},
			"?user=", []string{"hunter2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, out, err := openWith(t, "jdbc", tt.props)
			if err == nil {
				d.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error() + "\n" + out
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error lacks %q:\n%s", tt.want, msg)
			}
			for _, l := range tt.leaks {
				if strings.Contains(msg, l) {
					t.Errorf("error holds %q:\n%s", l, msg)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error on several lines: %q", err)
			}
		})
	}
}

// TestTLSFilesBounded: the TLS files of a URL (sslrootcert, sslcert,
// sslkey), which pgx reads itself, are checked as every input is (a
// regular file or a pipe, at most infile.MaxText) before pgx sees them:
// /dev/zero used to run pgx out of memory.
func TestTLSFilesBounded(t *testing.T) {
	for _, raw := range []string{
		"jdbc:postgresql://h/db?sslmode=verify-full&sslrootcert=/dev/zero",
		"jdbc:postgresql://h/db?sslcert=/dev/urandom",
		"postgres://h/db?sslmode=verify-full&sslrootcert=/dev/zero",
		"postgres://h/db?sslkey=/dev/zero",
	} {
		_, err := parseTarget(raw)
		if err == nil || !strings.Contains(err.Error(), "not a regular file or a pipe") || !props.IsBadInput(err) {
			t.Errorf("%s: %v, want bad input refusing the device", raw, err)
		}
	}
	if _, err := parseTarget("postgres://h/db?sslrootcert=" + t.TempDir()); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory as sslrootcert: %v", err)
	}
}
