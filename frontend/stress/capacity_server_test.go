package stress

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/measurement/slo"
)

// TestCapacity: -rate capacity runs steps at rising fixed= rates, each
// judged against -slo on intended latency, and ends with the search's
// summary: its steps, the answer and what limited it. The node is shared
// and noisy, so the test checks the search's shape, not its answer; the
// known answers of the search are package capacity's. No idle time
// before the steps (cooldown=0): the test judges the search's rows, not
// the node's recovery.
func TestCapacity(t *testing.T) {
	t.Parallel() // keyspaces, files and processes of its own on the shared node
	s := cluster(t)
	ks := keyspace(t, s, "capacity")
	var stdout, stderr bytes.Buffer
	err := Main(context.Background(), []string{"write", "no-warmup", "-rate", "capacity", "start=1000/s", "growth=4",
		"resolution=50%", "step=1s", "cooldown=0", "threads<=8", "-slo", "write.p50<=1s",
		"-schema", "replication(factor=1)", "keyspace=" + ks, "-node", testNode, "-log", "no-settings"},
		Env{Stdout: &stdout, Stderr: &stderr, Version: "test"})
	out := stdout.String()
	if err != nil && !slo.IsUnmet(err) {
		t.Fatalf("%v\n%s\n%s", err, out, stderr.String())
	}
	// A search where no step met the objectives ends as a failed run
	// does (a loaded machine's node answered single writes in 2-3 s).
	none := strings.Contains(out, "Max op rate meeting -slo  : none")
	if !strings.HasSuffix(out, "\nEND\n") && !(none && strings.HasSuffix(out, "\nFAILURE\n")) {
		t.Fatalf("no END (nor FAILURE after a search that passed no step):\n%s", out)
	}
	if !strings.Contains(out, "Running WRITE with 4 threads for 1s at fixed=1000/s after 2s of warm-up (capacity step 1)") {
		t.Errorf("no first step:\n%s", out)
	}
	steps := regexp.MustCompile(`(?m)^ +\d+ +[\d,]+ +[\d,]+ +(\d+)  (PASS|FAIL|CLIENT-LIMITED)`).FindAllStringSubmatch(out, -1)
	if len(steps) < 2 {
		t.Fatalf("summary has %d steps:\n%s", len(steps), out)
	}
	for _, st := range steps {
		if n, _ := strconv.Atoi(st[1]); n < 4 || n > 8 {
			t.Errorf("threads %s outside threads>=4 threads<=8", st[1])
		}
	}
	for _, w := range []string{"Capacity (ours), against write.p50<=1s on intended latency:", "Max op rate meeting -slo  : ", "Limit                     : "} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
}
