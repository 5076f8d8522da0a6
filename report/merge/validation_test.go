package merge

import (
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/workload"
)

func TestMergeValidation(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	rep := func(end int, v *workload.Validation) *jsonreport.Report {
		return &jsonreport.Report{End: t0.Add(time.Duration(end) * time.Second), Validation: (*jsonreport.Validation)(v)}
	}
	ok := func(counted, ops int64) *workload.Validation {
		return workload.NewValidation(workload.ByQuery, 5000, 5, ops, nil, workload.Tally{Cash: counted, Accounts: 5})
	}
	paths := []string{"a.json", "b.json", "c.json"}

	// The client that ended last saw the final balances; operations add up.
	v, err := mergeValidation(paths, []*jsonreport.Report{rep(10, ok(5000, 100)), rep(12, ok(5000, 300)), rep(11, ok(5000, 50))})
	if err != nil || v.Status != workload.ValidationSuccess || v.Operations != 450 || v.Err() != nil {
		t.Errorf("all passed: %+v, %v", v, err)
	}
	v, err = mergeValidation(paths, []*jsonreport.Report{rep(10, ok(5000, 100)), rep(12, ok(5009, 300)), rep(11, ok(5000, 50))})
	if err != nil || v.Status != workload.ValidationFailed || v.CountedCash != 5009 || v.AnomalyScore != 9.0/450 {
		t.Errorf("final check failed: %+v, %v", v, err)
	}
	// An earlier client's failed check fails the fleet, even when the
	// final total is right again.
	v, err = mergeValidation(paths, []*jsonreport.Report{rep(10, ok(4990, 100)), rep(12, ok(5000, 300)), rep(11, ok(5000, 50))})
	if err != nil || v.Status != workload.ValidationFailed || v.Err() == nil || !strings.Contains(v.Err().Error(), "a.json's check found FAILED (counted 4990 of 5000)") {
		t.Errorf("earlier failure: %+v, %v", v, err)
	}
	// A check that could not be made (the server was gone) leaves the
	// fleet's unknown, wherever it is; a failed one still fails it.
	bad := func(ops int64) *workload.Validation {
		return &workload.Validation{Status: workload.ValidationError, Method: workload.ByQuery, TotalCash: 5000,
			ExpectedAccounts: 5, Operations: ops, Error: "connection refused"}
	}
	for _, tc := range []struct {
		reps []*jsonreport.Report
		want string
		err  string
	}{
		{[]*jsonreport.Report{rep(10, bad(100)), rep(12, ok(5000, 300))}, workload.ValidationError, "a.json's check could not be made: connection refused"},
		{[]*jsonreport.Report{rep(10, ok(5000, 100)), rep(12, bad(300))}, workload.ValidationError, "b.json: connection refused"},
		{[]*jsonreport.Report{rep(10, ok(4990, 100)), rep(12, bad(300))}, workload.ValidationFailed, "a.json's check found FAILED (counted 4990 of 5000); b.json's could not be made"},
		{[]*jsonreport.Report{rep(12, ok(4990, 100)), rep(10, bad(300))}, workload.ValidationFailed, "the accounts hold 4990"},
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
		{[]*jsonreport.Report{rep(1, ok(5000, 1)), rep(2, workload.NewValidation(workload.ByQuery, 6000, 5, 1, nil, workload.Tally{Cash: 6000, Accounts: 5}))}, "a.json: validation: total cash 5000 over 5 accounts, and b.json's is 6000 over 5"},
		{[]*jsonreport.Report{rep(1, ok(5000, -1)), rep(2, ok(5000, 1))}, "a.json: validation: negative figures"},
		{[]*jsonreport.Report{rep(1, ok(5000, 1<<62)), rep(2, ok(5000, 1<<62))}, "b.json: validation: negative figures, or more operations than can be added up"},
	} {
		if _, err := mergeValidation(paths[:2], tc.reps); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err %v, want %q", err, tc.want)
		}
	}
}

// TestMergeValidationStart: a fleet is judged against the tally its
// clients counted before any of them transferred: a loss before the run
// is stated, not failed; a client that counted late is passed over for
// one that did not; timely tallies that disagree are named.
func TestMergeValidationStart(t *testing.T) {
	paths := []string{"a.json", "b.json"}
	rep := func(end int, start *workload.Start, counted int64) *jsonreport.Report {
		v := workload.NewValidation(workload.ByQuery, 5000, 5, 100, start, workload.Tally{Cash: counted, Accounts: 5})
		return &jsonreport.Report{End: time.Unix(int64(end), 0), Validation: (*jsonreport.Validation)(v)}
	}
	at := func(cash int64, late bool) *workload.Start {
		return &workload.Start{Tally: workload.Tally{Cash: cash, Accounts: 5}, Late: late}
	}
	for _, tc := range []struct {
		name          string
		reps          []*jsonreport.Report
		status        string
		start         int64
		late          bool
		earlier       int64
		errorContains string
	}{
		{"a loss before the run", []*jsonreport.Report{rep(10, at(4974, false), 4974), rep(12, at(4974, false), 4974)}, workload.ValidationSuccess, 4974, false, -26, ""},
		{"a loss in the run", []*jsonreport.Report{rep(10, at(4974, false), 4974), rep(12, at(4974, false), 4970)}, workload.ValidationFailed, 4974, false, -26, ""},
		{"a late client passed over", []*jsonreport.Report{rep(12, at(4990, true), 4970), rep(10, at(5000, false), 4980)}, workload.ValidationFailed, 5000, false, 0, ""},
		{"only late clients", []*jsonreport.Report{rep(10, at(4990, true), 4990), rep(12, at(4990, true), 4990)}, workload.ValidationSuccess, 4990, true, -10, ""},
		// Something wrote the table between the clients' tallies: the last
		// client's tally is judged with its own end.
		{"timely tallies disagree", []*jsonreport.Report{rep(10, at(5000, false), 5000), rep(12, at(4990, false), 4990)}, workload.ValidationSuccess, 4990, false, -10,
			"the clients counted different starts (b.json: 4990 in 5 accounts; a.json: 5000 in 5): something else wrote the table before the run; the fleet is judged against b.json's"},
		{"timely tallies disagree, the end changed", []*jsonreport.Report{rep(10, at(5000, false), 5000), rep(12, at(4990, false), 5000)}, workload.ValidationFailed, 4990, false, -10, "the clients counted different starts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := mergeValidation(paths, tc.reps)
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != tc.status || v.StartCash == nil || *v.StartCash != tc.start || v.StartLate != tc.late || *v.EarlierChange != tc.earlier {
				t.Errorf("merged %+v; want %s from %d (late %v), earlier change %d", v, tc.status, tc.start, tc.late, tc.earlier)
			}
			if !strings.Contains(v.Error, tc.errorContains) {
				t.Errorf("error %q, want it to hold %q", v.Error, tc.errorContains)
			}
		})
	}
	v, _ := mergeValidation(paths, []*jsonreport.Report{rep(10, at(5000, false), 5000), rep(12, at(5000, false), 5000)})
	if v.Error != "" {
		t.Errorf("agreeing tallies: error %q", v.Error)
	}
}
