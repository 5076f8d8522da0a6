package jsonreport

import (
	"fmt"
	"math"

	"github.com/goycsb/ycsb/measurement/export"
)

// Validation statuses, as the YCSB+T forks print them.
const (
	ValidationSuccess = "SUCCESS"
	ValidationFailed  = "FAILED"
	ValidationError   = "ERROR" // it could not be checked
)

// Validation methods: one statement that adds up the balances, or a read
// of every account (the forks' validatebyquery=true and false).
const (
	ByQuery = "QUERY"
	ByReads = "READ-OPERATIONS"
)

// Validation is the closed economy's check after a run: the balances of its
// accounts must still add up to the total it started with (YCSB+T, Dey et
// al., ICDE Workshops 2014; the forks' ClosedEconomyWorkload.validate).
type Validation struct {
	Status string `json:"status"`
	Method string `json:"method"`
	// TotalCash is what the accounts were loaded with; CountedCash what
	// they hold after the run; Accounts how many were found, of
	// ExpectedAccounts (recordcount).
	TotalCash        int64 `json:"total_cash"`
	CountedCash      int64 `json:"counted_cash"`
	Accounts         int64 `json:"accounts"`
	ExpectedAccounts int64 `json:"expected_accounts"`
	// Operations is every operation the run started, warm-up included,
	// failed or not (the forks' actual operation count).
	Operations int64 `json:"operations"`
	// AnomalyScore is |TotalCash - CountedCash| / Operations, the
	// forks' definition: 0 when the invariant held.
	AnomalyScore float64 `json:"anomaly_score"`
	// Error says why the check could not be made (Status ERROR), or, in
	// a merged report, which client's check failed.
	Error string `json:"error,omitempty"`
}

// NewValidation judges counted cash in accounts against total over the
// run's operations.
func NewValidation(method string, total, counted, accounts, expected, operations int64) *Validation {
	v := &Validation{Method: method, TotalCash: total, CountedCash: counted, Accounts: accounts,
		ExpectedAccounts: expected, Operations: operations, Status: ValidationSuccess}
	if operations > 0 {
		v.AnomalyScore = math.Abs(float64(total-counted)) / float64(operations)
	}
	if counted != total || accounts != expected {
		v.Status = ValidationFailed
	}
	return v
}

// Passed says whether the invariant held.
func (v *Validation) Passed() bool { return v.Status == ValidationSuccess }

// Err is nil when the invariant held, and otherwise says how it broke or
// why it could not be checked.
func (v *Validation) Err() error {
	switch {
	case v.Passed():
		return nil
	case v.Status == ValidationError:
		return fmt.Errorf("closed economy: the balances could not be checked: %s", v.Error)
	case v.Error != "":
		return fmt.Errorf("closed economy: the invariant broke: %s", v.Error)
	case v.Accounts != v.ExpectedAccounts:
		return fmt.Errorf("closed economy: %d accounts found, recordcount is %d (was the table loaded by this workload, and only by it?)", v.Accounts, v.ExpectedAccounts)
	case v.CountedCash != v.TotalCash:
		return fmt.Errorf("closed economy: the invariant broke: the accounts hold %d, the economy started with %d (anomaly score %g)", v.CountedCash, v.TotalCash, v.AnomalyScore)
	}
	return fmt.Errorf("closed economy: status %s", v.Status)
}

// Rows are the report's [VALIDATE] rows: the forks' five and their
// method, then ours (the accounts; the error).
func (v *Validation) Rows() []export.Row {
	const sec = "VALIDATE"
	rows := []export.Row{{Metric: sec, Name: "STATUS", Value: export.Str(v.Status)}}
	if v.Status != ValidationError {
		rows = append(rows,
			export.Row{Metric: sec, Name: "TOTAL CASH", Value: export.Int(v.TotalCash)},
			export.Row{Metric: sec, Name: "COUNTED CASH", Value: export.Int(v.CountedCash)},
			export.Row{Metric: sec, Name: "ACTUAL OPERATIONS", Value: export.Int(v.Operations)},
			export.Row{Metric: sec, Name: "ANOMALY SCORE", Value: export.Float(v.AnomalyScore)})
	}
	rows = append(rows, export.Row{Metric: sec, Name: "METHOD", Value: export.Str(v.Method)})
	if v.Status != ValidationError {
		rows = append(rows, export.Row{Metric: sec, Name: "ACCOUNTS", Value: export.Int(v.Accounts)})
	}
	if v.Error != "" {
		rows = append(rows, export.Row{Metric: sec, Name: "ERROR", Value: export.Str(v.Error)})
	}
	return rows
}
