package stressreport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/hostcpu"
	"github.com/goycsb/ycsb/report"
)

// TestWriteClientWakeUps: a paced run (-rate fixed= or throttle=) says
// how late its workers woke, and the verdict names it when it is a
// material share of the intended latency.
func TestWriteClientWakeUps(t *testing.T) {
	cpu := hostcpu.Usage{Wall: 10 * time.Second, Cores: 2, CoresKnown: true, CPU: 0.3, CPUKnown: true}
	c := report.JudgeClient(report.ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 1000, Ops: 10000,
		MeanLatencyUs: 100, MeanLatencyKnown: true, CPU: cpu,
		WakeLate: report.WakeLateness{MeanUs: 60, P99Us: 400, MaxUs: 900, WakeUps: 9900, PacedOps: 10000, Known: true}}, ClientTerms)
	var b bytes.Buffer
	WriteClient(&b, &c)
	for _, want := range []string{
		"Client wake-up lateness   : 0.060 ms mean, 0.400 ms p99, 0.900 ms max over 9,900 wake-ups, 37.3% of intended latency\n",
		"Client verdict            : LATE-WAKEUPS\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}
