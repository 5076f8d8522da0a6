package status

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestOutcomeUnknown: the mark keeps the error's status and message and is
// found through wrapping and a lost batch; nil stays nil, and marking twice
// wraps once.
func TestOutcomeUnknown(t *testing.T) {
	base := WithStatus(ServiceUnavailable, errors.New("no answer"))
	marked := OutcomeUnknown(base)
	for _, tc := range []struct {
		name    string
		err     error
		unknown bool
		status  Status
	}{
		{"nil", OutcomeUnknown(nil), false, OK},
		{"marked", marked, true, ServiceUnavailable},
		{"wrapped", fmt.Errorf("insert: %w", marked), true, ServiceUnavailable},
		{"lost batch", &LostBatchError{Acked: 3, Err: marked}, true, ServiceUnavailable},
		{"deadline", OutcomeUnknown(context.DeadlineExceeded), true, ServiceUnavailable},
		{"untagged", OutcomeUnknown(errors.New("reset")), true, Error},
		{"not marked", base, false, ServiceUnavailable},
	} {
		if IsOutcomeUnknown(tc.err) != tc.unknown || StatusOf(tc.err) != tc.status {
			t.Errorf("%s: unknown %v, status %v; want %v, %v", tc.name, IsOutcomeUnknown(tc.err), StatusOf(tc.err), tc.unknown, tc.status)
		}
	}
	if again := OutcomeUnknown(marked); again != marked {
		t.Errorf("marked twice: %v", again)
	}
	if !errors.Is(marked, base) {
		t.Error("the mark hides the error")
	}
}
