package merge

import (
	"fmt"
	"math"

	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/workload"
)

// mergeValidation is a fleet's check of the closed economy. Every client
// added up the whole table before the fleet's start and after its own
// run, in one statement, so the check of the client that ended last saw
// the final balances, judged against the fleet's start (fleetStart); the
// operations are the fleet's. A client whose check failed fails the
// fleet's: transfers keep the total, so a total that was wrong once stays
// wrong unless another anomaly undoes it. nil when no client ran the
// closed economy.
func mergeValidation(paths []string, reps []*jsonreport.Report) (*workload.Validation, error) {
	last, n := -1, 0
	var ops int64
	for i, r := range reps {
		v := r.Validation
		if v == nil {
			continue
		}
		n++
		if v.Operations < 0 || v.Operations > math.MaxInt64-ops || v.TotalCash < 0 || v.Accounts < 0 || v.ExpectedAccounts < 0 {
			return nil, inputErr(paths[i], "validation: negative figures, or more operations than can be added up")
		}
		ops += v.Operations
		if last < 0 || r.End.After(reps[last].End) {
			last = i
		}
	}
	switch {
	case n == 0:
		return nil, nil
	case n != len(reps):
		return nil, fmt.Errorf("%d of %d reports carry the closed economy's validation: merge the clients of one run", n, len(reps))
	}
	f := validationOf(reps[last])
	for i, r := range reps {
		if v := r.Validation; v.TotalCash != f.TotalCash || v.ExpectedAccounts != f.ExpectedAccounts {
			return nil, inputErr(paths[i], "validation: total cash %d over %d accounts, and %s's is %d over %d: not the same economy",
				v.TotalCash, v.ExpectedAccounts, paths[last], f.TotalCash, f.ExpectedAccounts)
		}
	}
	start, startNote := fleetStart(paths, reps, last)
	var out *workload.Validation
	if f.Status == workload.ValidationError {
		out = &workload.Validation{Status: f.Status, Method: f.Method, TotalCash: f.TotalCash, ExpectedAccounts: f.ExpectedAccounts,
			Operations: ops, Error: fmt.Sprintf("%s: %s", paths[last], f.Error)}
	} else {
		out = workload.NewValidation(f.Method, f.TotalCash, f.ExpectedAccounts, ops, start, workload.Tally{Cash: f.CountedCash, Accounts: f.Accounts})
	}
	// A failed check anywhere fails the fleet; one that could not be made
	// leaves it unknown, never failed.
	for i, r := range reps {
		v := validationOf(r)
		switch {
		case v.Status == workload.ValidationFailed && out.Status == workload.ValidationError:
			// The last check has no figures: this one's are the evidence.
			out = workload.NewValidation(v.Method, v.TotalCash, v.ExpectedAccounts, ops, start, workload.Tally{Cash: v.CountedCash, Accounts: v.Accounts})
			out.Error = fmt.Sprintf("%s's check found FAILED (counted %d of %d); %s's could not be made", paths[i], v.CountedCash, v.Baseline().Cash, paths[last])
		case v.Status == workload.ValidationFailed && out.Passed():
			out.Status = workload.ValidationFailed
			out.Error = fmt.Sprintf("%s's check found FAILED (counted %d of %d)", paths[i], v.CountedCash, v.Baseline().Cash)
		case v.Status == workload.ValidationError && out.Passed():
			out.Status = workload.ValidationError
			out.Error = fmt.Sprintf("%s's check could not be made: %s", paths[i], v.Error)
		}
	}
	if startNote != "" && out.Error == "" {
		out.Error = startNote
	}
	return out, nil
}

// fleetStart is the tally a fleet is judged against: one counted before
// any client transferred, which all such clients saw alike unless
// something else wrote the table. The last client's (whose end tally the
// fleet's check is) when it was counted in time, else the first such
// client's in the order given; else the first late one's, marked late;
// nil when no client counted one (reports written before they did, judged
// against totalcash). The note names timely tallies that disagree.
func fleetStart(paths []string, reps []*jsonreport.Report, last int) (*workload.Start, string) {
	start, from := validationOf(reps[last]).Start(), last
	for i, r := range reps {
		s := validationOf(r).Start()
		if s == nil || start != nil && (s.Late || !start.Late) {
			continue
		}
		start, from = s, i
	}
	if start == nil || start.Late {
		return start, ""
	}
	for i, r := range reps {
		if s := validationOf(r).Start(); s != nil && !s.Late && s.Tally != start.Tally {
			return start, fmt.Sprintf("the clients counted different starts (%s: %d in %d accounts; %s: %d in %d): something else wrote the table before the run; the fleet is judged against %s's",
				paths[from], start.Cash, start.Accounts, paths[i], s.Cash, s.Accounts, paths[from])
		}
	}
	return start, ""
}

// validationOf is r's check as package workload judges it (nil: none).
func validationOf(r *jsonreport.Report) *workload.Validation {
	return (*workload.Validation)(r.Validation)
}
