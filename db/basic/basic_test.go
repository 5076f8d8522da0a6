package basic

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/props"
)

func openBasic(t *testing.T, out *bytes.Buffer, m map[string]string) db.DB {
	t.Helper()
	d, name, err := db.Lookup("site.ycsb.BasicDB")
	if err != nil || name != "basic" {
		t.Fatalf("lookup: %v %q", err, name)
	}
	b, err := d.Open(context.Background(), props.FromMap(m), out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestConformance(t *testing.T) {
	m := map[string]string{"basicdb.simulatedelay": "1"}
	drv, _, _ := db.Lookup("basic")
	dbtest.Run(t, func(t *testing.T) db.DB {
		return openBasic(t, &bytes.Buffer{}, m)
	}, dbtest.Options{NoStorage: true, Driver: drv, Props: props.FromMap(m)})
}

func TestVerboseLines(t *testing.T) {
	var out bytes.Buffer
	b := openBasic(t, &out, map[string]string{"basicdb.verbose": "true"})
	s, _ := b.Session(context.Background(), 0, 1)
	ctx := context.Background()
	s.Read(ctx, "usertable", "user1", nil, nil)
	s.Read(ctx, "usertable", "user1", []string{"field0", "field1"}, nil)
	s.Scan(ctx, "usertable", "user1", 5, nil, nil)
	s.Update(ctx, "usertable", "user2", []db.Field{{Name: "field3", Value: []byte("abc")}})
	s.Insert(ctx, "usertable", "user3", []db.Field{{Name: "field0", Value: []byte("x")}, {Name: "field1", Value: []byte("y")}})
	s.Delete(ctx, "usertable", "user4")
	got := out.String()
	want := `READ usertable user1 [ <all fields>]
READ usertable user1 [ field0 field1 ]
SCAN usertable user1 5 [ <all fields>]
UPDATE usertable user2 [ field3=abc ]
INSERT usertable user3 [ field0=x field1=y ]
DELETE usertable user4
`
	if !strings.HasSuffix(got, want) {
		t.Fatalf("verbose output:\n%s\nwant suffix:\n%s", got, want)
	}
	if !strings.HasPrefix(got, "***************** properties *****************\n\"basicdb.verbose\"=\"true\"\n**********************************************\n") {
		t.Fatalf("properties block wrong:\n%s", got)
	}
}

func TestCount(t *testing.T) {
	var out bytes.Buffer
	b := openBasic(t, &out, map[string]string{"basicdb.count": "true"})
	s, _ := b.Session(context.Background(), 0, 1)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		s.Read(ctx, "t", "k1", nil, nil)
		s.Read(ctx, "t", "k2", nil, nil)
	}
	s.Insert(ctx, "t", "k1", []db.Field{{Name: "f", Value: []byte("v")}})
	b.Close()
	want := "[READS], Uniques, 2\n[SCANS], Uniques, 0\n[UPDATES], Uniques, 0\n[INSERTS], Uniques, 1\n[DELETES], Uniques, 0\n"
	if out.String() != want {
		t.Fatalf("got %q", out.String())
	}
}

func TestDelay(t *testing.T) {
	b := openBasic(t, &bytes.Buffer{}, map[string]string{"basicdb.simulatedelay": "20", "basicdb.randomizedelay": "false"})
	s, _ := b.Session(context.Background(), 0, 1)
	start := time.Now()
	if err := s.Read(context.Background(), "t", "k", nil, nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Fatalf("fixed delay of 20ms took %v", d)
	}
}

func TestBadProperties(t *testing.T) {
	d, _, _ := db.Lookup("basic")
	for k, v := range map[string]string{"basicdb.verbose": "yes", "basicdb.simulatedelay": "-1", "basicdb.count": "1"} {
		_, err := d.Open(context.Background(), props.FromMap(map[string]string{k: v}), io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), k+": expected") {
			t.Errorf("%s=%s: err = %v", k, v, err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	d := openBasic(&testing.T{}, &bytes.Buffer{}, nil)
	s, _ := d.Session(context.Background(), 0, 1)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s.Read(ctx, "usertable", "user1", nil, nil)
	}
}
