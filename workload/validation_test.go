package workload

import (
	"strings"
	"testing"

	"github.com/goycsb/ycsb/measurement/export"
)

// TestValidationJudgesItsOwnRun: a run is judged on what it changed,
// from the tally at its start; what changed before it is stated apart and
// fails nothing. Without a start (an older report) the run is judged
// against what the accounts were loaded with, as before.
func TestValidationJudgesItsOwnRun(t *testing.T) {
	const total, accounts, ops = 1000, 10, 200
	for _, tc := range []struct {
		name    string
		start   *Start
		end     Tally
		status  string
		score   float64
		err     string // in Err(); "" for none
		notes   []string
		earlier int64 // the EARLIER CHANGE row; absent without a start
	}{
		{name: "clean", start: &Start{Tally: Tally{1000, 10}}, end: Tally{1000, 10}, status: ValidationSuccess},
		{name: "this run lost money", start: &Start{Tally: Tally{1000, 10}}, end: Tally{990, 10}, status: ValidationFailed, score: 10.0 / ops,
			err: "closed economy: the invariant broke during this run: the accounts held 1000 at its start and hold 990 now, -10 (anomaly score 0.05)"},
		{name: "an earlier run lost money, this one none", start: &Start{Tally: Tally{974, 10}}, end: Tally{974, 10}, status: ValidationSuccess, earlier: -26,
			notes: []string{"closed economy: before this run the accounts held 974, 26 less than totalcash 1000 (an earlier run or another writer changed them): this run is judged only on its own change"}},
		{name: "both lost money", start: &Start{Tally: Tally{974, 10}}, end: Tally{970, 10}, status: ValidationFailed, score: 4.0 / ops, earlier: -26,
			err:   "closed economy: the invariant broke during this run: the accounts held 974 at its start and hold 970 now, -4 (anomaly score 0.02)",
			notes: []string{"closed economy: before this run the accounts held 974, 26 less than totalcash 1000 (an earlier run or another writer changed them): this run is judged only on its own change"}},
		{name: "an account missing before", start: &Start{Tally: Tally{1003, 9}}, end: Tally{1003, 9}, status: ValidationSuccess, earlier: 3,
			notes: []string{"closed economy: before this run the accounts held 1003, 3 more than totalcash 1000 and 9 accounts were found of recordcount 10 (an earlier run or another writer changed them): this run is judged only on its own change"}},
		{name: "an account lost in this run", start: &Start{Tally: Tally{1000, 10}}, end: Tally{1000, 9}, status: ValidationFailed,
			err: "closed economy: 9 accounts found after the run, 10 at its start (did something else write the table?)"},
		{name: "counted late in a fleet", start: &Start{Tally: Tally{1000, 10}, Late: true}, end: Tally{1000, 10}, status: ValidationSuccess,
			notes: []string{"closed economy: the start was counted when other clients of the fleet may have been transferring already (after the starttime, or without starttime or client.rendezvous): what they changed before it is not in this run's change"}},
		{name: "no start: judged against totalcash", end: Tally{974, 10}, status: ValidationFailed, score: 26.0 / ops,
			err: "closed economy: the invariant broke: the accounts hold 974, the economy started with 1000 (anomaly score 0.13)"},
		{name: "no start: an account missing", end: Tally{1000, 9}, status: ValidationFailed,
			err: "closed economy: 9 accounts found, recordcount is 10 (was the table loaded by this workload, and only by it?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewValidation(ByQuery, total, accounts, ops, tc.start, tc.end)
			if v.Status != tc.status || v.AnomalyScore != tc.score {
				t.Errorf("status %s, anomaly score %g; want %s and %g", v.Status, v.AnomalyScore, tc.status, tc.score)
			}
			gotErr := ""
			if err := v.Err(); err != nil {
				gotErr = err.Error()
			}
			if gotErr != tc.err {
				t.Errorf("Err() %q\nwant     %q", gotErr, tc.err)
			}
			if got := strings.Join(v.Notes(), "\n"); got != strings.Join(tc.notes, "\n") {
				t.Errorf("notes %q\nwant  %q", got, tc.notes)
			}
			rows := map[string]export.Row{}
			for _, r := range v.Rows() {
				rows[r.Name] = r
			}
			if rows["TOTAL CASH"].Value != export.Int(total) || rows["COUNTED CASH"].Value != export.Int(tc.end.Cash) {
				t.Errorf("TOTAL CASH %v, COUNTED CASH %v", rows["TOTAL CASH"].Value, rows["COUNTED CASH"].Value)
			}
			start, ok := rows["START CASH"]
			if (tc.start != nil) != ok {
				t.Fatalf("START CASH row %v, want one: %v", ok, tc.start != nil)
			}
			if tc.start == nil {
				if v.StartCash != nil || v.EarlierChange != nil {
					t.Errorf("start fields without a start: %+v", v)
				}
				return
			}
			if start.Value != export.Int(tc.start.Cash) || rows["START ACCOUNTS"].Value != export.Int(tc.start.Accounts) || rows["EARLIER CHANGE"].Value != export.Int(tc.earlier) {
				t.Errorf("START CASH %v, START ACCOUNTS %v, EARLIER CHANGE %v", start.Value, rows["START ACCOUNTS"].Value, rows["EARLIER CHANGE"].Value)
			}
			if *v.StartCash != tc.start.Cash || *v.EarlierChange != tc.earlier || v.StartLate != tc.start.Late {
				t.Errorf("JSON fields: start_cash %d, earlier_change %d, start_late %v", *v.StartCash, *v.EarlierChange, v.StartLate)
			}
			if _, late := rows["START"]; late != tc.start.Late {
				t.Errorf("START row %v, want %v", late, tc.start.Late)
			}
		})
	}
}
