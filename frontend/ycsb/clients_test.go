package ycsb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/props"
)

// TestClientShares: a client's operationcount and target are its share of
// the totals, the shares of all clients summing to them; a total too small
// to give every client some is refused, since 0 would mean no limit.
func TestClientShares(t *testing.T) {
	base := map[string]string{"workload": "core", "recordcount": "100", "client.count": "3"}
	with := func(kv ...string) *props.Properties {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return props.FromMap(m)
	}
	var ops, target int64
	for i, want := range [][2]int64{{334, 10000}, {333, 10000}, {333, 10000}} {
		s, err := parseSettings(with("client.index", string(rune('0'+i)), "operationcount", "1000", "target", "30000"))
		if err != nil {
			t.Fatal(err)
		}
		if s.opCount != want[0] || s.target != want[1] {
			t.Errorf("client %d: operationcount %d, target %d; want %d, %d", i, s.opCount, s.target, want[0], want[1])
		}
		ops, target = ops+s.opCount, target+s.target
	}
	if ops != 1000 || target != 30000 {
		t.Errorf("shares sum to %d operations, %d ops/sec", ops, target)
	}
	// A load's count is the client's slice of recordcount.
	s, err := parseSettings(with("client.index", "2", "dotransactions", "false"))
	if err != nil || s.opCount != 33 {
		t.Errorf("load of client 2 of 3: %d records (%v), want 33", s.opCount, err)
	}
	// No count (until maxexecutiontime) stays no count.
	if s, err := parseSettings(with("client.index", "1", "operationcount", "0")); err != nil || s.opCount != 0 {
		t.Errorf("operationcount=0: %d, %v", s.opCount, err)
	}
	for _, kv := range [][]string{{"operationcount", "2"}, {"target", "2"}} {
		_, err := parseSettings(with("client.index", "2", kv[0], kv[1]))
		if err == nil || !strings.Contains(err.Error(), kv[0]+": 2 is less than client.count=3") {
			t.Errorf("%s=2 over 3 clients: %v", kv[0], err)
		}
	}
}

func TestParseStartTime(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		raw  string
		want time.Time
		err  string
	}{
		{"2025-06-01T12:05:00Z", now.Add(5 * time.Minute), ""},
		{"2025-06-01T14:05:00+02:00", now.Add(5 * time.Minute), ""},
		{"2025-06-01T11:59:30Z", now.Add(-30 * time.Second), ""},
		{"1748779500", now.Add(5 * time.Minute), ""},
		{"1748779500.25", now.Add(5*time.Minute + 250*time.Millisecond), ""},
		{"2025-06-01T11:58:00Z", time.Time{}, "starttime: 2025-06-01T11:58:00Z is 2m0s in the past"},
		{"2025-06-03T12:00:00Z", time.Time{}, "more than 24h0m0s"},
		{"tomorrow", time.Time{}, "starttime: expected an RFC 3339 time"},
		{"-5", time.Time{}, "expected an RFC 3339 time"},
		{"NaN", time.Time{}, "expected an RFC 3339 time"},
	} {
		got, err := parseStartTime(props.FromMap(map[string]string{"starttime": tc.raw}), now)
		if tc.err == "" {
			if err != nil || !got.Equal(tc.want) {
				t.Errorf("%s: %v, %v; want %v", tc.raw, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) || !props.IsBadInput(err) {
			t.Errorf("%s: error %v, want bad input with %q", tc.raw, err, tc.err)
		}
	}
	if got, err := parseStartTime(props.New(), now); err != nil || !got.IsZero() {
		t.Errorf("no starttime: %v, %v", got, err)
	}
}

// TestStartTimeWaits: a run with a starttime starts measuring at that
// instant, after a countdown line, and says so in its report.
func TestStartTimeWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	at := time.Now().Add(1500 * time.Millisecond)
	_, stderr, err := runBasic(t, context.Background(), map[string]string{
		"starttime": at.Format(time.RFC3339Nano), "operationcount": "50", "report.json": path,
		"client.count": "2", "client.index": "1",
	})
	if err != nil {
		t.Fatal(err)
	}
	rep := readReport(t, path)
	if d := rep.Start.Sub(at); d < 0 || d > 300*time.Millisecond {
		t.Errorf("measurement started %v after the starttime", d)
	}
	if rep.StartTime == nil || !rep.StartTime.Equal(at) {
		t.Errorf("report starttime %v, want %v", rep.StartTime, at)
	}
	if rep.Client == nil || rep.Client.Index != 1 || rep.Client.Count != 2 || rep.Seed == 0 || rep.Operations != 25 {
		t.Errorf("report: client %+v, seed %d, %d operations; want 1 of 2, a seed, 25", rep.Client, rep.Seed, rep.Operations)
	}
	if !strings.Contains(stderr, "Waiting for starttime ") || !strings.Contains(stderr, "Client 2 of 2 (client.index=1): 25 operations") {
		t.Errorf("no countdown or client line:\n%s", stderr)
	}
	if i, j := strings.Index(stderr, "Waiting for starttime"), strings.Index(stderr, "Starting test."); i > j {
		t.Errorf("the countdown comes after the start:\n%s", stderr)
	}
	for _, iv := range rep.Intervals {
		if d := iv.StartUnixMs - rep.Start.UnixMilli() - iv.StartMs; d < -1 || d > 1 {
			t.Errorf("interval at %d ms starts at %d since the epoch, want %d", iv.StartMs, iv.StartUnixMs, rep.Start.UnixMilli()+iv.StartMs)
		}
	}
}

// TestStartTimeInterrupted: Ctrl-C during the wait runs nothing and is an
// interruption, not bad input.
func TestStartTimeInterrupted(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	stdout, _, err := runBasic(t, ctx, map[string]string{"starttime": time.Now().Add(time.Hour).Format(time.RFC3339)})
	if err == nil || !strings.Contains(err.Error(), "interrupted while waiting for starttime") || props.IsBadInput(err) {
		t.Fatalf("error %v, want an interruption", err)
	}
	if strings.Contains(stdout, "[OVERALL]") {
		t.Errorf("a report of a run that did not start:\n%s", stdout)
	}
}

// TestCountdownLines: off a terminal the countdown is a line a minute,
// then every ten seconds.
func TestCountdownLines(t *testing.T) {
	var b syncBuffer
	if err := waitForStart(context.Background(), &b, time.Now().Add(200*time.Millisecond), false); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 1 || !strings.HasPrefix(b.String(), "Waiting for starttime ") {
		t.Errorf("countdown of 0.2 s:\n%q", b.String())
	}
	b = syncBuffer{}
	if err := waitForStart(context.Background(), &b, time.Now().Add(-time.Second), false); err != nil || !strings.Contains(b.String(), "starting now") {
		t.Errorf("starttime passed during setup: %v, %q", err, b.String())
	}
}

func TestParseClients(t *testing.T) {
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == partition.IndexEnv {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name string
		m    map[string]string
		env  string
		want partition.Clients
		err  string // a part of the one line, empty for none
	}{
		{"absent", nil, "", partition.Clients{}, ""},
		{"given", map[string]string{"client.count": "3", "client.index": "2"}, "", partition.Clients{Count: 3, Index: 2}, ""},
		{"one client", map[string]string{"client.count": "1", "client.index": "0"}, "", partition.Clients{Count: 1, Index: 0}, ""},
		{"auto", map[string]string{"client.count": "3", "client.index": "auto"}, "1", partition.Clients{Count: 3, Index: 1}, ""},
		{"auto trims", map[string]string{"client.count": "3", "client.index": "auto"}, " 0\n", partition.Clients{Count: 3, Index: 0}, ""},
		{"index too big", map[string]string{"client.count": "3", "client.index": "3"}, "", partition.Clients{}, `client.index: "3", but client.count=3 takes an index from 0 to 2`},
		{"index negative", map[string]string{"client.count": "3", "client.index": "-1"}, "", partition.Clients{}, "takes an index from 0 to 2"},
		{"index not a number", map[string]string{"client.count": "3", "client.index": "one"}, "", partition.Clients{}, `"one"`},
		{"auto unset", map[string]string{"client.count": "3", "client.index": "auto"}, "", partition.Clients{}, "JOB_COMPLETION_INDEX is not set"},
		{"auto out of range", map[string]string{"client.count": "3", "client.index": "auto"}, "5", partition.Clients{}, `auto: JOB_COMPLETION_INDEX is "5", but client.count=3`},
		{"index missing", map[string]string{"client.count": "3"}, "", partition.Clients{}, "client.index: missing"},
		{"count missing", map[string]string{"client.index": "0"}, "", partition.Clients{}, "client.index: needs client.count"},
		{"count zero", map[string]string{"client.count": "0", "client.index": "0"}, "", partition.Clients{}, "client.count: expected an integer from 1 to 1000"},
		{"count too big", map[string]string{"client.count": "1001", "client.index": "0"}, "", partition.Clients{}, "client.count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseClients(props.FromMap(tc.m), env(tc.env))
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Fatalf("parseClients = %+v, %v; want %+v", got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line containing %q", err, tc.err)
			}
			if !props.IsBadInput(err) {
				t.Errorf("%v is not bad input (exit 2)", err)
			}
		})
	}
}
