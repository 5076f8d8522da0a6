package mysql

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEconomyRetriesDeadlocks runs the closed economy on InnoDB at
// SERIALIZABLE with 8 threads on 20 accounts: transfers deadlock (1213),
// are rolled back and run again, each retry counted, and the balances
// still add up.
func TestEconomyRetriesDeadlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("a contended run of seconds; skipped with -short")
	}
	h := needMySQL(t)
	table := testTable(t, h, "economy_txn", innoDB)
	c := newCLI(t)
	common := []string{"-P", c.workload("closedeconomy"), "-p", "db.url=" + testURL(), "-p", "table=" + table,
		"-p", "recordcount=20", "-p", "jdbc.isolation=serializable"}
	c.run(false, append([]string{"load", "mariadb"}, common...)...)
	out, _ := c.run(false, append([]string{"run", "mariadb", "-threads", "8", "-p", "operationcount=3000"}, common...)...)
	for _, want := range []string{"[VALIDATE], STATUS, SUCCESS", "[VALIDATE], ACCOUNTS, 20"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	m := regexp.MustCompile(`\[TXN-RETRIES\], Retries, (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no [TXN-RETRIES] line:\n%s", out)
	}
	if n, _ := strconv.Atoi(m[1]); n == 0 {
		t.Errorf("no retries at SERIALIZABLE with 8 threads on 20 accounts:\n%s", out)
	}
	t.Logf("retries: %s", m[1])
}

// TestRMWInTxn: jdbc.rmwintxn runs each read-modify-write as one
// transaction, FOR UPDATE with jdbc.selectforupdate, measured as
// READ-MODIFY-WRITE.
func TestRMWInTxn(t *testing.T) {
	h := needMySQL(t)
	table := testTable(t, h, "ycsb_rmw", "")
	c := newCLI(t)
	common := []string{"-P", c.workload("workloadf"), "-p", "db.url=" + jdbcURL(t, "user=ycsb&password=ycsb"), "-p", "table=" + table,
		"-p", "recordcount=100"}
	c.run(false, append([]string{"load", "jdbc"}, common...)...)
	out, _ := c.run(false, append([]string{"run", "jdbc", "-threads", "4", "-p", "operationcount=1000",
		"-p", "jdbc.rmwintxn=true", "-p", "jdbc.selectforupdate=true"}, common...)...)
	if !regexp.MustCompile(`\[READ-MODIFY-WRITE\], Return=OK, \d+`).MatchString(out) {
		t.Errorf("no read-modify-write counted OK:\n%s", out)
	}
	if strings.Contains(out, "Return=ERROR") {
		t.Errorf("errors:\n%s", out)
	}
}
