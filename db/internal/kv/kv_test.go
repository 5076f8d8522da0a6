package kv

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"4096", 4096, true},
		{"64MiB", 64 << 20, true},
		{"64mb", 64 << 20, true},
		{"64m", 64 << 20, true},
		{"1g", 1 << 30, true},
		{"8KiB", 8 << 10, true},
		{"0", 0, true},
		{"", 0, false},
		{"-1", 0, false},
		{"1.5g", 0, false},
		{"lots", 0, false},
		{"99999999999t", 0, false},
	} {
		got, err := ParseSize(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, ok=%t", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestDefaults(t *testing.T) {
	c, err := ParseConfig("pebble", props.New())
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Binding: "pebble", Dir: "ycsb-data/pebble", CacheSize: 64 << 20, MemtableSize: 64 << 20,
		Compression: "snappy", BloomBits: 10, BlockSize: 4096, MaxOpenFiles: 1000, CompactionThreads: 2, SettleTimeout: 30 * time.Minute}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("defaults %+v, want %+v", c, want)
	}
	c, _ = ParseConfig("rocksdb", props.FromMap(map[string]string{"rocksdb.dir": "/x"}), "rocksdb.dir")
	if c.Dir != "/x" {
		t.Errorf("alias not read: %q", c.Dir)
	}
	c, err = ParseConfig("rocksdb", props.FromMap(map[string]string{"rocksdb.dir": "/x/", "engine.dir": "/x"}), "rocksdb.dir")
	if err != nil || c.Dir != "/x" {
		t.Errorf("the same directory under both names: %q, %v", c.Dir, err)
	}
}

// An alias set to another value than its engine.* property is a
// contradiction, refused in one line naming both; a property that does not
// apply to the engine is refused when set.
func TestSpecRefusals(t *testing.T) {
	spec := Spec{
		Aliases:       map[string][]string{PropDir: {"bolt.path"}, PropSync: {"badger.sync_writes"}},
		NotApplicable: map[string]string{PropCompression: "no compression"},
	}
	for _, c := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"engine.dir": "/a", "bolt.path": "/b"}, `bolt.path: "/b" contradicts engine.dir="/a"`},
		{map[string]string{"engine.sync": "true", "badger.sync_writes": "false"}, "badger.sync_writes"},
		{map[string]string{"engine.compression": "none"}, "engine.compression: does not apply to x: no compression"},
	} {
		_, err := Parse("x", props.FromMap(c.set), spec)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || !props.IsBadInput(err) {
			t.Errorf("%v: %v, want a one-line property error containing %q", c.set, err, c.want)
		}
	}
	_, err := Parse("x", props.FromMap(map[string]string{"badger.sync_writes": "maybe"}), spec)
	if err == nil || !strings.HasPrefix(err.Error(), "badger.sync_writes: ") {
		t.Errorf("a bad value set with an alias: %v, want the error to name the alias", err)
	}
	_, err = Parse("x", props.FromMap(map[string]string{"bolt.path": " "}), spec)
	if err == nil || !strings.HasPrefix(err.Error(), "bolt.path: ") {
		t.Errorf("an empty directory set with an alias: %v, want the error to name the alias", err)
	}
	// The directory's own errors (PrepareDir) name the alias too.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{file, filepath.Join(file, "sub")} {
		c, err := Parse("x", props.FromMap(map[string]string{"bolt.path": dir}), spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := PrepareDir(&c); err == nil || !strings.Contains(err.Error(), "bolt.path "+dir) || strings.Contains(err.Error(), PropDir) {
			t.Errorf("bolt.path=%s: %v, want an error naming bolt.path, not %s", dir, err, PropDir)
		}
	}
	c, err := Parse("x", props.FromMap(map[string]string{"bolt.path": "/b", "badger.sync_writes": "true"}), spec)
	if err != nil || c.Dir != "/b" || !c.Sync {
		t.Errorf("aliases: %+v, %v", c, err)
	}
	if line := c.Summary("created"); strings.Contains(line, "compression") || !strings.Contains(line, "sync=true") {
		t.Errorf("opening line %q names a property that does not apply", line)
	}
}

func enc(kind byte, kv ...string) []byte {
	var f []db.Field
	for i := 0; i < len(kv); i += 2 {
		f = append(f, db.Field{Name: kv[i], Value: []byte(kv[i+1])})
	}
	return AppendValue(nil, kind, f)
}

func decode(t *testing.T, v []byte) map[string]string {
	t.Helper()
	var d Decoder
	var r db.Record
	if err := d.Decode(v, nil, &r); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, f := range r.Fields {
		m[f.Name] = string(f.Value)
	}
	return m
}

func TestDecodeSubset(t *testing.T) {
	v := enc(KindRecord, "field0", "x", "field1", "y", "field2", "z")
	var d Decoder
	var r db.Record
	if err := d.Decode(v, []string{"field2", "field0", "nope"}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Len() != 2 || r.Fields[0].Name != "field0" || r.Fields[1].Name != "field2" {
		t.Errorf("subset read %+v", r.Fields)
	}
	if err := d.Decode([]byte{KindRecord, 3, 'a'}, nil, &r); err == nil {
		t.Error("truncated value decoded")
	}
}

func TestDecodeAllocatesNothing(t *testing.T) {
	v := enc(KindRecord, "field0", "x", "field1", "y")
	var d Decoder
	var r db.Record
	d.Decode(v, nil, &r)
	if n := testing.AllocsPerRun(100, func() { r.Reset(); d.Decode(v, nil, &r) }); n != 0 {
		t.Errorf("Decode allocates %.0f times per call", n)
	}
}

func TestFolderBothDirections(t *testing.T) {
	vals := [][]byte{ // oldest first
		enc(KindRecord, "a", "1", "b", "2", "c", "3"),
		enc(KindUpdate, "b", "20"),
		enc(KindUpdate, "c", "30", "d", "40"),
		enc(KindUpdate, "b", "200"),
	}
	want := map[string]string{"a": "1", "b": "200", "c": "30", "d": "40"}
	var older, newer Folder
	for i := len(vals) - 1; i >= 0; i-- {
		if err := older.AddOlder(vals[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range vals {
		if err := newer.AddNewer(v); err != nil {
			t.Fatal(err)
		}
	}
	for name, f := range map[string]*Folder{"older": &older, "newer": &newer} {
		v := f.AppendTo(nil)
		if !Exists(v) {
			t.Errorf("%s: fold onto a record is not a record", name)
		}
		got := decode(t, v)
		if len(got) != len(want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: %s = %q, want %q", name, k, got[k], w)
			}
		}
	}
	// Operands alone stay an update; folding them first then onto the
	// record (a partial merge) gives the same result.
	var part Folder
	part.AddOlder(vals[3])
	part.AddOlder(vals[2])
	part.AddOlder(vals[1])
	p := part.AppendTo(nil)
	if Exists(p) {
		t.Error("operands alone became a record")
	}
	var full Folder
	full.AddOlder(p)
	full.AddOlder(vals[0])
	if got := decode(t, full.AppendTo(nil)); got["b"] != "200" || got["a"] != "1" || got["d"] != "40" {
		t.Errorf("partial then full merge: %v", got)
	}
	if err := part.AddOlder([]byte{KindUpdate, 9}); err == nil {
		t.Error("corrupt operand accepted")
	}
}
