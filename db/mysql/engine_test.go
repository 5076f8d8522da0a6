package mysql

import (
	"regexp"
	"strconv"
	"testing"
)

func TestRate(t *testing.T) {
	for _, tc := range []struct {
		hits, misses int64
		want         float64
	}{{0, 0, 0}, {3, 1, 75}, {2, 1, 66.67}, {-1, 1, 0}} {
		if got := rate(tc.hits, tc.misses); got != tc.want {
			t.Errorf("rate(%d, %d) = %v, want %v", tc.hits, tc.misses, got, tc.want)
		}
	}
}

// TestEngineStats: a load settled on each engine reports that engine's
// rows: MyRocks its flush and compaction, InnoDB its buffer pool.
func TestEngineStats(t *testing.T) {
	h := needMySQL(t)
	c := newCLI(t)
	for _, tc := range []struct {
		engine storageEngine
		rows   []string // rows with a value above 0
	}{
		{rocksDB, []string{"FlushBytesWritten", "CompactionBytesWritten", "UserBytesWritten", "SettleTime\\(ms\\)"}},
		{innoDB, []string{"BufferPoolReadRequests", "LogBytesWritten", "BufferPoolHitRate\\(%\\)"}},
	} {
		t.Run(string(tc.engine), func(t *testing.T) {
			table := "ycsb_stats_" + string(tc.engine)
			h.Exec("DROP TABLE IF EXISTS " + table)
			t.Cleanup(func() { h.Exec("DROP TABLE IF EXISTS " + table) })
			out, _ := c.run(false, "load", "mariadb", "-P", c.workload("workloada"), "-p", "db.url="+testURL(), "-p", "table="+table,
				"-p", propEngine+"="+string(tc.engine), "-p", propSettle+"=true", "-p", "recordcount=2000", "-p", "batch.size=100")
			var engine string
			if err := h.QueryRow("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?", table).Scan(&engine); err != nil || engine != tc.engine.sqlName() {
				t.Errorf("table on %q (%v), want %s", engine, err, tc.engine.sqlName())
			}
			for _, row := range tc.rows {
				m := regexp.MustCompile(`\[ENGINE\], ` + row + `, ([\d.]+)`).FindStringSubmatch(out)
				if m == nil {
					t.Errorf("no [ENGINE] %s row:\n%s", row, out)
					continue
				}
				if v, _ := strconv.ParseFloat(m[1], 64); v <= 0 {
					t.Errorf("[ENGINE] %s is %s after a settled load:\n%s", row, m[1], out)
				}
			}
		})
	}
}
