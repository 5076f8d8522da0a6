package measurement

import "testing"

// A run's last harvest ends its interval where the run ended, however
// late the harvest is made, and never before the interval before it.
func TestTickUntil(t *testing.T) {
	c := NewCollector(config(t, nil), YCSB)
	var start, end int64
	c.OnInterval = func(s, e int64, _ *Snapshot) { start, end = s, e }
	endNs := Now()
	for Now() < endNs+int64(5e6) { // the harvest comes 5 ms after the run's end
	}
	c.TickUntil(endNs)
	if end != endNs {
		t.Errorf("last interval ends %d ns after the run's end, want at it", end-endNs)
	}
	c.Tick() // an interval harvested past the end
	last := end
	c.TickUntil(endNs)
	if start != last || end != last {
		t.Errorf("after a later harvest: interval [%d, %d], want empty at the later harvest's end %d", start, end, last)
	}
}
