package sqlbind

import (
	"errors"
	"slices"
	"testing"

	"github.com/goycsb/ycsb/db"
)

func TestWritesDue(t *testing.T) {
	var w Writes
	var got []bool
	for range 6 {
		got = append(got, w.Due(3))
	}
	if want := []bool{false, false, true, false, false, true}; !slices.Equal(got, want) {
		t.Errorf("Due(3): %v, want %v", got, want)
	}
	if !w.Due(0) {
		t.Error("Due(0) = false: without db.batchsize every write commits")
	}
}

// TestCommits: a failed COMMIT loses its transaction's inserts; the error
// is of unknown outcome when one COMMIT's was or another went through.
func TestCommits(t *testing.T) {
	refused, unsure := errors.New("refused"), db.OutcomeUnknown(errors.New("no answer"))
	for _, tc := range []struct {
		name        string
		adds        []error
		lost        int
		fail, unkno bool
	}{
		{"none", nil, 0, false, false},
		{"all went through", []error{nil, nil}, 0, false, false},
		{"refused", []error{refused}, 5, true, false},
		{"refused twice", []error{refused, refused}, 10, true, false},
		{"unknown", []error{unsure}, 5, true, true},
		{"refused after one went through", []error{nil, refused}, 5, true, true},
		{"refused then unknown", []error{refused, unsure}, 10, true, true},
	} {
		var c Commits
		for _, err := range tc.adds {
			c.Add(5, err)
		}
		lost, err := c.Result()
		if lost != tc.lost || (err != nil) != tc.fail || db.IsOutcomeUnknown(err) != tc.unkno {
			t.Errorf("%s: %d lost, %v (unknown %v); want %d, error %v, unknown %v", tc.name, lost, err, db.IsOutcomeUnknown(err), tc.lost, tc.fail, tc.unkno)
		}
	}
}

func TestCloseError(t *testing.T) {
	flush, refused, unsure := errors.New("flush"), errors.New("refused"), db.OutcomeUnknown(errors.New("no answer"))
	for _, tc := range []struct {
		err, cerr, want error
		unknown         bool
	}{
		{nil, nil, nil, false},
		{flush, nil, flush, false},
		{nil, refused, refused, false},
		{flush, refused, flush, false},
		{flush, unsure, flush, true},
	} {
		got := CloseError(tc.err, tc.cerr)
		if !errors.Is(got, tc.want) || db.IsOutcomeUnknown(got) != tc.unknown {
			t.Errorf("CloseError(%v, %v) = %v, want %v (unknown %v)", tc.err, tc.cerr, got, tc.want, tc.unknown)
		}
	}
}
