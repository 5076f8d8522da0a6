package cassandrastress

import (
	"bufio"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
	"github.com/goycsb/ycsb/workload/cassandrastress/profile"
)

// originalRows are the profiles the original's rows were captured of
// (frontend/stress's TestUserCaptureOriginal: originalProfiles).
var originalRows = []struct {
	name, file string
	parts      int
	pop        string
}{
	{"blogpost", "blogpost.yaml", 1, ""},
	{"types", "types.yaml", 8, ""},
	{"clustered", "clustered.yaml", 6, ""},
	{"sorted", "sorted.yaml", 3, "contents=sorted"},
}

// TestUserOriginalRows: every row this package generates for partitions
// 1..P is the original's, value for value.
func TestUserOriginalRows(t *testing.T) {
	for _, p := range originalRows {
		t.Run(p.name, func(t *testing.T) {
			sp, want := loadOriginal(t, p.name, p.file)
			sp.sorted = p.pop == "contents=sorted"
			got := generatedRows(t, sp, p.parts)
			if len(got) != len(want) {
				t.Errorf("%d rows, the original %d", len(got), len(want))
			}
			if d := ycsbtest.DiffLines(want, got); d != "" {
				t.Errorf("first differences (- original, + ours):\n%s", d)
			}
		})
	}
}

// generatedRows are every row of partitions 1..parts in the dump format,
// as the node holds them after one insert of each in turn: a row written
// again (two population indexes can give the same partition) keeps its
// values, with a non-frozen list appended to and a set added to.
func generatedRows(t *testing.T, sp *userSpec, parts int) []string {
	t.Helper()
	g, err := sp.newGen()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var types []data.CQLType
	sets := map[string]bool{}
	nkey := len(sp.pk) + len(sp.ck)
	for _, cs := range [][]column{sp.pk, sp.ck, sp.vs} {
		for _, c := range cs {
			names = append(names, c.name)
			types = append(types, c.typ)
			sets[c.name] = c.typ.Name == "set"
		}
	}
	part := data.NewPartition(g)
	rng := rand.New(rand.NewPCG(1, 2))
	rows := map[string][][]byte{}
	var order []string
	for seed := int64(1); seed <= int64(parts); seed++ {
		part.Reset(seed)
		part.Select(rng, 1, 1, 0)
		for _, row := range part.Rows {
			var vals [][]byte // copies: the partition reuses its buffers
			for _, v := range append(append(append([][]byte{}, part.Key...), row.CK...), row.Vals...) {
				if v != nil {
					v = append([]byte{}, v...)
				}
				vals = append(vals, v)
			}
			id := ycsbtest.DumpRow(names[:nkey], vals[:nkey], nil)
			old, ok := rows[id]
			if !ok {
				order = append(order, id)
				rows[id] = vals
				continue
			}
			for i := nkey; i < len(vals); i++ {
				if typ := types[i]; !typ.Frozen && (typ.Name == "list" || typ.Name == "set") {
					old[i] = appendCollection(old[i], vals[i], typ.Name == "set")
				} else {
					old[i] = vals[i]
				}
			}
		}
	}
	var out []string
	for _, id := range order {
		out = append(out, ycsbtest.DumpRow(names, rows[id], sets))
	}
	sort.Strings(out)
	return out
}

// appendCollection adds b's elements to a's (serialized collections); a
// set keeps one of each.
func appendCollection(a, b []byte, set bool) []byte {
	elems := func(c []byte) [][]byte {
		var out [][]byte
		if len(c) < 4 {
			return nil
		}
		n := int(binary.BigEndian.Uint32(c))
		p := 4
		for i := 0; i < n; i++ {
			l := int(binary.BigEndian.Uint32(c[p:]))
			out = append(out, c[p+4:p+4+l])
			p += 4 + l
		}
		return out
	}
	all := elems(a)
	for _, e := range elems(b) {
		dup := false
		for _, x := range all {
			dup = dup || set && string(x) == string(e)
		}
		if !dup {
			all = append(all, e)
		}
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(len(all)))
	for _, e := range all {
		out = binary.BigEndian.AppendUint32(out, uint32(len(e)))
		out = append(out, e...)
	}
	return out
}

// loadOriginal reads testdata/original_<name>.txt: the profile's spec with
// the columns of the original's table, and the rows it wrote.
func loadOriginal(t *testing.T, name, file string) (*userSpec, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(stressTestdata, "original_"+name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	var cols []column
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "columns "):
			for _, c := range strings.Fields(l)[1:] {
				w := strings.SplitN(c, ":", 4)
				pos, _ := strconv.Atoi(w[2])
				typ, err := data.ParseCQLType(w[3])
				if err != nil {
					t.Fatal(err)
				}
				cols = append(cols, column{name: w[0], kind: w[1], pos: pos, typ: typ})
			}
		default:
			want = append(want, l)
		}
	}
	prof, err := profile.Load(context.Background(), filepath.Join(stressTestdata, file))
	if err != nil {
		t.Fatal(err)
	}
	for i := range cols {
		cols[i].spec = prof.Column(cols[i].name)
	}
	sp := &userSpec{p: prof}
	if err := sp.setColumns(cols); err != nil {
		t.Fatal(err)
	}
	return sp, want
}
