package export_test

import (
	"os"

	"github.com/goycsb/ycsb/measurement/export"
)

// Report rows are written by an exporter named as the exporter property
// names it: text is the reference's "[SECTION], Name, value" lines.
func ExampleWriteAll() {
	rows := []export.Row{
		{Metric: export.Overall, Name: export.RunTime, Value: export.Int(1500)},
		{Metric: export.Overall, Name: export.Throughput, Value: export.Float(666.6666666666666)},
		{Metric: "READ", Name: export.Operations, Value: export.Int(1000)},
		{Metric: "READ", Name: export.PercentileLatency(99), Value: export.Int(420)},
	}
	if err := export.WriteAll(os.Stdout, "text", rows); err != nil {
		panic(err)
	}
	// Output:
	// [OVERALL], RunTime(ms), 1500
	// [OVERALL], Throughput(ops/sec), 666.6666666666666
	// [READ], Operations, 1000
	// [READ], 99thPercentileLatency(us), 420
}
