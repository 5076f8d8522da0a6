package postgres

import (
	"net/url"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/goycsb/ycsb/db/dbtest"
)

// TestLoadCutMidway: the connections die under a load's inserts after
// the server ran them. The load must not claim to have inserted fewer
// rows than the table holds: "at least N of M records inserted; K more
// with unknown outcome", with N exactly the rows it knows of and N+K the
// rows in the table, since each insert cut off here was applied.
func TestLoadCutMidway(t *testing.T) {
	c := needPG(t)
	table := testTable(t, c, "ycsb_cut")
	r, rows, cuts := cutMidLoad(t, c, table, "-p", "recordcount=100000", "-p", "db.holdconn=true", "-threads", "4", "-target", "2000",
		"-p", "report.json=-")
	if r.code != 1 {
		t.Errorf("exit %d, want 1 (load incomplete)\n%s", r.code, r.stderr)
	}
	if !r.incompleteLine || r.unknown == 0 {
		t.Fatalf("no 'at least N ... K more with unknown outcome' line (%d rows in the table, %d requests cut):\n%s", rows, cuts, r.stderr)
	}
	if r.reportedInserted != r.known {
		t.Errorf("the report counts %d inserts, the line %d", r.reportedInserted, r.known)
	}
	if r.unknown < 1 || r.unknown > 4 {
		t.Errorf("%d inserts of unknown outcome; want one per thread cut at most, at least one", r.unknown)
	}
	if r.known+r.unknown != rows {
		t.Errorf("%d known + %d unknown inserts; the table holds %d rows", r.known, r.unknown, rows)
	}
	if !regexp.MustCompile(`"unknown_outcome":` + strconv.FormatInt(r.unknown, 10) + `\b`).MatchString(r.stdout) {
		t.Errorf("the JSON report does not carry unknown_outcome %d:\n%s", r.unknown, r.stdout)
	}
	t.Logf("%d rows: %d known, %d of unknown outcome; %d requests cut", rows, r.known, r.unknown, cuts)
}

// cutMidLoad runs a load into table through a cutProxy, cuts once the
// table holds 500 rows, and returns what the load said, the rows then in
// the table and the requests cut.
func cutMidLoad(t *testing.T, c *pgx.Conn, table string, extra ...string) (r loadResult, rows int64, cuts int32) {
	t.Helper()
	u, err := url.Parse(testURL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := dbtest.NewCutProxy(t, u.Host)
	l := startLoad(t, "jdbc:postgresql://"+proxy.Addr()+u.Path+"?sslmode=disable", table, extra...)
	l.untilRows(t, c, table, 500)
	proxy.Cut()
	r = l.end(t, time.Minute, nil)
	return r, countRows(t, c, table), proxy.Cuts()
}
