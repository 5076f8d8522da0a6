package stressreport

import (
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/run/capacity"
)

// TestCapacityAnswerServed (issue 48): -rate capacity's answer is what its
// best passing step served: its achieved rate, at most its asked one,
// never shown above it.
func TestCapacityAnswerServed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []capacity.Step
		want  string
	}{
		{"short of the rate", []capacity.Step{{Asked: 900, Achieved: 890, Verdict: capacity.Pass}, {Asked: 1800, Achieved: 1712.6, Verdict: capacity.Pass},
			{Asked: 3600, Achieved: 2000, Verdict: capacity.Fail}}, "Max op rate meeting -slo  : 1,712 op/s achieved by step 2 (1,800 asked)\n"},
		{"ahead of the rate", []capacity.Step{{Asked: 900, Achieved: 905, Verdict: capacity.Pass}}, "Max op rate meeting -slo  : 900 op/s\n"},
		{"none passed", []capacity.Step{{Asked: 900, Achieved: 300, Verdict: capacity.Fail}}, "Max op rate meeting -slo  : none: no rate met the objectives\n"},
	} {
		var out strings.Builder
		WriteCapacity(func(line string) { out.WriteString(line + "\n") }, capacity.LadderAnswer(tc.steps), capacity.Config{Resolution: 0.05},
			[]string{"write.p50<=1s"}, 120*time.Second)
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s: want %q in\n%s", tc.name, tc.want, out.String())
		}
	}
}
