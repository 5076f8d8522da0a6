package stress

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/report/htmlreport"
	yresults "github.com/goycsb/ycsb/report/merge"
	"github.com/goycsb/ycsb/report/stressreport"
)

// manyOps are the ops of ops(insert=1,q01=1,…,q20=1) over
// testdata/manyqueries.yaml: 21 operations, more than YCSB has names.
func manyOps() []string {
	ops := []string{"insert"}
	for i := 1; i <= 20; i++ {
		ops = append(ops, fmt.Sprintf("q%02d", i))
	}
	return ops
}

func manyOpsArg() string {
	var kv []string
	for _, o := range manyOps() {
		kv = append(kv, o+"=1")
	}
	return "ops(" + strings.Join(kv, ",") + ")"
}

// TestManyOpsOutput: the interval lines and the Results block of a run of
// 21 operations have a row and an entry for each, by name, in the names'
// order, as the original prints them; from fixed numbers and clock.
func TestManyOpsOutput(t *testing.T) {
	var out bytes.Buffer
	names := manyOps()
	ops := make([]*testOp, len(names))
	for i, n := range names {
		ops[i] = &testOp{name: n, op: measurement.Op(i)}
	}
	m, err := newTestMetrics(&out, false, ops)
	if err != nil {
		t.Fatal(err)
	}
	m.GCSample = func() stressreport.GCStats { return stressreport.GCStats{} }
	const s = int64(time.Second)
	m.StartRun(time.Unix(0, 0), 0)
	for iv := int64(0); iv < 2; iv++ {
		var ms []measurement.Measurement
		// The last op from the second interval on: a row appears once
		// its op has run.
		for i := range len(names) - 1 + int(iv) {
			ms = append(ms, measurement.Measurement{Op: measurement.Op(i), Kind: measurement.KindOK, Hist: hist(int64(100*(i+1)), int64(150*(i+1)))})
			ops[i].parts.Add(2)
			ops[i].rows.Add(int64(2 * (i + 1)))
		}
		m.AddInterval(iv*s, (iv+1)*s, &measurement.Snapshot{Measurements: ms})
	}
	m.Summarise(&out)
	ycsbtest.Golden(t, "testdata/manyops.golden", out.Bytes())
}

// intervalRow is an interval line's op name.
var intervalRow = regexp.MustCompile(`(?m)^([A-Za-z0-9_.-]+),\s+[0-9]+,`)

// lastIntervalRows are the op names of the last interval's lines, total
// last.
func lastIntervalRows(out string) []string {
	var rows, block []string
	for _, m := range intervalRow.FindAllStringSubmatch(out, -1) {
		block = append(block, m[1])
		if m[1] == "total" {
			rows, block = block, nil
		}
	}
	return rows
}

// resultsNames are the op names of each Results line's breakdown, in
// order, by the line's label.
func resultsNames(t *testing.T, out string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		label, rest, ok := strings.Cut(l, " : ")
		i := strings.IndexByte(rest, '[')
		if !ok || i < 0 {
			continue
		}
		var names []string
		for _, kv := range strings.Split(strings.Trim(rest[i:], "[]"), ", ") {
			k, _, _ := strings.Cut(kv, ": ")
			names = append(names, k)
		}
		got[strings.TrimSpace(label)] = names
	}
	if len(got) == 0 {
		t.Fatalf("no Results block in\n%s", out)
	}
	return got
}

// hdrTags are the distinct tags of an interval log.
func hdrTags(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`Tag=([^,]+),`).FindAllStringSubmatch(string(b), -1) {
		seen[m[1]] = true
	}
	var tags []string
	for k := range seen {
		tags = append(tags, k)
	}
	sort.Strings(tags)
	return tags
}

// TestUserManyOpsInterop: a profile of 20 queries runs
// ops(insert=1,q01=1,…,q20=1) in both tools, and ours reports all 21 ops
// by name where the original does (the Running line, the last interval's
// lines, each Results line, the -log hdrfile= tags), and in its own
// -log json= report and -graph page.
func TestUserManyOpsInterop(t *testing.T) {
	t.Parallel() // keyspaces, files and processes of its own on the shared node
	s := cluster(t)
	tool := realTool(t)
	theirs, ours := "ks_userprof_theirs_manyops", "ks_userprof_ours_manyops"
	for _, ks := range []string{theirs, ours} {
		dropKeyspace(t, s, ks)
		t.Cleanup(func() { dropKeyspace(t, s, ks) })
	}
	dir := t.TempDir()
	// clustering=fixed(1): each of the 630 draws runs one op, so every op
	// runs (by default each draw repeats its op gaussian(1..10) times,
	// about 115 draws, and one of 21 ops goes undrawn in about 8% of runs).
	args := func(ks, who string, log ...string) []string {
		log = append([]string{"-log", "interval=1", "hdrfile=" + filepath.Join(dir, who+".hdr")}, log...)
		return append([]string{"user", "profile=" + profileIn(t, "manyqueries.yaml", ks), manyOpsArg(), "n=630", "clustering=fixed(1)", "no-warmup", "cl=ONE",
			"-rate", "threads=2", "-node", testNode, "-graph", "file=" + filepath.Join(dir, who+".html")}, log...)
	}
	theirOut := runReal(t, tool, args(theirs, "theirs")...)
	ourOut := runLine(t, args(ours, "ours", "json="+filepath.Join(dir, "ours.json"))...)

	names := manyOps()
	running := "Running [" + strings.Join(names, ", ") + "] with 2 threads for 630 iteration"
	for who, out := range map[string]string{"theirs": theirOut, "ours": ourOut} {
		if !strings.Contains(out, running+"\n") {
			t.Errorf("%s: no line %q", who, running)
		}
		if got, want := lastIntervalRows(out), append(slices.Clone(names), "total"); !slices.Equal(got, want) {
			t.Errorf("%s: last interval's rows %v, want %v", who, got, want)
		}
	}
	tr, or := resultsNames(t, theirOut), resultsNames(t, ourOut)
	if len(tr) != 11 || len(or) != len(tr) {
		t.Errorf("Results lines with a breakdown: %d theirs, %d ours", len(tr), len(or))
	}
	for label, want := range tr {
		if !slices.Equal(want, names) || !slices.Equal(or[label], want) {
			t.Errorf("%s: theirs %v, ours %v", label, want, or[label])
		}
	}
	var tags []string
	for _, n := range names {
		tags = append(tags, n+"-st")
	}
	sort.Strings(tags)
	for _, who := range []string{"theirs", "ours"} {
		if got := hdrTags(t, filepath.Join(dir, who+".hdr")); !slices.Equal(got, tags) {
			t.Errorf("%s: hdrfile tags %v, want %v", who, got, tags)
		}
	}
	// The original's page names each op in its Results breakdowns; ours
	// draws the run's report, whose measurements are the ops.
	page, err := os.ReadFile(filepath.Join(dir, "theirs.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !bytes.Contains(page, []byte(n+": ")) {
			t.Errorf("theirs: -graph names no %s", n)
		}
	}
	rep, err := yresults.ReadReport(filepath.Join(dir, "ours.json"))
	if err != nil {
		t.Fatal(err)
	}
	var measured []string
	for _, m := range rep.Measurements {
		if m.Name != m.Operation {
			t.Errorf("ours: -log json= measurement %s of operation %s", m.Name, m.Operation)
		}
		measured = append(measured, m.Name)
	}
	sort.Strings(measured)
	if want := append(slices.Clone(names), measurement.CleanupName); !slices.Equal(measured, sortedCopy(want)) {
		t.Errorf("ours: -log json= measurements %v, want %v", measured, want)
	}
	page, err = os.ReadFile(filepath.Join(dir, "ours.html"))
	if err != nil {
		t.Fatal(err)
	}
	_, inputs, err := htmlreport.ReadInputs(page)
	if err != nil {
		t.Fatal(err)
	}
	d, err := htmlreport.Build("t", inputs, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if got := sortedCopy(d.Operations); !slices.Equal(got, names) {
		t.Errorf("ours: -graph operations %v, want %v", got, names)
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	sort.Strings(c)
	return c
}
