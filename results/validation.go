package results

import (
	"fmt"
	"math"

	"github.com/goycsb/ycsb/measurement/jsonreport"
)

// mergeValidation is a fleet's check of the closed economy. Every client
// added up the whole table after its own run, in one statement, so the
// check of the client that ended last saw the final balances; the
// operations are the fleet's. A client whose check failed fails the
// fleet's: transfers keep the total, so a total that was wrong once stays
// wrong unless another anomaly undoes it. nil when no client ran the
// closed economy.
func mergeValidation(paths []string, reps []*jsonreport.Report) (*jsonreport.Validation, error) {
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
	f := reps[last].Validation
	for i, r := range reps {
		if v := r.Validation; v.TotalCash != f.TotalCash || v.ExpectedAccounts != f.ExpectedAccounts {
			return nil, inputErr(paths[i], "validation: total cash %d over %d accounts, and %s's is %d over %d: not the same economy",
				v.TotalCash, v.ExpectedAccounts, paths[last], f.TotalCash, f.ExpectedAccounts)
		}
	}
	var out *jsonreport.Validation
	if f.Status == jsonreport.ValidationError {
		out = &jsonreport.Validation{Status: f.Status, Method: f.Method, TotalCash: f.TotalCash, ExpectedAccounts: f.ExpectedAccounts,
			Operations: ops, Error: fmt.Sprintf("%s: %s", paths[last], f.Error)}
	} else {
		out = jsonreport.NewValidation(f.Method, f.TotalCash, f.CountedCash, f.Accounts, f.ExpectedAccounts, ops)
	}
	// A failed check anywhere fails the fleet; one that could not be made
	// leaves it unknown, never failed.
	for i, r := range reps {
		v := r.Validation
		switch {
		case v.Status == jsonreport.ValidationFailed && out.Status == jsonreport.ValidationError:
			// The last check has no figures: this one's are the evidence.
			out = jsonreport.NewValidation(v.Method, v.TotalCash, v.CountedCash, v.Accounts, v.ExpectedAccounts, ops)
			out.Error = fmt.Sprintf("%s's check found FAILED (counted %d of %d); %s's could not be made", paths[i], v.CountedCash, v.TotalCash, paths[last])
		case v.Status == jsonreport.ValidationFailed && out.Passed():
			out.Status = jsonreport.ValidationFailed
			out.Error = fmt.Sprintf("%s's check found FAILED (counted %d of %d)", paths[i], v.CountedCash, v.TotalCash)
		case v.Status == jsonreport.ValidationError && out.Passed():
			out.Status = jsonreport.ValidationError
			out.Error = fmt.Sprintf("%s's check could not be made: %s", paths[i], v.Error)
		}
	}
	return out, nil
}
