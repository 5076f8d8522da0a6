package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"github.com/jackc/pgx/v5"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/workload"
)

// N local processes stand in for N client machines (docs/clients.md).

type proc struct {
	stdout, stderr string
	code           int
}

// runAll runs one process per argument list at once and waits for all.
func runAll(t *testing.T, bin string, argv [][]string) []proc {
	t.Helper()
	out := make([]proc, len(argv))
	var wg sync.WaitGroup
	for i, args := range argv {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			var so, se bytes.Buffer
			cmd.Stdout, cmd.Stderr = &so, &se
			cmd.Run()
			out[i] = proc{so.String(), se.String(), cmd.ProcessState.ExitCode()}
		}()
	}
	wg.Wait()
	for i, p := range out {
		if p.code != 0 {
			t.Fatalf("client %d: exit %d\n%s", i, p.code, p.stderr)
		}
	}
	return out
}

// clientArgs is the command line of client i of n: the same for all but
// the index, as a Job's pods have.
func clientArgs(n, i int, args ...string) []string {
	return append(args, "-p", "client.count="+strconv.Itoa(n), "-p", "client.index="+strconv.Itoa(i))
}

func readReports(t *testing.T, paths ...string) []*jsonreport.Report {
	t.Helper()
	var out []*jsonreport.Report
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := jsonreport.Read(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, r)
	}
	return out
}

// wantKeys checks that got holds exactly the reference's names of key
// numbers 0 to n-1.
func wantKeys(t *testing.T, got map[string]int, n int64) {
	t.Helper()
	nums := make([]int64, n)
	for k := range n {
		nums[k] = k
	}
	wantKeyNums(t, got, nums)
}

// wantKeyNums checks that got holds exactly the names of nums.
func wantKeyNums(t *testing.T, got map[string]int, nums []int64) {
	t.Helper()
	if len(got) != len(nums) {
		t.Errorf("%d distinct keys, want %d", len(got), len(nums))
	}
	for _, k := range nums {
		name := string(workload.AppendKey(nil, k, 1, false))
		if got[name] != 1 {
			t.Fatalf("key %s (number %d) found %d times", name, k, got[name])
		}
	}
}

func pgURL() string {
	if u := os.Getenv("YCSB_PG_URL"); u != "" {
		return u
	}
	return "postgres://ycsb:ycsb@127.0.0.1:5432/ycsb"
}

func needPG(t *testing.T) *pgx.Conn {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, pgURL())
	if err == nil {
		err = c.Ping(ctx)
	}
	ycsbtest.NeedServer(t, "PostgreSQL at "+pgURL(), err)
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func pgKeys(t *testing.T, c *pgx.Conn, table string) map[string]int {
	t.Helper()
	rows, err := c.Query(context.Background(), "SELECT ycsb_key FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	keys := map[string]int{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		keys[k]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return keys
}

func pgTable(t *testing.T, c *pgx.Conn, name string) {
	t.Helper()
	ctx := context.Background()
	var cols strings.Builder
	for i := range 10 {
		fmt.Fprintf(&cols, ", FIELD%d TEXT", i)
	}
	for _, q := range []string{"DROP TABLE IF EXISTS " + name, "CREATE TABLE " + name + " (YCSB_KEY VARCHAR(255) PRIMARY KEY" + cols.String() + ")"} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { c.Exec(context.Background(), "DROP TABLE IF EXISTS "+name) })
}

// TestClientsPostgres: three clients load disjoint slices, then run
// workload A together from a common starttime at a cluster-wide -target;
// one process then does the same total work.
func TestClientsPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs for half a minute; -short")
	}
	c := needPG(t)
	const table, records, clients = "clients_pg", 3001, 3
	pgTable(t, c, table)
	bin := ycsbtest.Binary(t)
	dir := t.TempDir()
	common := []string{"-P", "../../workloads/workloada", "-p", "db.url=" + pgURL(), "-p", "table=" + table,
		"-p", "recordcount=" + strconv.Itoa(records)}

	// Load: every key once, the slices disjoint and covering.
	var argv [][]string
	for i := range clients {
		argv = append(argv, clientArgs(clients, i, append([]string{"load", "postgresql", "-threads", "2",
			"-p", "report.json=" + filepath.Join(dir, fmt.Sprintf("load%d.json", i))}, common...)...))
	}
	runAll(t, bin, argv)
	wantKeys(t, pgKeys(t, c, table), records)
	for i, r := range readReports(t, filepath.Join(dir, "load0.json"), filepath.Join(dir, "load1.json"), filepath.Join(dir, "load2.json")) {
		if want := []int64{1001, 1000, 1000}[i]; r.Operations != want || r.Client == nil || r.Client.Index != i {
			t.Errorf("load client %d: %d operations, client %+v; want %d", i, r.Operations, r.Client, want)
		}
	}

	// Run: workload A from a common starttime at a cluster-wide target.
	const target, ops = 900, 9000 // 10 s
	start := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano)
	argv = nil
	var reps []string
	var hdrs []string
	for i := range clients {
		rep := filepath.Join(dir, fmt.Sprintf("run%d.json", i))
		reps = append(reps, rep)
		argv = append(argv, clientArgs(clients, i, append([]string{"run", "postgresql", "-threads", "4", "-target", strconv.Itoa(target),
			"-p", "operationcount=" + strconv.Itoa(ops), "-p", "starttime=" + start, "-p", "report.json=" + rep,
			"-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=" + filepath.Join(dir, fmt.Sprintf("c%d-", i))}, common...)...))
	}
	procs := runAll(t, bin, argv)
	for i, p := range procs {
		if !strings.Contains(p.stderr, "Waiting for starttime") || !strings.Contains(p.stderr, fmt.Sprintf("Client %d of 3", i+1)) {
			t.Errorf("client %d: no countdown or client line:\n%s", i, p.stderr)
		}
	}
	for i := range clients {
		m, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("c%d-*.hdr", i)))
		hdrs = append(hdrs, m...)
	}
	merged := filepath.Join(dir, "merged.json")
	hdrMerged := filepath.Join(dir, "hdr.json")
	for _, args := range [][]string{append([]string{"merge", "-o", merged}, reps...), append([]string{"merge", "-o", hdrMerged}, hdrs...)} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	each := readReports(t, reps...)
	m := readReports(t, merged)[0]
	h := readReports(t, hdrMerged)[0]
	var sumOps int64
	var sumTput float64
	seeds := map[uint64]bool{}
	for _, r := range each {
		sumOps += r.Operations
		sumTput += r.Throughput
		seeds[r.Seed] = true
		if r.StartTime == nil {
			t.Errorf("client %d: no starttime in its report", r.Client.Index)
		}
	}
	if len(seeds) != clients {
		t.Errorf("seeds %v: want one of its own per client", seeds)
	}
	if m.Operations != ops || sumOps != ops {
		t.Errorf("merged %d operations, clients %d; want %d", m.Operations, sumOps, ops)
	}
	within := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol*want {
			t.Errorf("%s: %.1f, want %.1f within %.0f%%", what, got, want, tol*100)
		}
	}
	within("merged throughput against the clients' sum", m.Throughput, sumTput, 0.02)
	// The target is split across the clients: never more than it, and
	// short of it only as far as a loaded machine's pacing falls behind
	// (a wrong split is off by a factor of the client count).
	if m.Throughput > target*1.02 || m.Throughput < target*0.9 {
		t.Errorf("merged throughput %.1f, want the cluster-wide target %d (at most 2%% over, 10%% under)", m.Throughput, target)
	}
	for _, hm := range h.Measurements {
		mm := m.Find(hm.Name)
		if mm == nil || mm.Count != hm.Count {
			t.Fatalf("%s: merged report has %+v, the HDR logs %d values", hm.Name, mm, hm.Count)
		}
		for k, v := range hm.Percentiles {
			if mm.Percentiles[k] != v {
				t.Errorf("%s %s: %d in the merged report, %d from the merged HDR logs", hm.Name, k, mm.Percentiles[k], v)
			}
		}
		var returns int64
		for _, r := range each {
			if cm := r.Find(hm.Name); cm != nil {
				returns += cm.Count
			}
		}
		if returns != mm.Count {
			t.Errorf("%s: merged count %d, clients' sum %d", hm.Name, mm.Count, returns)
		}
	}
	var withLatency int
	var ivOps int64
	for _, iv := range m.Intervals {
		ivOps += iv.Ops
		if _, ok := iv.Latency["READ"]; ok && iv.StartUnixMs != 0 {
			withLatency++
		}
	}
	if withLatency < len(m.Intervals)-1 || ivOps != ops {
		t.Errorf("%d of %d merged intervals with latency, %d operations in them; want all, %d", withLatency, len(m.Intervals), ivOps, ops)
	}
	t.Logf("3 clients: %d operations, %.1f ops/sec merged (clients' sum %.1f), READ p99 %d us",
		m.Operations, m.Throughput, sumTput, m.Find("READ").Percentiles["p99"])

	// One process doing the same total work.
	one := filepath.Join(dir, "one.json")
	runAll(t, bin, [][]string{append([]string{"run", "postgresql", "-threads", "12", "-target", strconv.Itoa(target),
		"-p", "operationcount=" + strconv.Itoa(ops), "-p", "report.json=" + one}, common...)})
	o := readReports(t, one)[0]
	if o.Operations != m.Operations {
		t.Errorf("one process: %d operations, three: %d", o.Operations, m.Operations)
	}
	within("one process's throughput against three's", o.Throughput, m.Throughput, 0.05)
	t.Logf("1 process: %d operations, %.1f ops/sec, READ p99 %d us", o.Operations, o.Throughput, o.Find("READ").Percentiles["p99"])

	// Run-phase inserts of three clients never collide: every insert
	// succeeds, and the table grows by exactly their number.
	argv = nil
	for i := range clients {
		argv = append(argv, clientArgs(clients, i, append([]string{"run", "postgresql", "-threads", "2",
			"-p", "operationcount=900", "-p", "readproportion=0.5", "-p", "updateproportion=0", "-p", "insertproportion=0.5",
			"-p", "requestdistribution=latest", "-p", "report.json=" + filepath.Join(dir, fmt.Sprintf("ins%d.json", i))}, common...)...))
	}
	runAll(t, bin, argv)
	// Client i's n inserts take key numbers records+i+3k, k < n.
	var inserted int64
	nums := make([]int64, records)
	for k := range nums {
		nums[k] = int64(k)
	}
	for _, r := range readReports(t, filepath.Join(dir, "ins0.json"), filepath.Join(dir, "ins1.json"), filepath.Join(dir, "ins2.json")) {
		for _, mm := range r.Measurements {
			for _, rc := range mm.Returns {
				if rc.Status != "OK" {
					t.Errorf("client %d: %s %d times %s", r.Client.Index, mm.Name, rc.Count, rc.Status)
				}
			}
		}
		if ins := r.Find("INSERT"); ins != nil {
			inserted += ins.Count
			for k := range ins.Count {
				nums = append(nums, records+int64(r.Client.Index)+k*clients)
			}
		}
	}
	if inserted == 0 {
		t.Fatal("no inserts")
	}
	wantKeyNums(t, pgKeys(t, c, table), nums)
	t.Logf("3 clients inserted %d records during the run, none twice", inserted)
}

// TestClientsCassandra: three clients load disjoint slices into
// Cassandra; the table then holds every key once.
func TestClientsCassandra(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	ycsbtest.SkipServerTests(t)
	host, port := "127.0.0.1", "9042"
	if p := os.Getenv("YCSB_CASSANDRA_PORT"); p != "" {
		port = p
	}
	cc := gocql.NewCluster(host)
	cc.Events.DisableSchemaEvents = true // as cqlcluster's: gocql's race at a session's start
	fmt.Sscan(port, &cc.Port)
	cc.ConnectTimeout, cc.Timeout = 5*time.Second, 30*time.Second
	s, err := cc.CreateSession()
	ycsbtest.NeedServer(t, "Cassandra on "+host+":"+port, err)
	defer s.Close()
	const ks, table, records, clients = "ycsb_clients", "clients_load", 1501, 3
	var cols strings.Builder
	for i := range 10 {
		fmt.Fprintf(&cols, ", field%d varchar", i)
	}
	for _, q := range []string{
		"CREATE KEYSPACE IF NOT EXISTS " + ks + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
		"DROP TABLE IF EXISTS " + ks + "." + table,
		"CREATE TABLE " + ks + "." + table + " (y_id varchar PRIMARY KEY" + cols.String() + ")",
	} {
		if err := s.Query(q).Consistency(gocql.All).Exec(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() { s.Query("DROP TABLE IF EXISTS " + ks + "." + table).Exec() })
	bin := ycsbtest.Binary(t)
	var argv [][]string
	for i := range clients {
		argv = append(argv, clientArgs(clients, i, "load", "cassandra-cql", "-P", "../../workloads/workloada", "-threads", "2",
			"-p", "hosts="+host, "-p", "port="+port, "-p", "cassandra.keyspace="+ks, "-p", "table="+table,
			"-p", "recordcount="+strconv.Itoa(records)))
	}
	runAll(t, bin, argv)
	keys := map[string]int{}
	it := s.Query("SELECT y_id FROM " + ks + "." + table).Consistency(gocql.One).PageSize(1000).Iter()
	var k string
	for it.Scan(&k) {
		keys[k]++
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	wantKeys(t, keys, records)
}

// TestClientsBadInput: each mistake is one line and exit 2, before
// anything is opened.
func TestClientsBadInput(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	bin := ycsbtest.Binary(t)
	for _, tc := range []struct {
		name string
		args []string
		env  string
		want string
	}{
		{"index too big", []string{"load", "basic", "-p", "client.count=3", "-p", "client.index=3"}, "", `client.index: "3", but client.count=3 takes an index from 0 to 2`},
		{"auto without the variable", []string{"load", "basic", "-p", "client.count=3", "-p", "client.index=auto"}, "", "JOB_COMPLETION_INDEX is not set"},
		{"auto out of range", []string{"load", "basic", "-p", "client.count=3", "-p", "client.index=auto"}, "7", `JOB_COMPLETION_INDEX is "7"`},
		{"explicit insertstart", []string{"load", "basic", "-p", "client.count=3", "-p", "client.index=0", "-p", "insertstart=0"}, "", "insertstart: cannot be combined with client.count=3"},
		{"starttime in the past", []string{"run", "basic", "-p", "starttime=" + time.Now().Add(-2*time.Minute).UTC().Format(time.RFC3339)}, "", "in the past"},
		{"starttime not a time", []string{"run", "basic", "-p", "starttime=noon"}, "", "starttime: expected an RFC 3339 time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, append(tc.args, "-P", "../../workloads/workloada", "-p", "recordcount=100")...)
			cmd.Env = append(os.Environ(), "JOB_COMPLETION_INDEX="+tc.env)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
				t.Errorf("stderr %q, want one line with %q", stderr.String(), tc.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %q", stdout.String())
			}
		})
	}
}
