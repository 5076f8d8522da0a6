package redis

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// ownCluster is a Redis Cluster a test starts for itself with
// scripts/redis-cluster.sh, on its own ports and directory, so that it may
// kill or freeze a node without touching the shared one.
type ownCluster struct {
	t      testing.TB
	script string
	env    []string
	first  int
}

// env is added to the script's environment (REDIS_FULL_COVERAGE=no).
func startOwnCluster(t testing.TB, first int, env ...string) *ownCluster {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	if _, err := exec.LookPath("redis-server"); err != nil {
		ycsbtest.NeedServer(t, "redis-server (apt-get install redis-server)", err)
	}
	root, err := ycsbtest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "ycsb-redis-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	c := &ownCluster{t: t, script: filepath.Join(root, "scripts", "redis-cluster.sh"), first: first,
		env: append(append(os.Environ(), "REDIS_CLUSTER_DIR="+dir, "REDIS_CLUSTER_PORT="+strconv.Itoa(first)), env...)}
	t.Cleanup(func() {
		c.run("stop")
		os.RemoveAll(dir)
	})
	if out, err := c.run("start"); err != nil {
		t.Fatalf("own cluster: %v\n%s", err, out)
	}
	return c
}

func (c *ownCluster) run(args ...string) (string, error) {
	cmd := exec.Command(c.script, args...)
	cmd.Env = c.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (c *ownCluster) addr(i int) string { return "127.0.0.1:" + strconv.Itoa(c.first+i) }

// cli runs redis-cli against node i.
func (c *ownCluster) cli(i int, args ...string) (string, error) {
	out, err := exec.Command("redis-cli", append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(c.first + i)}, args...)...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// master is the index of a node that is a master now.
// It is never the master of the reference's index: every insert writes
// the index too, so freezing or killing its master would stop every insert,
// not only those of the master's own slots.
func (c *ownCluster) master() int {
	slot, err := c.cli(0, "CLUSTER", "KEYSLOT", indexKey)
	if err != nil {
		c.t.Fatalf("CLUSTER KEYSLOT: %v %s", err, slot)
	}
	n, _ := strconv.Atoi(slot)
	index := c.owner(n)
	for i := 0; i < 6; i++ {
		if i == index {
			continue
		}
		if out, _ := c.cli(i, "ROLE"); strings.HasPrefix(out, "master") {
			return i
		}
	}
	c.t.Fatal("own cluster: no master")
	return -1
}

// records counts the records in the cluster: the keys of every master
// that answers, less the reference's index.
func (c *ownCluster) records() int {
	n := 0
	for i := 0; i < 6; i++ {
		role, err := c.cli(i, "ROLE")
		if err != nil || !strings.HasPrefix(role, "master") {
			continue
		}
		out, err := c.cli(i, "DBSIZE")
		if err != nil {
			continue
		}
		k, _ := strconv.Atoi(out)
		if ex, _ := c.cli(i, "EXISTS", indexKey); ex == "1" {
			k--
		}
		n += k
	}
	return n
}

// TestClusterKillMaster loads records at 1,000 op/s on 16 threads into a
// cluster of its own and kills a master (SIGKILL) a few seconds in: its
// replica takes over, the client follows the new slot map, the inserts
// that failed meanwhile are tried again, and the load ends on time. The
// records in the cluster afterwards are at most those reported inserted
// plus those of unknown outcome; fewer than those reported only by the
// writes the dead master had acknowledged and not yet sent to its replica
// (Redis's replication is asynchronous), which the test bounds by what a
// second of the load writes.
func TestClusterKillMaster(t *testing.T) {
	t.Parallel()
	c := startOwnCluster(t, 7101)
	r := faultLoad(t, c, 8000, func(victim int) {
		if out, err := c.run("kill", strconv.Itoa(c.first+victim)); err != nil {
			t.Fatalf("kill: %v %s", err, out)
		}
	})
	if _, err := c.cli(r.victim, "PING"); err == nil {
		t.Fatalf("the killed master %s answers", c.addr(r.victim))
	}
	// 8 s of schedule; the retries of the inserts caught in the failover
	// may add a few seconds, no more.
	if r.took > 25*time.Second {
		t.Errorf("the load took %v", r.took)
	}
}

// TestClusterFreezeMaster freezes a master (SIGSTOP) for 10 s in the same
// load: the client gives up its connection after redis.timeout, its
// replica takes over, and the load goes on and ends on time, every insert
// counted. The workers do stall while they wait on the frozen master
// (docs/redis.md, "A master frozen"): the test asks that they go on
// before the master thaws, so the slowest insert waits less than the
// freeze.
func TestClusterFreezeMaster(t *testing.T) {
	t.Parallel()
	c := startOwnCluster(t, 7111)
	const freeze = 10 * time.Second
	thawed := make(chan struct{})
	r := faultLoad(t, c, 16000, func(victim int) {
		if out, err := c.run("freeze", strconv.Itoa(c.first+victim)); err != nil {
			t.Fatalf("freeze: %v %s", err, out)
		}
		go func() {
			defer close(thawed)
			time.Sleep(freeze)
			c.run("thaw", strconv.Itoa(c.first+victim))
		}()
	})
	<-thawed
	if r.took > 30*time.Second {
		t.Errorf("the load took %v", r.took)
	}
	if r.maxLatency >= freeze {
		t.Errorf("the slowest insert took %v: the workers waited for the thaw, not for the replica", r.maxLatency)
	}
}

// TestClusterFreezeKeepsSchedule freezes a master (SIGSTOP) for 10 s in a
// run of workload A at 1,000 op/s on a cluster that serves the other
// masters' slots while one is down (cluster-require-full-coverage no), with
// enough threads for the operations that wait on the frozen master: every
// second of the freeze, before and after the failover, the others go on at
// their share of the schedule, and no operation fails. (With Redis's default
// full coverage every node refuses every command from the master's failure
// until its replica takes over, and with 16 threads every worker soon waits
// on the frozen master: docs/redis.md, "A master frozen".)
func TestClusterFreezeKeepsSchedule(t *testing.T) {
	t.Parallel()
	c := startOwnCluster(t, 7141, "REDIS_FULL_COVERAGE=no")
	root, _ := ycsbtest.RepoRoot()
	base := []string{"-P", filepath.Join(root, "workloads", "workloada"), "-p", "redis.host=127.0.0.1",
		"-p", "redis.port=" + strconv.Itoa(c.first), "-p", "redis.cluster=true", "-p", "recordcount=10000"}
	if out, err := exec.Command(ycsbtest.Binary(t), append([]string{"load", "redis", "-threads", "16"}, base...)...).CombinedOutput(); err != nil {
		t.Fatalf("load: %v\n%s", err, out)
	}
	const (
		rate    = 1000
		threads = 4000 // a third of 1,000 op/s, waiting 5 s for the failover, is 1,700 workers
		freeze  = 10 * time.Second
	)
	victim := c.master()
	var stdout, stderr bytes.Buffer
	run := exec.Command(ycsbtest.Binary(t), append([]string{"run", "redis", "-threads", strconv.Itoa(threads),
		"-target", strconv.Itoa(rate), "-s", "-p", "status.interval=1", "-p", "operationcount=0",
		"-p", "maxexecutiontime=18"}, base...)...)
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- run.Wait() }()
	time.Sleep(5 * time.Second)
	frozeAt := time.Now()
	if out, err := c.run("freeze", strconv.Itoa(c.first+victim)); err != nil {
		t.Fatalf("freeze: %v %s", err, out)
	}
	time.Sleep(freeze)
	c.run("thaw", strconv.Itoa(c.first+victim))
	if runErr := waitEnd(t, run, done, 30*time.Second, "the run, after the thaw,", &stderr); runErr != nil {
		t.Fatalf("run: %v\n%s", runErr, stderr.String())
	}
	out := stdout.String()
	if m := regexp.MustCompile(`\[(READ|UPDATE)\], Return=(\w+), \d+`).FindAllStringSubmatch(out, -1); len(m) == 0 {
		t.Fatalf("no Return= rows:\n%s", out)
	} else {
		for _, r := range m {
			if r[2] != "OK" {
				t.Errorf("%s", r[0])
			}
		}
	}
	// Each status line counts the operations that ended in the second
	// before its time stamp.
	line := regexp.MustCompile(`(?m)^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}) \d+ sec: .*$`)
	count := regexp.MustCompile(`\[(?:READ|UPDATE): Count=(\d+),`)
	seconds, series := 0, []int{}
	for _, m := range line.FindAllStringSubmatch(stderr.String(), -1) {
		// YCSB's stamp puts the milliseconds after a colon.
		stamp := m[1][:19] + "." + m[1][20:]
		at, err := time.ParseInLocation("2006-01-02 15:04:05.000", stamp, time.Local)
		if err != nil {
			t.Fatal(err)
		}
		if at.Before(frozeAt.Add(1500*time.Millisecond)) || at.After(frozeAt.Add(freeze)) {
			continue
		}
		ops := 0
		for _, c := range count.FindAllStringSubmatch(m[0], -1) {
			n, _ := strconv.Atoi(c[1])
			ops += n
		}
		seconds++
		series = append(series, ops)
		// The other two masters' share is two thirds of the schedule.
		if ops < rate*2/5 {
			t.Errorf("%d operations in the second to %s, %v into the freeze: want at least %d", ops, m[1], at.Sub(frozeAt).Round(time.Millisecond), rate*2/5)
		}
	}
	t.Logf("operations a second in the freeze, from 1.5 s in: %v", series)
	if seconds < 7 {
		t.Errorf("%d status lines in the freeze, want 7 or more:\n%s", seconds, stderr.String())
	}
}

type faultResult struct {
	victim     int
	took       time.Duration
	maxLatency time.Duration
}

// faultLoad loads records at 1,000 op/s on 16 threads, calls fault with
// a master's index once 2,000 records are in, and checks the counts: every
// insert counted, the records in the cluster (once it is ok again) between
// those reported done, less what a second of asynchronous replication may
// lose, and those plus the ones of unknown outcome.
func faultLoad(t *testing.T, c *ownCluster, records int, fault func(victim int)) faultResult {
	t.Helper()
	const rate = 1000
	victim := c.master()
	root, _ := ycsbtest.RepoRoot()
	var stdout, stderr bytes.Buffer
	load := exec.Command(ycsbtest.Binary(t), "load", "redis", "-P", filepath.Join(root, "workloads", "workloada"),
		"-p", "redis.host=127.0.0.1", "-p", "redis.port="+strconv.Itoa(c.first), "-p", "redis.cluster=true",
		"-p", fmt.Sprintf("recordcount=%d", records), "-threads", "16", "-target", strconv.Itoa(rate), "-s")
	load.Stdout, load.Stderr = &stdout, &stderr
	start := time.Now()
	if err := load.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- load.Wait() }()
	for c.records() < 2000 {
		select {
		case err := <-done:
			t.Fatalf("the load ended before the fault: %v\n%s", err, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	fault(victim)
	at := time.Since(start)
	runErr := waitEnd(t, load, done, 90*time.Second, "the load, after the fault,", &stderr)
	r := faultResult{victim: victim, took: time.Since(start)}
	out := stdout.String()
	known := reportInt(t, out, `\[INSERT\], Return=OK, (\d+)`)
	unknown := optionalInt(out, `\[OVERALL\], UnknownOutcome, (\d+)`)
	failed := optionalInt(out, `\[INSERT\], Return=ERROR, (\d+)`) + optionalInt(out, `\[INSERT\], Return=SERVICE_UNAVAILABLE, (\d+)`)
	r.maxLatency = time.Duration(optionalInt(out, `\[INSERT\], MaxLatency\(us\), (\d+)`)) * time.Microsecond
	// A load thread ends at its first failed insert, as the reference's
	// does: with failures, fewer than records are attempted.
	if failed == 0 && known != records {
		t.Errorf("%d inserts OK and none failed; want %d", known, records)
	}
	if runErr != nil && failed == 0 {
		t.Errorf("the load failed with no insert failed: %v\n%s", runErr, stderr.String())
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, _ := c.cli((victim+1)%6, "CLUSTER", "INFO")
		if strings.Contains(info, "cluster_state:ok") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster is not ok 30 s after the load:\n%s", info)
		}
		time.Sleep(200 * time.Millisecond)
	}
	got := c.records()
	t.Logf("fault on master %s at %v; load took %v: %d inserts OK, %d failed (%d of unknown outcome), the slowest in %v; %d records in the cluster",
		c.addr(victim), at.Round(time.Millisecond), r.took.Round(time.Millisecond), known, failed, unknown, r.maxLatency, got)
	if got > known+unknown {
		t.Errorf("%d records in the cluster, more than the %d reported inserted and %d of unknown outcome", got, known, unknown)
	}
	if got < known-rate {
		t.Errorf("%d records in the cluster, %d fewer than reported inserted: more than asynchronous replication loses in a second", got, known-got)
	}
	return r
}

// waitEnd waits up to limit for cmd's exit on done and returns its error;
// past limit it kills cmd and fails the test, showing stderr.
func waitEnd(t *testing.T, cmd *exec.Cmd, done <-chan error, limit time.Duration, what string, stderr *bytes.Buffer) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		cmd.Process.Kill()
		t.Fatalf("%s did not end within %v\n%s", what, limit, stderr.String())
		return nil
	}
}

func reportInt(t *testing.T, out, re string) int {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %s in the report:\n%s", re, out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func optionalInt(out, re string) int {
	m := regexp.MustCompile(re).FindStringSubmatch(out)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// nodeID is node i's cluster id.
func (c *ownCluster) nodeID(i int) string {
	out, err := c.cli(i, "CLUSTER", "MYID")
	if err != nil {
		c.t.Fatalf("CLUSTER MYID: %v %s", err, out)
	}
	return out
}

// owner is the index of the master that serves slot.
func (c *ownCluster) owner(slot int) int {
	nodes, _ := c.cli(0, "CLUSTER", "NODES")
	for _, line := range strings.Split(nodes, "\n") {
		f := strings.Fields(line)
		if len(f) < 9 || !strings.Contains(f[2], "master") {
			continue
		}
		for _, r := range f[8:] {
			lo, hi, _ := strings.Cut(r, "-")
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if hi == "" {
				b, err2 = a, nil
			}
			if err1 == nil && err2 == nil && slot >= a && slot <= b {
				port, _ := strconv.Atoi(f[1][strings.LastIndexByte(f[1][:strings.IndexByte(f[1], '@')], ':')+1 : strings.IndexByte(f[1], '@')])
				return port - c.first
			}
		}
	}
	c.t.Fatalf("no master serves slot %d:\n%s", slot, nodes)
	return -1
}

// TestClusterRedirects moves a record's slot from one master to another
// under an open binding, whose slot map is then stale: a read while the
// slot migrates is answered ASK by the old master, a read after it moved
// MOVED; the client follows both and the reads find the record.
func TestClusterRedirects(t *testing.T) {
	t.Parallel()
	c := startOwnCluster(t, 7121)
	d := mustOpen(t, map[string]string{"redis.addr": c.addr(0), "redis.cluster": "true"})
	defer d.Close()
	ctx := context.Background()
	ss, _ := d.Session(ctx, 0, 1)
	key := "redirected-record"
	if err := ss.Insert(ctx, "usertable", key, []db.Field{{Name: "field0", Value: []byte("v0")}}); err != nil {
		t.Fatal(err)
	}
	out, _ := c.cli(0, "CLUSTER", "KEYSLOT", key)
	slot, err := strconv.Atoi(out)
	if err != nil {
		t.Fatalf("CLUSTER KEYSLOT: %q", out)
	}
	src := c.owner(slot)
	dst := -1
	for i := 0; i < 6; i++ {
		if role, _ := c.cli(i, "ROLE"); i != src && strings.HasPrefix(role, "master") {
			dst = i
			break
		}
	}
	must := func(i int, args ...string) {
		t.Helper()
		if out, err := c.cli(i, args...); err != nil || strings.HasPrefix(out, "ERR") {
			t.Fatalf("%v on %s: %v %s", args, c.addr(i), err, out)
		}
	}
	read := func(what string) {
		t.Helper()
		var r db.Record
		if err := ss.Read(ctx, "usertable", key, nil, &r); err != nil {
			t.Fatalf("read %s: %v", what, err)
		}
		if v, _ := r.Get("field0"); string(v) != "v0" {
			t.Fatalf("read %s: field0 = %q", what, v)
		}
	}
	s := strconv.Itoa(slot)
	must(dst, "CLUSTER", "SETSLOT", s, "IMPORTING", c.nodeID(src))
	must(src, "CLUSTER", "SETSLOT", s, "MIGRATING", c.nodeID(dst))
	must(src, "MIGRATE", "127.0.0.1", strconv.Itoa(c.first+dst), key, "0", "5000")
	if out, _ := c.cli(src, "GET", key); !strings.HasPrefix(out, "ASK") {
		t.Fatalf("the old master answers %q while the slot migrates, want ASK", out)
	}
	read("while the slot migrates (ASK)")
	for i := 0; i < 6; i++ {
		if role, _ := c.cli(i, "ROLE"); strings.HasPrefix(role, "master") {
			must(i, "CLUSTER", "SETSLOT", s, "NODE", c.nodeID(dst))
		}
	}
	if out, _ := c.cli(src, "GET", key); !strings.HasPrefix(out, "MOVED") {
		t.Fatalf("the old master answers %q once the slot moved, want MOVED", out)
	}
	read("once the slot moved (MOVED)")
	if err := ss.Update(ctx, "usertable", key, []db.Field{{Name: "field1", Value: []byte("v1")}}); err != nil {
		t.Fatalf("update after the move: %v", err)
	}
	if out, _ := c.cli(dst, "HGET", key, "field1"); out != "v1" {
		t.Errorf("the new master holds field1 = %q, want v1", out)
	}
}
