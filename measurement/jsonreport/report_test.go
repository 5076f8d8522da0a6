package jsonreport

import "testing"

func TestMaskSettings(t *testing.T) {
	got := MaskSettings(map[string]string{
		"postgres.password": "pw", "db.passwd": "pw", "DB.PASSWORD": "pw", "cassandra.password": "",
		"db.url": "postgres://bob:pw@127.0.0.1:5432/ycsb", "plain": "postgres://127.0.0.1/ycsb", "fieldcount": "10",
	})
	want := map[string]string{
		"postgres.password": Mask, "db.passwd": Mask, "DB.PASSWORD": Mask, "cassandra.password": "",
		"db.url": "postgres://bob:" + Mask + "@127.0.0.1:5432/ycsb", "plain": "postgres://127.0.0.1/ycsb", "fieldcount": "10",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestReadRejects(t *testing.T) {
	for _, in := range []string{"", "   ", "[OVERALL], RunTime(ms), 1", "[ {\"metric\" : \"OVERALL\"} ]", `{"format":"other"}`,
		`{"format":"ycsb-go-report","version":99}`, `{"format":"ycsb-go-report","version":1,"measurements":[{"name":"READ","count":3,"histogram":"!!"}]}`,
		`{"format":"ycsb-go-report"`, `{"format":"ycsb-go-report"} {}`} {
		if _, err := Read([]byte(in)); err == nil {
			t.Errorf("Read(%q) accepted it", in)
		}
	}
}

// TestReadVersion1Intervals: a version 1 report counted database calls in
// its intervals (3 per verified read-modify-write); Read scales them to the
// operations the report holds.
func TestReadVersion1Intervals(t *testing.T) {
	doc := `{"format":"ycsb-go-report","version":1,"operations":200,"intervals":[` +
		`{"start_ms":0,"end_ms":1000,"ops":300},{"start_ms":1000,"end_ms":2000,"ops":300}],"measurements":[],"sections":[]}`
	r, err := Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if r.Intervals[0].Ops != 100 || r.Intervals[1].Ops != 100 {
		t.Errorf("intervals %+v, want 100 operations each", r.Intervals)
	}
}
