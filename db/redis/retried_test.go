package redis

import (
	"context"
	"errors"
	"testing"

	"github.com/goycsb/ycsb/db"
)

// TestRetried: an operation is tried until it succeeds, fails for good or
// runs out of retries; a write's failure after an attempt that may have
// been applied is of unknown outcome, a read's never is; an ended context
// stops it before any attempt.
func TestRetried(t *testing.T) {
	lost := errors.New("connection reset") // classify: retried, may have applied
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name     string
		ctx      context.Context
		write    bool
		errs     []error // the attempts' errors in turn, the last repeated
		attempts int
		want     string // the error's text, "" for nil
		unknown  bool
	}{
		{"read ok", context.Background(), false, []error{nil}, 1, "", false},
		{"read then ok", context.Background(), false, []error{lost, nil}, 2, "", false},
		{"read not found", context.Background(), false, []error{db.ErrNotFound}, 1, db.ErrNotFound.Error(), false},
		{"read lost", context.Background(), false, []error{lost}, 3, "redis: read k: connection reset", false},
		{"write lost", context.Background(), true, []error{lost}, 3, "redis: update k: connection reset (outcome unknown: the server may have applied it)", true},
		{"write refused", context.Background(), true, []error{&db.StatusError{Status: db.BadRequest, Err: errors.New("no")}}, 1, "redis: update k: no", false},
		{"read cancelled", cancelled, false, []error{nil}, 0, context.Canceled.Error(), false},
		{"write cancelled", cancelled, true, []error{nil}, 0, "redis: update k: context canceled", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &session{cfg: &config{retries: 2}}
			op := "read"
			if c.write {
				op = "update"
			}
			n := 0
			err := s.retried(c.ctx, op, "k", c.write, func() error {
				e := c.errs[min(n, len(c.errs)-1)]
				n++
				return e
			})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if n != c.attempts || got != c.want || db.IsOutcomeUnknown(err) != c.unknown {
				t.Errorf("%d attempts, %q (unknown outcome %v), want %d, %q (%v)", n, got, db.IsOutcomeUnknown(err), c.attempts, c.want, c.unknown)
			}
		})
	}
}
