package data

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// The server tests use the node of scripts/cassandra.sh start (make
// cassandra-start) on 127.0.0.1:9042, or YCSB_CASSANDRA_PORT, and keyspaces
// of their own.
func testSession(t *testing.T, keyspace string) *gocql.Session {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	cc := gocql.NewCluster("127.0.0.1")
	cc.Events.DisableSchemaEvents = true // as cqlcluster's: gocql's race at a session's start
	if p := os.Getenv("YCSB_CASSANDRA_PORT"); p != "" {
		fmt.Sscan(p, &cc.Port)
	}
	cc.Keyspace = keyspace
	cc.ConnectTimeout = 5 * time.Second
	cc.Timeout = 20 * time.Second
	cc.Consistency = gocql.One
	s, err := cc.CreateSession()
	ycsbtest.NeedServer(t, "Cassandra on 127.0.0.1:9042 (scripts/cassandra.sh start)", err)
	t.Cleanup(s.Close)
	return s
}

// Keyspaces the original wrote for testdata/captured.txt, with the options
// it ran with (all also -pop seq=1..10 -rate threads=1 -node 127.0.0.1):
var captureRuns = []struct {
	keyspace, table string
	keySize, cols   int
	size            string
	args            string
}{
	{"stressdata_vectors", Standard1, 10, 5, DefaultColumnSize, "write n=10"},
	{"stressdata_vectors_u", Standard1, 20, 3, "uniform(1..100)", `write n=10 keysize=20 -col "size=uniform(1..100)" "n=fixed(3)"`},
	{"stressdata_vectors_c", Counter1, 10, 5, DefaultColumnSize, "counter_write n=10"},
}

// TestCaptureFromOriginal rewrites testdata/captured.txt from keyspaces the
// original wrote (see captureRuns): STRESSDATA_CAPTURE=1 go test -run Capture.
func TestCaptureFromOriginal(t *testing.T) {
	if os.Getenv("STRESSDATA_CAPTURE") == "" {
		t.Skip("set STRESSDATA_CAPTURE=1 to capture from keyspaces the original wrote")
	}
	var out strings.Builder
	out.WriteString("# Rows and schema read back from keyspaces that the original cassandra-stress\n")
	out.WriteString("# (scylladb/cassandra-stress 9f184f2a15) wrote into Cassandra 5.0; see captureRuns.\n")
	for _, run := range captureRuns {
		s := testSession(t, run.keyspace)
		var repl map[string]string
		if err := s.Query(`SELECT replication FROM system_schema.keyspaces WHERE keyspace_name=?`, run.keyspace).Scan(&repl); err != nil {
			t.Fatal(err)
		}
		var kv []string
		for k, v := range repl {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		fmt.Fprintf(&out, "keyspace %s %s\n", run.keyspace, strings.Join(kv, ","))
		var comp, compaction map[string]string
		if err := s.Query(`SELECT compression, compaction FROM system_schema.tables WHERE keyspace_name=? AND table_name=?`, run.keyspace, run.table).Scan(&comp, &compaction); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "table %s %s compression=%v compaction=%v\n", run.keyspace, run.table, sortedMap(comp), sortedMap(compaction))
		it := s.Query(`SELECT column_name, kind, type FROM system_schema.columns WHERE keyspace_name=? AND table_name=?`, run.keyspace, run.table).Iter()
		var name, kind, typ string
		var cols []string
		for it.Scan(&name, &kind, &typ) {
			cols = append(cols, name+":"+kind+":"+typ)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		sort.Strings(cols)
		fmt.Fprintf(&out, "columns %s %s %s\n", run.keyspace, run.table, strings.Join(cols, " "))

		names := ColumnNames(run.cols)
		sel := `SELECT key, "` + strings.Join(names, `", "`) + `" FROM ` + run.table
		it = s.Query(sel).Iter()
		var rows []string
		for {
			var key []byte
			dst := []any{&key}
			bvals := make([][]byte, len(names))
			ivals := make([]int64, len(names))
			for i := range names {
				if run.table == Counter1 {
					dst = append(dst, &ivals[i])
				} else {
					dst = append(dst, &bvals[i])
				}
			}
			if !it.Scan(dst...) {
				break
			}
			line := fmt.Sprintf("row %s %s %d %s %x", run.keyspace, run.table, run.keySize, run.size, key)
			for i, n := range names {
				if run.table == Counter1 {
					line += fmt.Sprintf(" %s=%d", n, ivals[i])
				} else {
					line += fmt.Sprintf(" %s=%x", n, bvals[i])
				}
			}
			rows = append(rows, line)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		sort.Strings(rows)
		for _, r := range rows {
			out.WriteString(r + "\n")
		}
	}
	if err := os.WriteFile("testdata/captured.txt", []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sortedMap(m map[string]string) string {
	var kv []string
	for k, v := range m {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return "{" + strings.Join(kv, ",") + "}"
}

// TestCaptured checks our keys and values against the rows the original
// wrote: every row must be the row of one of the indexes 1..10 it was run
// with, and all ten must be there.
func TestCaptured(t *testing.T) {
	f, err := os.Open("testdata/captured.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) == 0 || w[0] != "row" {
			continue
		}
		ks, table, size := w[1], w[2], w[4]
		keySize := int(atoi64(t, w[3]))
		key, err := hex.DecodeString(w[5])
		if err != nil {
			t.Fatal(err)
		}
		cols, err := NewColumns(len(w)-6, nil, MustParseDist(size))
		if err != nil {
			t.Fatal(err)
		}
		g := NewRow(keySize, cols)
		idx := int64(-1)
		for i := int64(1); i <= 10; i++ {
			if string(g.Key(i)) == string(key) {
				idx = i
			}
		}
		if idx < 0 {
			t.Errorf("%s: key %q is none of ours for 1..10", ks, key)
			continue
		}
		seen[ks]++
		_, vals := g.Generate(idx)
		for i, kv := range w[6:] {
			name, v, _ := strings.Cut(kv, "=")
			if name != cols.Names()[i] {
				t.Fatalf("%s: column %s, want %s", ks, cols.Names()[i], name)
			}
			if table == Counter1 {
				// add=fixed(1) per op. The warmup (25% of n = 2 ops) and
				// the run share one sequence: 1,2 then 3..10 and, wrapped,
				// 1,2 again.
				want := "1"
				if idx <= 2 {
					want = "2"
				}
				if v != want {
					t.Errorf("%s idx %d %s = %s, want %s", ks, idx, name, v, want)
				}
				continue
			}
			if got := hex.EncodeToString(vals[i]); got != v {
				t.Errorf("%s idx %d %s:\n got %s\nwant %s", ks, idx, name, got, v)
			}
		}
	}
	for _, run := range captureRuns {
		if seen[run.keyspace] != 10 {
			t.Errorf("%s: %d rows matched, want 10", run.keyspace, seen[run.keyspace])
		}
	}
}

// TestServerRoundTrip creates the original's schema with our statements,
// writes rows of the original's bytes with InsertCQL and reads them back with
// ReadCQL, in a keyspace of its own.
func TestServerRoundTrip(t *testing.T) {
	const ks = "stressdata_roundtrip"
	s := testSession(t, "system")
	sch := DefaultSchema()
	sch.Keyspace = ks
	cols, err := NewColumns(5, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Query(sch.CreateKeyspace()).Exec(); err != nil {
		t.Fatalf("%s: %v", sch.CreateKeyspace(), err)
	}
	// The driver refuses USE; a session on the keyspace stands in for it.
	s = testSession(t, ks)
	for _, q := range []string{sch.CreateStandard1(cols.Names()), sch.CreateCounter1(cols.Names())} {
		if err := s.Query(q).Exec(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	g := NewRow(DefaultKeySize, cols)
	const n = 10
	for i := int64(1); i <= n; i++ {
		key, vals := g.Generate(i)
		args := []any{}
		for _, v := range vals {
			args = append(args, v)
		}
		args = append(args, key)
		if err := s.Query(InsertCQL(cols.Names(), ""), args...).Exec(); err != nil {
			t.Fatal(err)
		}
		if err := s.Query(CounterAddCQL(cols.Names()), int64(1), int64(1), int64(1), int64(1), int64(1), key).Exec(); err != nil {
			t.Fatal(err)
		}
	}
	for i := int64(1); i <= n; i++ {
		key, want := g.Generate(i)
		got := make([][]byte, len(want))
		dst := make([]any, len(got))
		for j := range got {
			dst[j] = &got[j]
		}
		if err := s.Query(ReadCQL(cols.Names(), false), key).Scan(dst...); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
		for j := range want {
			if string(got[j]) != string(want[j]) {
				t.Errorf("index %d column %s: read back %x, wrote %x", i, cols.Names()[j], got[j], want[j])
			}
		}
		if err := s.Query(CounterGetCQL(), key).Iter().Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("OriginalReadsOurs", func(t *testing.T) { originalReads(t, ks, n) })
}

// originalReads runs the original's read over what we wrote and requires
// every read to validate. It needs the original (scylladb/cassandra-stress,
// built from its repository); CSTRESS names its launcher.
func originalReads(t *testing.T, keyspace string, n int) {
	bin := os.Getenv("CSTRESS")
	if bin == "" {
		home, _ := os.UserHomeDir()
		bin = filepath.Join(home, ".cache/ycsb-reference/cassandra-stress/bin/cassandra-stress")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("the original cassandra-stress is not built (%v); set CSTRESS", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, cmd := range []string{"read", "counter_read"} {
		c := exec.CommandContext(ctx, bin, cmd, fmt.Sprintf("n=%d", n), "no-warmup", "-pop", fmt.Sprintf("seq=1..%d", n),
			"-rate", "threads=1", "-schema", "keyspace="+keyspace, "-node", "127.0.0.1", "-errors", "retries=0")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		m := regexp.MustCompile(`Total errors\s*:\s*(\S+)`).FindSubmatch(out)
		if m == nil || string(m[1]) != "0" || !strings.Contains(string(out), "\nEND") {
			t.Fatalf("%s: the original did not validate our rows:\n%s", cmd, out)
		}
	}
}
