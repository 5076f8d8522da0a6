package cassandra

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/measurement/jsonreport"
)

// ownCluster is a three-node cluster of the test's own
// (scripts/cassandra-cluster.sh with addresses and a directory of its own),
// which the fault test freezes and kills: never the shared cluster's nodes.
// internal/ycsbtest's OwnCassandraCluster is the same for other packages.
type ownCluster struct {
	t     testing.TB
	env   []string
	hosts []string
}

func startOwnCluster(t testing.TB) *ownCluster {
	t.Helper()
	noServers(t)
	c := &ownCluster{t: t, hosts: []string{"127.0.0.21", "127.0.0.22", "127.0.0.23"}}
	c.env = append(os.Environ(), "CASSANDRA_CLUSTER_DIR="+t.TempDir(),
		"CASSANDRA_CLUSTER_HOSTS="+strings.Join(c.hosts, ","), "CASSANDRA_CLUSTER_NAME=ycsb-fault-test")
	t.Cleanup(func() { c.run("wipe") })
	dbtest.NeedServer(t, "a three-node Cassandra cluster of the test's own (scripts/cassandra-cluster.sh start)", c.run("start"))
	return c
}

func (c *ownCluster) run(args ...string) error {
	script := filepath.Join(repoRoot(c.t), "scripts", "cassandra-cluster.sh")
	if _, err := os.Stat(script); err != nil {
		return err
	}
	cmd := exec.Command(script, args...)
	cmd.Env = c.env
	out, err := cmd.CombinedOutput()
	c.t.Logf("cassandra-cluster.sh %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
	if err != nil {
		return fmt.Errorf("scripts/cassandra-cluster.sh %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// at runs the script with args once d has passed since start, in the
// background; the returned channel says it was done.
func (c *ownCluster) at(start time.Time, d time.Duration, args ...string) <-chan error {
	done := make(chan error, 1)
	go func() {
		time.Sleep(time.Until(start.Add(d)))
		done <- c.run(args...)
	}()
	return done
}

// The fault schedule, shortened from docs/cassandra.md's 60 s one: one
// node frozen for 10 s, another killed after it thawed.
const (
	faultTarget   = 2000
	faultFreezeAt = 6 * time.Second
	faultFreeze   = 10 * time.Second
	faultKillAt   = 20 * time.Second
	faultRunFor   = 30 // s
)

// TestClusterFaultSchedule runs workload A at QUORUM on a cluster of its
// own (RF=3), paced at 2,000 op/s on 32 threads, with speculation on: one
// node frozen for 10 s, another killed later. No operation may be lost
// (the failed ones are retried on another replica, and counted), and
// during the freeze each second must complete at least half the target.
// Then, one node still dead, at ALL every write must fail, counted.
func TestClusterFaultSchedule(t *testing.T) {
	if testing.Short() {
		t.Skip("starts, freezes and kills a cluster of its own; skipped with -short")
	}
	c := startOwnCluster(t)
	common := []string{"-P", "workloads/workloada", "-p", "hosts=" + strings.Join(c.hosts, ","),
		"-p", "cassandra.keyspace=ycsb_faults", "-p", "cassandra.createschema=true", "-p", "cassandra.replicationfactor=3",
		"-p", "recordcount=2000", "-p", "cassandra.readconsistencylevel=QUORUM", "-p", "cassandra.writeconsistencylevel=QUORUM"}
	if stdout, stderr, code := ycsb(t, 2*time.Minute, append([]string{"load", "cassandra-cql", "-threads", "8"}, common...)...); code != 0 {
		t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
	}

	report := filepath.Join(t.TempDir(), "report.json")
	args := append([]string{"run", "cassandra-cql", "-threads", "32", "-target", strconv.Itoa(faultTarget)}, common...)
	args = append(args, "-p", "operationcount=100000000", "-p", fmt.Sprintf("maxexecutiontime=%d", faultRunFor),
		"-p", "cassandra.speculativedelaymillis=50", "-p", "report.json="+report)
	start := time.Now()
	freeze := c.at(start, faultFreezeAt, "freeze", "1")
	thaw := c.at(start, faultFreezeAt+faultFreeze, "thaw", "1")
	kill := c.at(start, faultKillAt, "kill", "2")
	t.Cleanup(func() { c.run("thaw", "1") })
	stdout, stderr, code := ycsb(t, 3*time.Minute, args...)
	for _, ch := range []<-chan error{freeze, thaw, kill} {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	if code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var rep jsonreport.Report
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Failed == nil || *rep.Failed != 0 {
		t.Errorf("failed operations %v at QUORUM with two replicas of three up; want none\n%s", rep.Failed, stdout)
	}
	var retries int64
	for _, m := range rep.Measurements {
		retries += m.Retries
	}
	if retries == 0 {
		t.Errorf("no retries counted across a node killed under load\n%s", stdout)
	}
	if !regexp.MustCompile(`(?m)^\[(READ|UPDATE)\], Retries, [1-9]`).MatchString(stdout) {
		t.Errorf("no Retries row in the text report\n%s", stdout)
	}
	// The freeze, by the report's own clock: the whole seconds within it,
	// a second's margin for the run's start and the freeze's, against the
	// target or, on a machine too busy to keep it, the rate of the whole
	// seconds before the freeze (after the first).
	rate := func(iv jsonreport.Interval) float64 { return float64(iv.Ops) * 1000 / float64(iv.EndMs-iv.StartMs) }
	whole := func(from, to time.Duration) []jsonreport.Interval {
		var out []jsonreport.Interval
		for _, iv := range rep.Intervals {
			if iv.StartMs >= from.Milliseconds() && iv.EndMs <= to.Milliseconds() && iv.EndMs-iv.StartMs >= 900 {
				out = append(out, iv)
			}
		}
		return out
	}
	var before float64
	pre := whole(time.Second, faultFreezeAt)
	for _, iv := range pre {
		before += rate(iv) / float64(len(pre))
	}
	want := min(float64(faultTarget), before) / 2
	during := whole(faultFreezeAt+time.Second, faultFreezeAt+faultFreeze-time.Second)
	for _, iv := range during {
		if r := rate(iv); r < want {
			t.Errorf("%d..%d ms, a node frozen: %.0f op/s, below half of %.0f (the target %d, or %.0f op/s before the freeze)",
				iv.StartMs, iv.EndMs, r, 2*want, faultTarget, before)
		}
	}
	if len(pre) < 3 || len(during) < 5 {
		t.Errorf("%d whole intervals before the freeze and %d within it, want 3 and 5: %+v", len(pre), len(during), rep.Intervals)
	}
	t.Logf("%.0f op/s before the freeze (target %d); during it %d intervals", before, faultTarget, len(during))
	if t.Failed() {
		t.Logf("the run's report:\n%s", stdout)
	}

	// One node of three still dead: at ALL every write fails (unavailable),
	// after its retries, and is counted.
	all := append([]string{"run", "cassandra-cql", "-threads", "4"}, common...)
	all = append(all, "-p", "cassandra.writeconsistencylevel=ALL", "-p", "operationcount=200")
	stdout, stderr, code = ycsb(t, 2*time.Minute, all...)
	if code != 0 {
		t.Fatalf("run at ALL: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !regexp.MustCompile(`(?m)^\[UPDATE\], Return=SERVICE_UNAVAILABLE, [1-9]`).MatchString(stdout) {
		t.Errorf("at ALL with a node dead: no failed update counted\n%s", stdout)
	}
}
