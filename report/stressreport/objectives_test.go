package stressreport

import (
	"bytes"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement/slo"
)

// TestWriteObjectivesTooFew: -slo's lines say NO DATA, with the count and
// the need, for a percentile of too few operations (slo.OpsForPercentile),
// as run's [SLO] rows do, and the verdict fails.
func TestWriteObjectivesTooFew(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{7, "Objectives (service latency):\n" +
			"write.p99<=5ms            : NO DATA (7 WRITE operations; a p99 needs at least 1000 operations, 10 beyond it)\n" +
			"write.max<=5ms            : PASS (2 ms)\n" +
			"Verdict                   : FAIL (1 of 2 objectives)\n\n"},
		{1000, "Objectives (service latency):\n" +
			"write.p99<=5ms            : PASS (2 ms)\n" +
			"write.max<=5ms            : PASS (2 ms)\n" +
			"Verdict                   : PASS\n\n"},
	} {
		h := hdrhistogram.New(1, 3_600_000_000, 3)
		if err := h.RecordValues(2000, tt.n); err != nil {
			t.Fatal(err)
		}
		f, err := slo.NewFigures([]slo.Sample{{Operation: "WRITE", Hist: h}}, slo.Service, tt.n, 0, true, 100)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := slo.Parse("write.p99<=5ms, write.max<=5ms")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		WriteObjectives(&out, &slo.Judgement{Results: slo.Evaluate(objs, f), Latency: slo.Service})
		if out.String() != tt.want {
			t.Errorf("%d operations:\n%s\nwant\n%s", tt.n, out.String(), tt.want)
		}
	}
}
