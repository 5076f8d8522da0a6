package cassandrastress

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/cassandra"
	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/backoff"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

// recorded is what a run's recorder holds: per section name, the count of
// each status, and the retries.
type recorded struct {
	returns map[string]map[db.Status]int64
	retries map[string]int64
}

// newRecorded ticks c and reads its total.
func newRecorded(c *measurement.Collector) recorded {
	c.Tick()
	r := recorded{returns: map[string]map[db.Status]int64{}, retries: map[string]int64{}}
	for _, m := range c.Total().Measurements {
		r.retries[m.Name] += m.Retries
		for _, sc := range m.Returns {
			if r.returns[m.Name] == nil {
				r.returns[m.Name] = map[db.Status]int64{}
			}
			r.returns[m.Name][sc.Status] += sc.Count
		}
	}
	return r
}

// collector is a collector of the predefined commands' rows, and the
// causes it shows.
func collector(t *testing.T) (*measurement.Collector, *measurement.Causes, *[]string) {
	t.Helper()
	ops, err := RowOps(KindRows)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := measurement.ParseConfig(props.FromMap(map[string]string{"measurementtype": "hdrhistogram"}))
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	return measurement.NewCollector(cfg, ops), measurement.NewCauses(ops, func(l string) { said = append(said, l) }), &said
}

// TestOperationsCountThroughTheSession: an operation the workload ran on
// its session's CQL is counted by the session (measured.Session.Finish),
// as a binding's call is: its status, its retries, a failure in Failed
// and among the causes; the workload writes no counter itself.
func TestOperationsCountThroughTheSession(t *testing.T) {
	c, causes, said := collector(t)
	var conn cassandra.Conn // no connection: nothing is sent
	s := measured.NewSession(conn.Sessions(1)[0], c.NewRecorder())
	s.Causes = causes
	var st RunState
	st.Begin(context.Background())
	defer st.End()
	errs := settings.ErrorSettings{Ignore: true}
	var b backoff.Backoff
	noLine := func() string { return "" }
	if !st.finish(s, nil, &b, &errs, kindOps[KindWrite], db.OK, tried{tries: 1, start: 1000, end: 2000}, nil, noLine) {
		t.Fatal("a success ended the worker")
	}
	fail := errors.New("Operation timed out - received only 0 responses.")
	if !st.finish(s, nil, &b, &errs, kindOps[KindRead], db.OK, tried{err: fail, tries: 3, retries: 2, start: 1000, end: 5000}, fail, noLine) {
		t.Fatal("a failure under -errors ignore ended the worker")
	}
	if s.Failed != 1 {
		t.Errorf("the session counted %d failed operations, want 1", s.Failed)
	}
	got := newRecorded(c)
	if got.returns["WRITE"][db.OK] != 1 || got.returns["READ"][db.Error] != 1 || got.retries["READ"] != 2 {
		t.Errorf("recorded %v, retries %v: want WRITE OK 1, READ ERROR 1 after 2 retries", got.returns, got.retries)
	}
	if strings.Join(*said, "\n") != "READ ERROR: "+fail.Error() {
		t.Errorf("causes said %q", *said)
	}
}

// TestPredefinedCountsThroughTheRecorder: against the node, the
// predefined write and read run their statements on the CQL of the
// session they are given (a db/cassandra Conn's), and what they did is in
// the session's recorder and counters: the writes OK, the reads of rows
// never written failed (not validated), counted once each and their
// cause shown.
func TestPredefinedCountsThroughTheRecorder(t *testing.T) {
	t.Parallel()
	conn := connect(t)
	ks := "ks_wl_counters"
	dropKeyspace(t, conn.Admin(), ks)
	t.Cleanup(func() { dropKeyspace(t, conn.Admin(), ks) })
	ctx := context.Background()
	w := commandLine(t, "write", "n=10", "-pop", "seq=1..10", "-errors", "ignore", "-node", testNode)
	m, err := NewModel(w)
	if err != nil {
		t.Fatal(err)
	}
	sc := data.Schema{Keyspace: ks}
	if err := conn.Admin().Query(sc.CreateKeyspace()).ExecContext(ctx); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.Open(ctx, ks)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Query(sc.CreateStandard1(m.Columns())).ExecContext(ctx); err != nil {
		t.Fatal(err)
	}
	run := func(s *settings.Settings, k Kind) (*measured.Session, recorded, []string) {
		t.Helper()
		m, err := NewModel(s)
		if err != nil {
			t.Fatal(err)
		}
		m.Connected(s, ks, true)
		m.SetCQL(s)
		pop, err := NewPopulation(s.Population)
		if err != nil {
			t.Fatal(err)
		}
		m.Fresh(pop, s)
		wl := NewPredefined(m, []Kind{k}, s)
		wl.Begin(ctx)
		defer wl.End()
		c, causes, said := collector(t)
		ms := measured.NewSession(conn.Sessions(1)[0], c.NewRecorder())
		ms.Causes = causes
		tr := wl.NewTransactor(ms, 1)
		for i := 0; i < 10; i++ {
			if !tr.DoTransaction(ctx) {
				t.Fatalf("%s %d ended the worker", k, i)
			}
		}
		return ms, newRecorded(c), *said
	}
	ws, wrec, _ := run(w, KindWrite)
	if ws.Failed != 0 || wrec.returns["WRITE"][db.OK] != 10 {
		t.Errorf("writes: %d failed, recorded %v; want 10 OK", ws.Failed, wrec.returns)
	}
	r := commandLine(t, "read", "n=10", "-pop", "seq=1001..1010", "-errors", "ignore", "-node", testNode)
	rs, rrec, said := run(r, KindRead)
	if rs.Failed != 10 || rrec.returns["READ"][db.Error] != 10 || len(said) == 0 || !strings.HasPrefix(said[0], "READ ERROR: ") {
		t.Errorf("reads of no row: %d failed, recorded %v, causes %q; want 10 failed and shown as READ's", rs.Failed, rrec.returns, said)
	}
}
