package redis

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// The reference's and go-ycsb's redis bindings, built by the project's
// reference tools script into REF_CACHE (default ~/.cache/ycsb-reference):
// javaycsb/{lib,redis,redis-lib} and go-ycsb. They are not CI servers:
// without them the interoperability tests skip, in CI too.
func refCache() string {
	if d := os.Getenv("REF_CACHE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "ycsb-reference")
}

// ownServer starts a redis-server of the test's own on a free port, for
// tools that write to database 0 and are flushed between steps.
func ownServer(t *testing.T) string {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		ycsbtest.NeedServer(t, "redis-server (apt-get install redis-server)", err)
	}
	addr := ycsbtest.FreeAddr(t)
	port := addr[strings.LastIndexByte(addr, ':')+1:]
	cmd := exec.Command(bin, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ping(addr) != nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("own redis-server on %s does not answer", addr)
		}
	}
	return addr
}

func flush(t *testing.T, addr string) {
	t.Helper()
	d := mustOpen(t, map[string]string{"redis.addr": addr})
	defer d.Close()
	c := d.(*redisDB).client
	if err := c.Do(context.Background(), c.B().Flushall().Build()).Error(); err != nil {
		t.Fatal(err)
	}
}

// tool runs a command and returns its standard output; a failure ends the
// test with both outputs.
func tool(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s\n%s", filepath.Base(name), strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// returns are the report's Return= rows of op ("READ": "OK" -> 2000, ...).
func returns(out, op string) map[string]string {
	m := map[string]string{}
	for _, r := range regexp.MustCompile(`\[`+op+`\], Return=(\w+), (\d+)`).FindAllStringSubmatch(out, -1) {
		m[r[1]] = r[2]
	}
	return m
}

func wantOnly(t *testing.T, what string, got map[string]string, status, n string) {
	t.Helper()
	if len(got) != 1 || got[status] != n {
		t.Errorf("%s: %v, want only %s=%s", what, got, status, n)
	}
}

// TestInteropReference: records loaded by the reference's redis binding
// (jedis) with dataintegrity=true are read and verified by ours, and its
// scans succeed; records loaded by ours are read and verified by the
// reference's.
func TestInteropReference(t *testing.T) {
	java := needReference(t)
	addr := ownServer(t)
	interopReference(t, java, addr, false, func() { flush(t, addr) })
}

// TestInteropReferenceCluster is TestInteropReference on a cluster of its
// own: jedis's JedisCluster and ours, each given one node.
func TestInteropReferenceCluster(t *testing.T) {
	t.Parallel()
	java := needReference(t)
	c := startOwnCluster(t, 7131)
	interopReference(t, java, c.addr(0), true, func() {
		for i := 0; i < 6; i++ {
			if role, _ := c.cli(i, "ROLE"); strings.HasPrefix(role, "master") {
				if out, err := c.cli(i, "FLUSHALL"); err != nil {
					t.Fatalf("FLUSHALL: %v %s", err, out)
				}
			}
		}
	})
}

// needReference skips without the reference's redis binding and returns java.
func needReference(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(refCache(), "javaycsb", "redis")); err != nil {
		t.Skipf("the reference's redis binding is not built (%v): see the reference tools script", err)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("no java")
	}
	return java
}

func interopReference(t *testing.T, java, addr string, cluster bool, flush func()) {
	ref := refCache()
	host, port := addr[:strings.LastIndexByte(addr, ':')], addr[strings.LastIndexByte(addr, ':')+1:]
	clusterProp := "redis.cluster=" + strconv.FormatBool(cluster)
	root, _ := ycsbtest.RepoRoot()
	wl := func(name string) string { return filepath.Join(root, "workloads", name) }
	cp := strings.Join([]string{ref + "/javaycsb/lib/*", ref + "/javaycsb/redis", ref + "/javaycsb/redis-lib/*"}, ":")
	refRun := func(phase, workload string) string {
		return tool(t, java, "-cp", cp, "site.ycsb.Client", phase, "-db", "site.ycsb.db.RedisClient", "-P", wl(workload),
			"-p", "recordcount=500", "-p", "operationcount=1000", "-p", "dataintegrity=true",
			"-p", "redis.host="+host, "-p", "redis.port="+port, "-p", clusterProp, "-threads", "4")
	}
	ours := func(phase, workload string) string {
		return tool(t, ycsbtest.Binary(t), phase, "redis", "-P", wl(workload),
			"-p", "recordcount=500", "-p", "operationcount=1000", "-p", "dataintegrity=true",
			"-p", "redis.host="+host, "-p", "redis.port="+port, "-p", clusterProp, "-threads", "4")
	}

	wantOnly(t, "reference load", returns(refRun("-load", "workloada"), "INSERT"), "OK", "500")
	out := ours("run", "workloadc")
	wantOnly(t, "ours reading the reference's records", returns(out, "READ"), "OK", "1000")
	wantOnly(t, "ours verifying the reference's records", returns(out, "VERIFY"), "OK", "1000")
	out = ours("run", "workloade")
	if scans := returns(out, "SCAN"); len(scans) != 1 || scans["OK"] == "" {
		t.Errorf("ours scanning the reference's records: %v", scans)
	}

	flush()
	wantOnly(t, "ours load", returns(ours("load", "workloada"), "INSERT"), "OK", "500")
	out = refRun("-t", "workloadc")
	wantOnly(t, "the reference reading ours", returns(out, "READ"), "OK", "1000")
	wantOnly(t, "the reference verifying ours", returns(out, "VERIFY"), "OK", "1000")
}

// TestInteropGoYCSB: records loaded by go-ycsb's redis binding (hash and
// string) are read by ours with redis.layout=go-ycsb, every field of every
// record; records loaded by ours in its string datatype are read by
// go-ycsb, which fails a read of a missing or undecodable record. Keys in
// order: go-ycsb's hashed keys are not the reference's. go-ycsb's
// dataintegrity values are its own (another hash), so values are checked
// by ours only, on its own records (the conformance suite).
func TestInteropGoYCSB(t *testing.T) {
	goycsb := filepath.Join(refCache(), "go-ycsb")
	if _, err := os.Stat(goycsb); err != nil {
		t.Skipf("go-ycsb is not built (%v): see the reference tools script", err)
	}
	addr := ownServer(t)
	root, _ := ycsbtest.RepoRoot()
	wl := filepath.Join(root, "workloads", "workloadc")
	common := []string{"-P", wl, "-p", "recordcount=500", "-p", "operationcount=1000", "-p", "insertorder=ordered",
		"-p", "requestdistribution=uniform", "-p", "readallfields=true", "-p", "redis.addr=" + addr}
	for _, dt := range []string{"hash", "string"} {
		flush(t, addr)
		tool(t, goycsb, append([]string{"load", "redis", "-p", "redis.datatype=" + dt, "-p", "threadcount=4"}, common...)...)
		out := tool(t, ycsbtest.Binary(t), append([]string{"run", "redis", "-p", "redis.layout=go-ycsb", "-p", "redis.datatype=" + dt,
			"-p", "fieldcount=10", "-threads", "4"}, common...)...)
		wantOnly(t, "ours reading go-ycsb's "+dt+" records", returns(out, "READ"), "OK", "1000")
	}
	flush(t, addr)
	out := tool(t, ycsbtest.Binary(t), append([]string{"load", "redis", "-p", "redis.layout=go-ycsb", "-p", "redis.datatype=string", "-threads", "4"}, common...)...)
	wantOnly(t, "ours load", returns(out, "INSERT"), "OK", "500")
	out = tool(t, goycsb, append([]string{"run", "redis", "-p", "redis.datatype=string", "-p", "threadcount=4"}, common...)...)
	if !regexp.MustCompile(`(?m)^READ\s+- .*Count: 1000,`).MatchString(out) || strings.Contains(out, "READ_ERROR") {
		t.Errorf("go-ycsb reading ours: want 1000 reads and no READ_ERROR:\n%s", out)
	}
}
