package mysql

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// referenceTools finds the reference YCSB 0.17.0 jdbc binding with
// MariaDB Connector/J and go-ycsb, as built under
// ~/.cache/ycsb-reference (REF_CACHE); the test skips without them.
func referenceTools(t *testing.T) (javaCP, goycsb string) {
	t.Helper()
	cache := os.Getenv("REF_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "ycsb-reference")
	}
	jar := "/usr/share/java/mariadb-java-client.jar"
	for _, need := range []string{filepath.Join(cache, "javaycsb", "jdbc"), filepath.Join(cache, "go-ycsb"), jar} {
		if _, err := os.Stat(need); err != nil {
			t.Skipf("the reference tools are not built (%v)", err)
		}
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("no java")
	}
	return filepath.Join(cache, "javaycsb", "lib", "*") + ":" + filepath.Join(cache, "javaycsb", "jdbc") + ":" + jar, filepath.Join(cache, "go-ycsb")
}

// TestInterop: data loaded by the reference's jdbc binding (MariaDB
// Connector/J) reads back through ours with dataintegrity=true and the
// other way round; go-ycsb's mysql binding and ours read what the other
// loaded (ordered keys: go-ycsb hashes keys and builds dataintegrity
// values its own way, so only key-for-key reads cross with it).
func TestInterop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the reference tools; skipped with -short")
	}
	h := needMySQL(t)
	cp, goycsb := referenceTools(t)
	c := newCLI(t)
	tg := testTarget(t)
	wl := c.workload("workloadc")
	java := func(phase, table string, extra ...string) string {
		args := append([]string{"-cp", cp, "site.ycsb.Client", phase, "-db", "site.ycsb.db.JdbcDBClient", "-P", wl,
			"-p", "db.driver=org.mariadb.jdbc.Driver", "-p", "db.url=" + jdbcURL(t, ""), "-p", "db.user=" + tg.user,
			"-p", "db.passwd=" + tg.passwd, "-p", "table=" + table, "-p", "recordcount=500", "-p", "operationcount=1000",
			"-p", "dataintegrity=true", "-threads", "2"}, extra...)
		out, err := exec.Command("java", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("reference %s: %v\n%s", phase, err, out)
		}
		return string(out)
	}
	ours := func(phase, table string, extra ...string) string {
		out, _ := c.run(false, append([]string{phase, "jdbc", "-P", wl, "-p", "db.url=" + jdbcURL(t, ""), "-p", "db.user=" + tg.user,
			"-p", "db.passwd=" + tg.passwd, "-p", "table=" + table, "-p", "recordcount=500", "-p", "operationcount=1000",
			"-p", "dataintegrity=true", "-threads", "2"}, extra...)...)
		return out
	}
	verified := regexp.MustCompile(`\[VERIFY\], Return=OK, 1000\b`)

	t.Run("reference to ours", func(t *testing.T) {
		table := testTable(t, h, "interop_ref", "")
		java("-load", table)
		if out := ours("run", table, "-p", "readallfields=true"); !verified.MatchString(out) || strings.Contains(out, "UNEXPECTED_STATE") {
			t.Errorf("our reads of the reference's rows do not all verify:\n%s", out)
		}
	})
	t.Run("ours to reference", func(t *testing.T) {
		table := testTable(t, h, "interop_ours", "")
		ours("load", table, "-p", "jdbc.batchupdateapi=true", "-p", "db.batchsize=100")
		if out := java("-t", table); !verified.MatchString(out) {
			t.Errorf("the reference's reads of our rows do not all verify:\n%s", out)
		}
	})
	goRun := func(phase, table string) string {
		out, err := exec.Command(goycsb, phase, "mysql", "-P", wl, "-p", "mysql.host="+tg.hosts[0].Host, "-p", "mysql.port="+tg.hosts[0].Port,
			"-p", "mysql.user="+tg.user, "-p", "mysql.password="+tg.passwd, "-p", "mysql.db="+tg.dbname, "-p", "table="+table,
			"-p", "recordcount=500", "-p", "operationcount=1000", "-p", "insertorder=ordered", "-p", "threadcount=2").CombinedOutput()
		if err != nil {
			t.Fatalf("go-ycsb %s: %v\n%s", phase, err, out)
		}
		return string(out)
	}
	t.Run("go-ycsb to ours", func(t *testing.T) {
		table := testTable(t, h, "interop_goycsb", "")
		goRun("load", table)
		out, _ := c.run(false, "run", "mysql", "-P", wl, "-p", "db.url="+testURL(), "-p", "table="+table, "-p", "recordcount=500",
			"-p", "operationcount=1000", "-p", "insertorder=ordered", "-p", "readallfields=true")
		if !strings.Contains(out, "[READ], Return=OK, 1000") {
			t.Errorf("our reads of go-ycsb's rows are not all found:\n%s", out)
		}
	})
	t.Run("ours to go-ycsb", func(t *testing.T) {
		table := testTable(t, h, "interop_ours_goycsb", "")
		c.run(false, "load", "mysql", "-P", wl, "-p", "db.url="+testURL(), "-p", "table="+table, "-p", "recordcount=500", "-p", "insertorder=ordered")
		// go-ycsb's read of a missing row is no error: count what it read.
		var n int
		if err := h.QueryRow("SELECT COUNT(*) FROM " + table + " WHERE YCSB_KEY LIKE 'user%' AND FIELD9 IS NOT NULL").Scan(&n); err != nil || n != 500 {
			t.Fatalf("%d complete rows (%v), want 500", n, err)
		}
		if out := goRun("run", table); !regexp.MustCompile(`READ +- Takes\(s\): [\d.]+, Count: 1000,`).MatchString(out) || strings.Contains(out, "READ_ERROR") {
			t.Errorf("go-ycsb's reads of our rows:\n%s", out)
		}
	})
}
