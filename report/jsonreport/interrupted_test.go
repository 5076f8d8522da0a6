package jsonreport

import (
	"strings"
	"testing"
)

// TestReadChecksInterrupted: the mark of an interrupted run is read back,
// and one that cannot be (more done than planned, fewer than measured, an
// unknown signal) is refused with its field named.
func TestReadChecksInterrupted(t *testing.T) {
	r := valid(t)
	r.Interrupted = &Interrupted{By: "SIGTERM", PlannedOperations: 100, DoneOperations: 3}
	got, err := Read(encode(t, r))
	if err != nil {
		t.Fatalf("a valid interrupted report: %v", err)
	}
	if in := got.Interrupted; in == nil || *in != *r.Interrupted {
		t.Fatalf("read back %+v, want %+v", in, r.Interrupted)
	}
	for _, tt := range []struct {
		in   Interrupted
		want string
	}{
		{Interrupted{By: "SIGHUP", DoneOperations: 3}, `interrupted.by: "SIGHUP" is not SIGINT or SIGTERM`},
		{Interrupted{By: "SIGINT", PlannedOperations: -1, DoneOperations: 3}, "interrupted.planned_operations: -1 is negative"},
		{Interrupted{By: "SIGINT", PlannedMs: -1, DoneOperations: 3}, "interrupted.planned_ms: -1 is negative"},
		{Interrupted{By: "SIGINT", DoneOperations: -3}, "interrupted.done_operations: -3 is negative"},
		{Interrupted{By: "SIGINT", PlannedOperations: 10, DoneOperations: 11}, "interrupted.done_operations: 11 is above planned_operations 10"},
		{Interrupted{By: "SIGINT", DoneOperations: 2}, "interrupted.done_operations: 2 is below the report's operations 3"},
		{Interrupted{By: "SIGINT", DoneOperations: 3, Clients: 2}, "interrupted.clients: 2 is more than the report's clients 1"},
		{Interrupted{By: "SIGINT", DoneOperations: 3, Clients: -1}, "interrupted.clients: -1 is negative"},
	} {
		r := valid(t)
		in := tt.in
		r.Interrupted = &in
		_, err := Read(encode(t, r))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: got %v, want %q", tt.in, err, tt.want)
		}
	}
	// A merge's mark counts its interrupted clients' operations only,
	// which may be fewer than the merged report's; an unbounded run plans
	// nothing.
	m := valid(t)
	m.Clients = 3
	m.Interrupted = &Interrupted{DoneOperations: 1, Clients: 2}
	if _, err := Read(encode(t, m)); err != nil {
		t.Errorf("a merge of two interrupted clients: %v", err)
	}
}

func TestInterruptedString(t *testing.T) {
	for _, tt := range []struct {
		in   Interrupted
		want string
	}{
		{Interrupted{By: "SIGTERM", PlannedOperations: 100000, DoneOperations: 5299}, "interrupted by SIGTERM after 5299 of 100000 operations"},
		{Interrupted{By: "SIGINT", DoneOperations: 7, PlannedMs: 60000}, "interrupted by SIGINT after 7 operations, maxexecutiontime 1m0s"},
		{Interrupted{DoneOperations: 7}, "interrupted after 7 operations"},
		{Interrupted{By: "SIGINT", PlannedOperations: 20, DoneOperations: 9, Clients: 2}, "2 clients interrupted by SIGINT after 9 of 20 operations"},
	} {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzReadInterrupted: whatever Read accepts of an interrupted mark is
// one a run could write.
func FuzzReadInterrupted(f *testing.F) {
	r := valid(f)
	r.Interrupted = &Interrupted{By: "SIGTERM", PlannedOperations: 100, PlannedMs: 60000, DoneOperations: 3}
	f.Add(encode(f, r))
	f.Add([]byte(`{"format":"ycsb-go-report","version":2,"operations":5,"interrupted":{"by":"SIGINT","planned_operations":4,"done_operations":5}}`))
	f.Add([]byte(`{"format":"ycsb-go-report","version":2,"clients":3,"interrupted":{"done_operations":0,"clients":2}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(data)
		if err != nil || r.Interrupted == nil {
			return
		}
		in := r.Interrupted
		if (in.By != "" && in.By != "SIGINT" && in.By != "SIGTERM") || in.DoneOperations < 0 || in.PlannedOperations < 0 || in.PlannedMs < 0 ||
			(in.PlannedOperations > 0 && in.DoneOperations > in.PlannedOperations) || in.Clients < 0 || in.Clients > r.Clients ||
			(in.Clients == 0 && in.DoneOperations < r.Operations) {
			t.Fatalf("accepted %+v in a report of %d operations and %d clients", in, r.Operations, r.Clients)
		}
	})
}
