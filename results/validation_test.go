package results

import (
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/measurement/jsonreport"
)

func TestMergeValidation(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	rep := func(end int, v *jsonreport.Validation) *jsonreport.Report {
		return &jsonreport.Report{End: t0.Add(time.Duration(end) * time.Second), Validation: v}
	}
	ok := func(counted, ops int64) *jsonreport.Validation {
		return jsonreport.NewValidation(jsonreport.ByQuery, 5000, counted, 5, 5, ops)
	}
	paths := []string{"a.json", "b.json", "c.json"}

	// The client that ended last saw the final balances; operations add up.
	v, err := mergeValidation(paths, []*jsonreport.Report{rep(10, ok(5000, 100)), rep(12, ok(5000, 300)), rep(11, ok(5000, 50))})
	if err != nil || v.Status != jsonreport.ValidationSuccess || v.Operations != 450 || v.Err() != nil {
		t.Errorf("all passed: %+v, %v", v, err)
	}
	v, err = mergeValidation(paths, []*jsonreport.Report{rep(10, ok(5000, 100)), rep(12, ok(5009, 300)), rep(11, ok(5000, 50))})
	if err != nil || v.Status != jsonreport.ValidationFailed || v.CountedCash != 5009 || v.AnomalyScore != 9.0/450 {
		t.Errorf("final check failed: %+v, %v", v, err)
	}
	// An earlier client's failed check fails the fleet, even when the
	// final total is right again.
	v, err = mergeValidation(paths, []*jsonreport.Report{rep(10, ok(4990, 100)), rep(12, ok(5000, 300)), rep(11, ok(5000, 50))})
	if err != nil || v.Status != jsonreport.ValidationFailed || v.Err() == nil || !strings.Contains(v.Err().Error(), "a.json's check found FAILED (counted 4990 of 5000)") {
		t.Errorf("earlier failure: %+v, %v", v, err)
	}
	// A check that could not be made (the server was gone) leaves the
	// fleet's unknown, wherever it is; a failed one still fails it.
	bad := func(ops int64) *jsonreport.Validation {
		return &jsonreport.Validation{Status: jsonreport.ValidationError, Method: jsonreport.ByQuery, TotalCash: 5000,
			ExpectedAccounts: 5, Operations: ops, Error: "connection refused"}
	}
	for _, tc := range []struct {
		reps []*jsonreport.Report
		want string
		err  string
	}{
		{[]*jsonreport.Report{rep(10, bad(100)), rep(12, ok(5000, 300))}, jsonreport.ValidationError, "a.json's check could not be made: connection refused"},
		{[]*jsonreport.Report{rep(10, ok(5000, 100)), rep(12, bad(300))}, jsonreport.ValidationError, "b.json: connection refused"},
		{[]*jsonreport.Report{rep(10, ok(4990, 100)), rep(12, bad(300))}, jsonreport.ValidationFailed, "a.json's check found FAILED (counted 4990 of 5000); b.json's could not be made"},
		{[]*jsonreport.Report{rep(12, ok(4990, 100)), rep(10, bad(300))}, jsonreport.ValidationFailed, "the accounts hold 4990"},
	} {
		v, err := mergeValidation(paths[:2], tc.reps)
		if err != nil || v.Status != tc.want || v.Operations != 400 || v.Err() == nil || !strings.Contains(v.Err().Error(), tc.err) {
			t.Errorf("%s: %+v, %v; want %s and %q", tc.want, v, err, tc.want, tc.err)
		}
	}
	// Not a closed economy at all.
	if v, err := mergeValidation(paths[:2], []*jsonreport.Report{rep(1, nil), rep(2, nil)}); v != nil || err != nil {
		t.Errorf("no economy: %v, %v", v, err)
	}
	// Refused: a mix, another economy, hostile figures.
	for _, tc := range []struct {
		reps []*jsonreport.Report
		want string
	}{
		{[]*jsonreport.Report{rep(1, ok(5000, 1)), rep(2, nil)}, "1 of 2 reports carry"},
		{[]*jsonreport.Report{rep(1, ok(5000, 1)), rep(2, jsonreport.NewValidation(jsonreport.ByQuery, 6000, 6000, 5, 5, 1))}, "a.json: validation: total cash 5000 over 5 accounts, and b.json's is 6000 over 5"},
		{[]*jsonreport.Report{rep(1, ok(5000, -1)), rep(2, ok(5000, 1))}, "a.json: validation: negative figures"},
		{[]*jsonreport.Report{rep(1, ok(5000, 1<<62)), rep(2, ok(5000, 1<<62))}, "b.json: validation: negative figures, or more operations than can be added up"},
	} {
		if _, err := mergeValidation(paths[:2], tc.reps); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err %v, want %q", err, tc.want)
		}
	}
}
