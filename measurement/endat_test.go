package measurement

import "testing"

// A run's last harvest ends its interval where the run ended, however
// late the harvest is made, and never before the interval before it.
func TestEndAt(t *testing.T) {
	c := NewCollector(config(t, nil), YCSB)
	var start, end int64
	c.OnInterval = func(s, e int64, _ *Snapshot) { start, end = s, e }
	endNs := Now()
	c.EndAt(endNs)
	for Now() < endNs+int64(5e6) { // the harvest comes 5 ms after the run's end
	}
	c.Tick()
	if end != endNs {
		t.Errorf("last interval ends %d ns after the run's end, want at it", end-endNs)
	}
	c.Tick() // one more harvest after the end
	if start != endNs || end != endNs {
		t.Errorf("a second harvest after the end: interval [%d, %d], want empty at the end %d", start, end, endNs)
	}
}
