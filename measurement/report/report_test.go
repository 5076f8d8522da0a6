package report

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
