package workload

import (
	"fmt"
	"math"
	"strings"

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

// Tally is what the accounts held at one moment: the sum of their
// balances and how many there were.
type Tally struct{ Cash, Accounts int64 }

// Start is the tally at a run's start, before its first transfer.
type Start struct {
	Tally
	// Late says the tally may hold transfers of other clients of the
	// fleet: it was taken after the fleet's common start, or the fleet
	// had none (client.count without starttime or client.rendezvous).
	Late bool
}

// Validation is the closed economy's check after a run: the balances of its
// accounts must still add up to what they held when it started (YCSB+T,
// Dey et al., ICDE Workshops 2014; the forks' ClosedEconomyWorkload.validate,
// which compares with the total the accounts were loaded with, and so
// blames a run for an earlier run's anomaly as well). The JSON report
// carries it as its own Validation type, of the same fields: a type
// conversion either way.
type Validation struct {
	Status string
	Method string
	// TotalCash is what the accounts were loaded with (totalcash);
	// CountedCash what they hold after the run; Accounts how many were
	// found, of ExpectedAccounts (recordcount).
	TotalCash        int64
	CountedCash      int64
	Accounts         int64
	ExpectedAccounts int64
	// StartCash and StartAccounts are what the accounts held when the run
	// started, before its first transfer: the run is judged against them.
	// Nil when they were not counted (and in reports written before they
	// were): such a run is judged against TotalCash and ExpectedAccounts.
	StartCash     *int64
	StartAccounts *int64
	// StartLate: see Start.Late.
	StartLate bool
	// EarlierChange is StartCash - TotalCash: money that appeared (or,
	// negative, vanished) before the run, which the run is not blamed for.
	EarlierChange *int64
	// Operations is every operation the run started, warm-up included,
	// failed or not (the forks' actual operation count).
	Operations int64
	// AnomalyScore is |start - CountedCash| / Operations, the forks'
	// definition over the run's own change: 0 when the invariant held.
	AnomalyScore float64
	// Error says why the check could not be made (Status ERROR), or, in
	// a merged report, which client's check failed.
	Error string
}

// NewValidation judges the tally end after a run of operations against
// the tally at its start (nil: not counted, judged against total and
// expected, what the accounts were loaded with).
func NewValidation(method string, total, expected, operations int64, start *Start, end Tally) *Validation {
	v := &Validation{Method: method, TotalCash: total, CountedCash: end.Cash, Accounts: end.Accounts,
		ExpectedAccounts: expected, Operations: operations, Status: ValidationSuccess}
	if start != nil {
		cash, accounts, earlier := start.Cash, start.Accounts, start.Cash-total
		v.StartCash, v.StartAccounts, v.EarlierChange, v.StartLate = &cash, &accounts, &earlier, start.Late
	}
	base := v.Baseline()
	if operations > 0 {
		v.AnomalyScore = math.Abs(float64(base.Cash-end.Cash)) / float64(operations)
	}
	if end != base {
		v.Status = ValidationFailed
	}
	return v
}

// Start is the tally at the run's start; nil when it was not counted.
func (v *Validation) Start() *Start {
	if v.StartCash == nil || v.StartAccounts == nil {
		return nil
	}
	return &Start{Tally: Tally{Cash: *v.StartCash, Accounts: *v.StartAccounts}, Late: v.StartLate}
}

// Baseline is what the run is judged against: the tally at its start,
// or without one the total and the accounts it was loaded with.
func (v *Validation) Baseline() Tally {
	if s := v.Start(); s != nil {
		return s.Tally
	}
	return Tally{Cash: v.TotalCash, Accounts: v.ExpectedAccounts}
}

// Notes say what the run is not judged on: money or accounts that had
// changed before it started, and a start counted while other clients may
// have been transferring. None when the start was not counted.
func (v *Validation) Notes() []string {
	s := v.Start()
	if s == nil || v.Status == ValidationError {
		return nil
	}
	var notes, before []string
	switch d := s.Cash - v.TotalCash; {
	case d < 0:
		before = append(before, fmt.Sprintf("the accounts held %d, %d less than totalcash %d", s.Cash, -d, v.TotalCash))
	case d > 0:
		before = append(before, fmt.Sprintf("the accounts held %d, %d more than totalcash %d", s.Cash, d, v.TotalCash))
	}
	if s.Accounts != v.ExpectedAccounts {
		before = append(before, fmt.Sprintf("%d accounts were found of recordcount %d", s.Accounts, v.ExpectedAccounts))
	}
	if len(before) > 0 {
		notes = append(notes, "closed economy: before this run "+strings.Join(before, " and ")+
			" (an earlier run or another writer changed them): this run is judged only on its own change")
	}
	if s.Late {
		notes = append(notes, "closed economy: the start was counted when other clients of the fleet may have been transferring already (after the starttime, or without starttime or client.rendezvous): what they changed before it is not in this run's change")
	}
	return notes
}

// Passed says whether the invariant held.
func (v *Validation) Passed() bool { return v.Status == ValidationSuccess }

// Err is nil when the invariant held, and otherwise says how it broke or
// why it could not be checked.
func (v *Validation) Err() error {
	base, started := v.Baseline(), v.Start() != nil
	switch {
	case v.Passed():
		return nil
	case v.Status == ValidationError:
		return fmt.Errorf("closed economy: the balances could not be checked: %s", v.Error)
	case v.Error != "":
		return fmt.Errorf("closed economy: the invariant broke: %s", v.Error)
	case v.Accounts != base.Accounts && started:
		return fmt.Errorf("closed economy: %d accounts found after the run, %d at its start (did something else write the table?)", v.Accounts, base.Accounts)
	case v.Accounts != base.Accounts:
		return fmt.Errorf("closed economy: %d accounts found, recordcount is %d (was the table loaded by this workload, and only by it?)", v.Accounts, v.ExpectedAccounts)
	case v.CountedCash != base.Cash && started:
		return fmt.Errorf("closed economy: the invariant broke during this run: the accounts held %d at its start and hold %d now, %+d (anomaly score %g)", base.Cash, v.CountedCash, v.CountedCash-base.Cash, v.AnomalyScore)
	case v.CountedCash != base.Cash:
		return fmt.Errorf("closed economy: the invariant broke: the accounts hold %d, the economy started with %d (anomaly score %g)", v.CountedCash, v.TotalCash, v.AnomalyScore)
	}
	return fmt.Errorf("closed economy: status %s", v.Status)
}

// Rows are the report's [VALIDATE] rows: the forks' five and their
// method, then ours (the accounts; the tally at the run's start and the
// change before it; the error). TOTAL CASH is totalcash, as in the forks;
// ANOMALY SCORE is over the run's own change.
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
		if s := v.Start(); s != nil {
			rows = append(rows,
				export.Row{Metric: sec, Name: "START CASH", Value: export.Int(s.Cash)},
				export.Row{Metric: sec, Name: "START ACCOUNTS", Value: export.Int(s.Accounts)},
				export.Row{Metric: sec, Name: "EARLIER CHANGE", Value: export.Int(s.Cash - v.TotalCash)})
			if s.Late {
				rows = append(rows, export.Row{Metric: sec, Name: "START", Value: export.Str("counted while other clients may have been transferring")})
			}
		}
	}
	if v.Error != "" {
		rows = append(rows, export.Row{Metric: sec, Name: "ERROR", Value: export.Str(v.Error)})
	}
	return rows
}
