package jdbc

import (
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db/mysql"
	"github.com/goycsb/ycsb/db/postgres"
	"github.com/goycsb/ycsb/props"
)

// TestChoose: db.url picks the protocol, as JDBC's driver manager picks a
// driver; db.driver must agree with it. No server is needed.
func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  map[string]string
		want binding // nil: an error naming wantProp
		prop string
	}{
		{"postgres jdbc", map[string]string{"db.url": "jdbc:postgresql://h/db"}, postgres.JDBC, ""},
		{"cockroach jdbc", map[string]string{"db.url": "jdbc:cockroachdb://h/db", "db.driver": "org.postgresql.Driver"}, postgres.JDBC, ""},
		{"postgres url", map[string]string{"db.url": "postgres://u:p@h/db"}, postgres.JDBC, ""},
		{"libpq", map[string]string{"db.url": "host=h dbname=d"}, postgres.JDBC, ""},
		{"mysql jdbc", map[string]string{"db.url": "jdbc:mysql://h:3306/ycsb", "db.driver": "com.mysql.jdbc.Driver"}, mysql.JDBC, ""},
		{"mariadb jdbc", map[string]string{"db.url": "jdbc:mariadb://h/ycsb", "db.driver": "org.mariadb.jdbc.Driver"}, mysql.JDBC, ""},
		{"tidb jdbc", map[string]string{"db.url": "JDBC:TiDB://h:4000/test"}, mysql.JDBC, ""},
		{"loadbalance", map[string]string{"db.url": "jdbc:mysql:loadbalance://h1,h2/ycsb"}, mysql.JDBC, ""},
		{"mysql url", map[string]string{"db.url": "mysql://root@h/ycsb"}, mysql.JDBC, ""},
		{"native dsn", map[string]string{"db.url": "root:pw@tcp(h:3306)/ycsb"}, mysql.JDBC, ""},
		{"shards", map[string]string{"db.url": "jdbc:mysql://a/y;jdbc:mysql://b/y"}, mysql.JDBC, ""},
		{"driver only", map[string]string{"db.driver": "org.mariadb.jdbc.Driver"}, mysql.JDBC, ""},
		{"nothing", map[string]string{}, postgres.JDBC, ""},
		{"mixed shards", map[string]string{"db.url": "jdbc:mysql://a/y;jdbc:postgresql://b/y"}, nil, "db.url"},
		{"mysql driver, pg url", map[string]string{"db.url": "jdbc:postgresql://h/db", "db.driver": "com.mysql.cj.jdbc.Driver"}, nil, "db.driver"},
		{"pg driver, mysql url", map[string]string{"db.url": "jdbc:mysql://h/db", "db.driver": "org.postgresql.Driver"}, nil, "db.driver"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := choose(props.FromMap(tc.set))
			if tc.want == nil {
				if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), tc.prop) {
					t.Fatalf("err %v, want bad input naming %s", err, tc.prop)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("choose = %T %v, %v; want %T", got, got, err, tc.want)
			}
		})
	}
}

// TestCheckDispatches: the checks before a run (no server) are the chosen
// binding's.
func TestCheckDispatches(t *testing.T) {
	if err := (dispatcher{}).Check(props.FromMap(map[string]string{"db.url": "jdbc:mysql://h/db", "mysql.storage_engine": "heap"})); err == nil || !strings.Contains(err.Error(), "mysql.storage_engine") {
		t.Errorf("mysql check: %v", err)
	}
	if err := (dispatcher{}).Check(props.FromMap(map[string]string{"db.url": "jdbc:postgresql://h/db", "cockroach.families": "true", "db.dialect": "postgres"})); err == nil {
		t.Errorf("postgres check passed")
	}
	if err := (dispatcher{}).Transactions(props.FromMap(map[string]string{"db.url": "jdbc:mysql://a/y;jdbc:mysql://b/y"})); err == nil {
		t.Errorf("transactions over two shards accepted")
	}
}
