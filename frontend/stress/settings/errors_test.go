package settings

import (
	"testing"
	"time"
)

// TestNextDelay: the retry waits of SettingsErrors.nextDelay, at the
// jitter's middle (u=0.5, ×1) and its ends (×0.75, ×1.25).
func TestNextDelay(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		e    ErrorSettings
		try  int
		u    float64
		want time.Duration
	}{
		{ErrorSettings{Retries: 9, MaxDelay: 20000 * ms}, 3, 0.5, 0},
		{ErrorSettings{Retries: 9, MinDelay: 100 * ms, MaxDelay: 20000 * ms}, 3, 0.5, 100 * ms},
		{ErrorSettings{Retries: 9, MinDelay: 100 * ms, MaxDelay: 20000 * ms}, 3, 0.999999, 124 * ms},
		{ErrorSettings{Retries: 9, MinDelay: 100 * ms, MaxDelay: 20000 * ms}, 3, 0, 100 * ms}, // never below min
		{ErrorSettings{Retries: 9, DelayPolicy: DelayLinear, MinDelay: 0, MaxDelay: 1000 * ms}, 5, 0.5, 500 * ms},
		{ErrorSettings{Retries: 9, DelayPolicy: DelayExponential, MinDelay: 10 * ms, MaxDelay: 1000 * ms}, 3, 0.5, 80 * ms},
		{ErrorSettings{Retries: 99, DelayPolicy: DelayExponential, MinDelay: 10 * ms, MaxDelay: 1000 * ms}, 70, 0.5, 1000 * ms},
	} {
		if got := c.e.NextDelay(c.try, c.u); got != c.want {
			t.Errorf("%+v try %d u %v: %v, want %v", c.e, c.try, c.u, got, c.want)
		}
	}
}
