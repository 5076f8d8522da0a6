package stress

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// TestSpeculativeDelayCounted: with -mode speculativeDelay= on the shared
// three-node cluster (a keyspace of the test's own at RF=3; no node is
// stopped), reads and writes unanswered after 1 ms go to a second replica
// too, and the Results block and the JSON report count the second
// requests and the operations they answered. On two shared cores some of
// 2,000 requests always take over 1 ms.
func TestSpeculativeDelayCounted(t *testing.T) {
	t.Parallel()
	hosts := ycsbtest.CassandraCluster(t)
	const ks = "stress_it_speculate"
	for _, cmd := range []string{"write", "read"} {
		report := filepath.Join(t.TempDir(), cmd+".json")
		out := runLine(t, cmd, "n=2000", "cl=QUORUM", "no-warmup", "-rate", "threads=8",
			"-schema", "keyspace="+ks, "replication(factor=3)",
			"-mode", "native", "cql3", "speculativeDelay=1",
			"-log", "json="+report, "-node", strings.Join(hosts, ","))
		if !strings.Contains(out, "  Speculative Delay: 1 ms\n") {
			t.Errorf("%s: the settings do not show the delay:\n%s", cmd, out)
		}
		m := regexp.MustCompile(`(?m)^Speculative requests +: +([0-9,]+)\nSpeculative wins +: +([0-9,]+)$`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no speculation lines in the Results block:\n%s", cmd, out)
		}
		n := func(s string) int64 {
			v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		sent, won := n(m[1]), n(m[2])
		t.Logf("%s: %d speculative requests, %d wins", cmd, sent, won)
		if sent == 0 || won > sent {
			t.Errorf("%s: %d speculative requests, %d wins; want some, wins at most the requests", cmd, sent, won)
		}
		b, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		var rep jsonreport.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, r := range rep.Sections {
			if r.Metric == "CASSANDRA" {
				got[r.Name] = r.Value.String()
			}
		}
		if got["SpeculativeRequests"] != strconv.FormatInt(sent, 10) || got["SpeculativeWins"] != strconv.FormatInt(won, 10) {
			t.Errorf("%s: JSON [CASSANDRA] rows %v, want SpeculativeRequests %d and SpeculativeWins %d", cmd, got, sent, won)
		}
	}
}
