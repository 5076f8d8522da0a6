package postgres

import (
	"syscall"
	"testing"
	"time"
)

// TestStopWhileFrozen: a load whose server stops answering (a proxy of the
// test's own freezes every connection) is stopped by its time limit or by
// SIGINT with inserts in flight. Those inserts are held, not lost: the
// thaw delivers them and the server applies them after the load ended. The
// load must count them as of unknown outcome and say it is incomplete, so
// that the table holds at least the inserts it reports and at most the
// unknown ones more; a signal still ends it within about 2 s, the flush
// of what the sessions buffered included.
func TestStopWhileFrozen(t *testing.T) {
	c := needPG(t)
	for _, tc := range []struct {
		name  string
		extra []string
		sig   syscall.Signal // 0: the time limit stops the load
		code  int
		// unknown: inserts in flight are of unknown outcome. Without
		// autocommit, an insert cut off before its COMMIT is not (its
		// transaction is rolled back), and the load may end without one.
		unknown bool
	}{
		{"maxexecutiontime", []string{"-p", "maxexecutiontime=4"}, 0, 1, true},
		{"SIGINT", nil, syscall.SIGINT, 130, true},
		{"SIGTERM autocommit off", []string{"-p", "jdbc.autocommit=false", "-p", "db.batchsize=10"}, syscall.SIGTERM, 130, false},
		{"SIGINT batched", []string{"-p", "jdbc.batchupdateapi=true", "-p", "db.batchsize=50"}, syscall.SIGINT, 130, true},
		// Each session sends its 1000 rows every 2 s, the sessions not
		// together: the signal, half a second after the freeze that
		// followed the first send, finds rows buffered that only the
		// close's flush sends, to the frozen server.
		{"SIGINT while buffered", []string{"-p", "jdbc.batchupdateapi=true", "-p", "db.batchsize=1000", "-target", "2000"}, syscall.SIGINT, 130, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := testTable(t, c, "ycsb_stopfrozen")
			p := newPGProxy(t)
			l := startLoad(t, proxyJDBC(t, p), table, append([]string{"-p", "recordcount=10000000", "-threads", "4"}, tc.extra...)...)
			l.untilRows(t, c, table, 200)
			p.Freeze()
			var sent time.Time
			if tc.sig != 0 {
				time.Sleep(500 * time.Millisecond)
				sent = time.Now()
				l.cmd.Process.Signal(tc.sig)
			}
			r := l.end(t, time.Minute, p.Thaw)
			if tc.sig != 0 {
				took := time.Since(sent)
				t.Logf("the load ended %v after %v", took.Round(10*time.Millisecond), tc.sig)
				if took > 2500*time.Millisecond {
					t.Errorf("the load ended %v after %v, want within about 2 s", took, tc.sig)
				}
			}
			p.Thaw()
			// What the proxy held reaches the server now: wait for the
			// count to settle.
			rows := countRows(t, c, table)
			for i := 0; i < 50; i++ {
				time.Sleep(100 * time.Millisecond)
				n := countRows(t, c, table)
				if n == rows && i >= 10 {
					break
				}
				rows = n
			}
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\n%s", r.code, tc.code, r.stderr)
			}
			if tc.unknown && (!r.incompleteLine || r.unknown == 0) {
				t.Errorf("no 'load incomplete: at least ...; N more with unknown outcome' line\n%s", r.stderr)
			}
			if r.reportedInserted != r.known {
				t.Errorf("the report counts %d inserts, its last line %d", r.reportedInserted, r.known)
			}
			if rows < r.known || rows > r.known+r.unknown {
				t.Errorf("the table holds %d rows; the load says at least %d, %d more with unknown outcome\n%s\n%s",
					rows, r.known, r.unknown, r.stdout, r.stderr)
			}
			t.Logf("%d rows: %d known, %d of unknown outcome", rows, r.known, r.unknown)
		})
	}
}
