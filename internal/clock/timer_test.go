package clock

import (
	"testing"
	"time"
)

// TestTimerNeverEarly: SleepUntil returns at or after its due time, on
// both the timerfd and the fallback.
func TestTimerNeverEarly(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fallback bool
	}{{"timerfd", false}, {"time.Sleep", true}} {
		t.Run(tc.name, func(t *testing.T) {
			tm := NewTimer()
			defer tm.Close()
			if tc.fallback {
				tm.sys.forceCoarse()
			}
			for _, d := range []time.Duration{0, time.Microsecond, 50 * time.Microsecond, 300 * time.Microsecond, 2 * time.Millisecond} {
				for range 20 {
					due := Now() + int64(d)
					if !tm.SleepUntil(due) {
						t.Fatal("SleepUntil reported an interrupt")
					}
					if now := Now(); now < due {
						t.Fatalf("woke %v early for a sleep of %v", time.Duration(due-now), d)
					}
				}
			}
		})
	}
}

// TestTimerInterrupt: an interrupt ends a sleep under way and every later
// one.
func TestTimerInterrupt(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		testTimerInterrupt(t, fallback)
	}
}

func testTimerInterrupt(t *testing.T, fallback bool) {
	tm := NewTimer()
	defer tm.Close()
	if fallback {
		tm.sys.forceCoarse()
	}
	done := make(chan bool)
	go func() { done <- tm.SleepUntil(Now() + int64(time.Hour)) }()
	time.Sleep(20 * time.Millisecond)
	tm.Interrupt()
	select {
	case ok := <-done:
		if ok {
			t.Error("an interrupted sleep returned true")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the interrupt did not wake the sleeper")
	}
	if tm.SleepUntil(Now()+int64(time.Hour)) || !tm.Interrupted() {
		t.Error("a sleep after the interrupt did not return false at once")
	}
}

func TestTimerPreciseOnLinux(t *testing.T) {
	t.Logf("timers use a timerfd: %t", Precise())
}
