package stress

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Golden rows of the original: testdata/original_<name>.txt holds what the
// real cassandra-stress (scylladb/cassandra-stress 9f184f2a15, built by the
// shared cassandra-stress.sh, against Cassandra 5.0.8) wrote for the
// profile with
//
//	user profile=F ops(insert=1) n=P no-warmup cl=ONE -pop seq=1..P
//	  -insert partitions=fixed(1) select-ratio=fixed(1)/1 -rate threads=1
//
// that is every row of partitions 1..P (population indexes), read back
// from the node: a "columns" line (name:kind:position:type as
// system_schema.columns lists them), then the rows in the dump format of
// user_dump_test.go. USERPROF_CAPTURE=1 go test -run TestUserCaptureOriginal
// rewrites them (needs the node and the real tool).
var originalProfiles = []struct {
	name, file, table string
	parts             int
	pop               string // more -pop options
}{
	{"blogpost", "blogpost.yaml", "blogposts", 1, ""},
	{"types", "types.yaml", "alltypes", 8, ""},
	{"clustered", "clustered.yaml", "clustered", 6, ""},
	{"sorted", "sorted.yaml", "sorted", 3, "contents=sorted"},
}

func TestUserCaptureOriginal(t *testing.T) {
	t.Parallel()
	if os.Getenv("USERPROF_CAPTURE") == "" {
		t.Skip("set USERPROF_CAPTURE=1 to capture the original's rows")
	}
	s := cluster(t)
	tool := realTool(t)
	for _, p := range originalProfiles {
		ks := "ks_userprof_capture_" + p.name
		dropKeyspace(t, s, ks)
		t.Cleanup(func() { dropKeyspace(t, s, ks) })
		runReal(t, tool, interopWriteVisits(p.parts, profileIn(t, p.file, ks), 0, p.pop)...)
		var cols []string
		it := s.Query(`SELECT column_name, kind, position, type FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?`, ks, p.table).Iter()
		var name, kind, typ string
		var pos int
		for it.Scan(&name, &kind, &pos, &typ) {
			cols = append(cols, name+":"+kind+":"+strconv.Itoa(pos)+":"+strings.ReplaceAll(typ, " ", ""))
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		sort.Strings(cols)
		var b strings.Builder
		fmt.Fprintf(&b, "# rows the original cassandra-stress (scylladb/cassandra-stress 9f184f2a15) wrote for\n# %s, partitions 1..%d%s; see user_original_test.go\n", p.file, p.parts, strings.TrimRight(" "+p.pop, " "))
		b.WriteString("columns " + strings.Join(cols, " ") + "\n")
		for _, l := range dumpTable(t, s, ks, p.table) {
			b.WriteString(l + "\n")
		}
		if err := os.WriteFile(filepath.Join("testdata", "original_"+p.name+".txt"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
