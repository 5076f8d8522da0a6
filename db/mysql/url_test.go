package mysql

import (
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		url, hosts, db, user, display string
		roundRobin                    bool
		unknown                       string
		err                           string
	}{
		{url: "jdbc:mysql://10.0.0.1:3306,10.0.0.2/ycsb?user=u&password=hunter2&autoReconnect=true", hosts: "10.0.0.1:3306,10.0.0.2:3306", db: "ycsb", user: "u",
			display: "jdbc:mysql://10.0.0.1:3306,10.0.0.2:3306/ycsb?user=u&password=*****&autoReconnect=true", unknown: "autoReconnect"},
		{url: "jdbc:mysql:loadbalance://a,b:3307/d", hosts: "a:3306,b:3307", db: "d", display: "jdbc:mysql:loadbalance://a:3306,b:3307/d", roundRobin: true},
		{url: "jdbc:mariadb://[::1]:3306/d?sslMode=REQUIRED", hosts: "[::1]:3306", db: "d", display: "jdbc:mariadb://[::1]:3306/d?sslMode=REQUIRED"},
		{url: "jdbc:mysql:d", hosts: "localhost:3306", db: "d", display: "jdbc:mysql://localhost:3306/d"},
		{url: "mysql://root:hun%40ter2@h:4000/test?connectTimeout=5000", hosts: "h:4000", db: "test", user: "root", display: "mysql://root:*****@h:4000/test?connectTimeout=5000"},
		{url: "tidb://h/test", hosts: "h:3306", db: "test", display: "tidb://h:3306/test"},
		{url: "root:hunter2@tcp(h:3306)/ycsb?parseTime=true", hosts: "h:3306", db: "ycsb", user: "root", display: "root:*****@tcp(h:3306)/ycsb?parseTime=true"},
		{url: "jdbc:mysql://u:hunter2@h/d", err: "takes no user:password@"},
		{url: "jdbc:mysql://h/d?useSSL=maybe", err: "useSSL"},
		{url: "jdbc:mysql://h/d?sslMode=ON", err: "sslMode"},
		{url: "jdbc:mysql://h/d?connectTimeout=-1", err: "connectTimeout"},
		{url: "jdbc:mysql:fabric://h/d", err: "fabric"},
		{url: "jdbc:oracle:thin:@h:1521/x", err: "not a MySQL JDBC URL"},
		{url: "root:hunter2@unix(/tmp/s)/d", err: "TCP only"},
		{url: "h:3306", err: "not a MySQL URL"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			tg, err := parseTarget(tc.url)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "hunter2") {
					t.Fatalf("err %v, want one with %q and no password", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(hostStrings(tg), ","); got != tc.hosts {
				t.Errorf("hosts %s, want %s", got, tc.hosts)
			}
			if tg.dbname != tc.db || tg.user != tc.user || tg.display != tc.display || tg.roundRobin != tc.roundRobin ||
				strings.Join(tg.unknown, ",") != tc.unknown {
				t.Errorf("got db %q user %q display %q rr %v unknown %v", tg.dbname, tg.user, tg.display, tg.roundRobin, tg.unknown)
			}
		})
	}
}

func hostStrings(t *target) []string {
	var out []string
	for _, h := range t.hosts {
		out = append(out, h.String())
	}
	return out
}

// FuzzParseTarget: no input makes the parser panic, and what it displays
// holds no password it was given.
func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"jdbc:mysql://h:1,h2/d?user=u&password=p", "mysql://u:p@h/d", "u:p@tcp(h:1)/d?x=y", "jdbc:mysql:loadbalance://a,b/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, err := parseTarget(s)
		if err != nil {
			return
		}
		// Where the password stood it is masked: the display holds it
		// fewer times than the input did.
		if p := tg.passwd; p != "" {
			if in := strings.Count(s, p); in > 0 && strings.Count(tg.display, p) >= in {
				t.Errorf("display %q holds the password %q", tg.display, p)
			}
		}
	})
}

func TestSQL(t *testing.T) {
	f2 := []string{"field1", "field3"}
	plain, goycsb := dialect{}, dialect{forceIndex: true, clustered: true, engine: rocksDB}
	for _, tc := range []struct{ got, want string }{
		{plain.sql().ReadSQL("t", nil), "SELECT * FROM t WHERE YCSB_KEY = ?"},
		{goycsb.sql().ReadSQL("t", f2), "SELECT field1,field3 FROM t FORCE INDEX(`PRIMARY`) WHERE YCSB_KEY = ?"},
		{plain.sql().TxnReadSQL("t", f2, true), "SELECT field1,field3 FROM t WHERE YCSB_KEY = ? FOR UPDATE"},
		{goycsb.sql().ScanSQL("t", f2), "SELECT YCSB_KEY,field1,field3 FROM t FORCE INDEX(`PRIMARY`) WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?"},
		{plain.sql().InsertSQL("t", f2, 2), "INSERT INTO t (YCSB_KEY,field1,field3) VALUES (?,?,?),(?,?,?)"},
		{plain.sql().UpdateSQL("t", f2), "UPDATE t SET field1=?, field3=? WHERE YCSB_KEY = ?"},
		{plain.sql().DeleteSQL("t"), "DELETE FROM t WHERE YCSB_KEY = ?"},
		{plain.createTableSQL("t", 2), "CREATE TABLE IF NOT EXISTS t (YCSB_KEY VARCHAR(255) PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT)"},
		{goycsb.createTableSQL("t", 1), "CREATE TABLE IF NOT EXISTS t (YCSB_KEY VARCHAR(255) PRIMARY KEY /*T![clustered_index] CLUSTERED */, FIELD0 TEXT) ENGINE=ROCKSDB"},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %s\nwant %s", tc.got, tc.want)
		}
	}
}
