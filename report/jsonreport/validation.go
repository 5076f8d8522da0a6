package jsonreport

// Validation is the closed economy's check of its invariant after a run
// (validation), as its producer's (package workload's Validation, which
// has the same fields and converts to it) judged it.
type Validation struct {
	Status string `json:"status"`
	Method string `json:"method"`
	// TotalCash is what the accounts were loaded with (totalcash);
	// CountedCash what they hold after the run; Accounts how many were
	// found, of ExpectedAccounts (recordcount).
	TotalCash        int64 `json:"total_cash"`
	CountedCash      int64 `json:"counted_cash"`
	Accounts         int64 `json:"accounts"`
	ExpectedAccounts int64 `json:"expected_accounts"`
	// StartCash and StartAccounts are what the accounts held when the run
	// started, before its first transfer: the run is judged against them.
	// Absent in reports written before they were counted: such a run is
	// judged against TotalCash and ExpectedAccounts.
	StartCash     *int64 `json:"start_cash,omitempty"`
	StartAccounts *int64 `json:"start_accounts,omitempty"`
	// StartLate says the start was counted when other clients of the
	// fleet may have been transferring already.
	StartLate bool `json:"start_late,omitempty"`
	// EarlierChange is StartCash - TotalCash: money that appeared (or,
	// negative, vanished) before the run, which the run is not blamed for.
	EarlierChange *int64 `json:"earlier_change,omitempty"`
	// Operations is every operation the run started, warm-up included,
	// failed or not (the forks' actual operation count).
	Operations int64 `json:"operations"`
	// AnomalyScore is |start - CountedCash| / Operations, the forks'
	// definition over the run's own change: 0 when the invariant held.
	AnomalyScore float64 `json:"anomaly_score"`
	// Error says why the check could not be made (Status ERROR), or, in
	// a merged report, which client's check failed.
	Error string `json:"error,omitempty"`
}

// Validation statuses, as the YCSB+T forks print them (package
// workload's).
const (
	ValidationSuccess = "SUCCESS"
	ValidationFailed  = "FAILED"
	ValidationError   = "ERROR" // it could not be checked
)
