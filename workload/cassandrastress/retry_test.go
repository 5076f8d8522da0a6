package cassandrastress

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/backoff"
)

// Each failed try is shown as it happens (the original prints each
// exception it catches) and the tries after the first are counted; a
// failure that ends the tries (validation) is neither shown nor retried.
func TestTryShowsAndCountsRetries(t *testing.T) {
	var st RunState
	st.Begin(context.Background())
	defer st.End()
	var shown []string
	st.OnRetry = func(err error) { shown = append(shown, err.Error()) }
	errs := settings.ErrorSettings{Retries: 9}
	var b backoff.Backoff
	r := rand.New(rand.NewPCG(1, 2))
	fails := []error{errors.New("Connection has been closed"), errors.New("Operation timed out - received only 1 responses.")}
	n := 0
	tr, ok := st.try(&b, &errs, errs.Tries(), r, func(context.Context) error {
		if n < len(fails) {
			n++
			return fails[n-1]
		}
		return nil
	}, func(error) bool { return false })
	if !ok || tr.err != nil || tr.retries != 2 {
		t.Fatalf("tried %+v, %t; want success after 2 retries", tr, ok)
	}
	if len(shown) != 2 || shown[0] != fails[0].Error() || shown[1] != fails[1].Error() {
		t.Errorf("shown %q, want each failed try", shown)
	}

	shown = nil
	bad := errors.New("not validated")
	tr, _ = st.try(&b, &errs, errs.Tries(), r, func(context.Context) error { return bad }, func(err error) bool { return err == bad })
	if tr.retries != 0 || len(shown) != 0 {
		t.Errorf("a final failure: %d retries, shown %q; want none", tr.retries, shown)
	}

	// Every try failing: tries-1 retries, each try shown.
	shown = nil
	tr, _ = st.try(&b, &settings.ErrorSettings{Retries: 2}, 3, r, func(context.Context) error { return fails[1] }, func(error) bool { return false })
	if tr.err == nil || tr.tries != 3 || tr.retries != 2 || len(shown) != 3 {
		t.Errorf("all failing: %+v, shown %d; want 3 tries, 2 retries, 3 shown", tr, len(shown))
	}
}
