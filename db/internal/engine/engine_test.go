package engine

import (
	"testing"

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
		Compression: "snappy", BloomBits: 10, BlockSize: 4096, MaxOpenFiles: 1000, CompactionThreads: 2}
	if c != want {
		t.Errorf("defaults %+v, want %+v", c, want)
	}
	c, _ = ParseConfig("rocksdb", props.FromMap(map[string]string{"rocksdb.dir": "/x"}), "rocksdb.dir")
	if c.Dir != "/x" {
		t.Errorf("alias not read: %q", c.Dir)
	}
	c, _ = ParseConfig("rocksdb", props.FromMap(map[string]string{"rocksdb.dir": "/x", "engine.dir": "/y"}), "rocksdb.dir")
	if c.Dir != "/y" {
		t.Errorf("engine.dir does not win over the alias: %q", c.Dir)
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

func TestCombine(t *testing.T) {
	base := enc(KindRecord, "a", "1", "b", "2", "c", "3")
	u1 := enc(KindUpdate, "b", "20")
	u2 := enc(KindUpdate, "c", "30", "d", "40")
	u3 := enc(KindUpdate, "b", "200")
	must := func(v []byte, err error) []byte {
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Oldest first: base, u1, u2, u3, merged two ways.
	left := must(Combine(nil, u3, must(Combine(nil, u2, must(Combine(nil, u1, base))))))
	right := must(Combine(nil, must(Combine(nil, u3, must(Combine(nil, u2, u1)))), base))
	want := map[string]string{"a": "1", "b": "200", "c": "30", "d": "40"}
	for name, v := range map[string][]byte{"left": left, "right": right} {
		if !Exists(v) {
			t.Errorf("%s: merged onto a record is not a record", name)
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
	if v := must(Combine(nil, u2, u1)); Exists(v) {
		t.Error("updates alone became a record")
	}
	if _, err := Combine(nil, []byte{KindUpdate, 5}, base); err == nil {
		t.Error("corrupt operand accepted")
	}
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
