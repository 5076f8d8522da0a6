package capacity

import "testing"

func TestOpsToTrust(t *testing.T) {
	for p, want := range map[float64]int64{99: 9508, 99.9: 95944, 50: 97, 0: 0, 100: 0} {
		if got := OpsToTrust(p); got != want {
			t.Errorf("p%g: %d, want %d", p, got, want)
		}
	}
}
