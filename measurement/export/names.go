package export

import "github.com/goycsb/ycsb/internal/javafmt"

// The names of the text report's lines, as the reference's
// OneMeasurement classes and Client print them at 0.17.0: their one home,
// for a run's report (measurement, report), ycsb merge and ycsb compare
// (results).
const (
	// Overall is the section of the run as a whole.
	Overall = "OVERALL"

	RunTime        = "RunTime(ms)"
	Throughput     = "Throughput(ops/sec)"
	Operations     = "Operations"
	AverageLatency = "AverageLatency(us)"
	MinLatency     = "MinLatency(us)"
	MaxLatency     = "MaxLatency(us)"

	// UnknownOutcome is ours: operations whose outcome the client could
	// not know (a connection cut after the request was sent).
	UnknownOutcome = "UnknownOutcome"
)

// PercentileLatency is the line of percentile p of a latency section
// ("99thPercentileLatency(us)", "99.9PercentileLatency(us)").
func PercentileLatency(p float64) string {
	return javafmt.Ordinal(p) + "PercentileLatency(us)"
}
