package measurement

import (
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement/export"
)

// ScheduleRows are the text report's SCHEDULE section's lag rows: the
// target and how far behind it the paced operations started. A run's rows
// (report) and a merged report's (ycsb merge) come from here, so that
// they are the same rows; StartRows follow them.
func ScheduleRows(targetOpsSec int64, meanLagUs float64, maxLagUs, finalLagUs int64) []export.Row {
	return []export.Row{
		{Metric: "SCHEDULE", Name: "Target(ops/sec)", Value: export.Int(targetOpsSec)},
		{Metric: "SCHEDULE", Name: "MeanLag(us)", Value: export.Float(meanLagUs)},
		{Metric: "SCHEDULE", Name: "MaxLag(us)", Value: export.Int(maxLagUs)},
		{Metric: "SCHEDULE", Name: "FinalLag(us)", Value: export.Int(finalLagUs)},
	}
}

// StartRows are the SCHEDULE rows of the paced starts' histograms (µs;
// nil is none): the wake-ups (how late the workers woke for the
// operations they waited for: the client's own timing) with their
// figures, then the late starts (the operations started behind their due
// time, which the lag rows measure).
func StartRows(wake, behind *hdrhistogram.Histogram) []export.Row {
	row := func(name string, v export.Value) export.Row {
		return export.Row{Metric: "SCHEDULE", Name: name, Value: v}
	}
	st := StatsOf(wake)
	rows := []export.Row{row("WakeUps", export.Int(st.Count))}
	if st.Count > 0 {
		rows = append(rows,
			row("AverageWakeLateness(us)", export.Float(math.Round(st.Mean*10)/10)),
			row("50thPercentileWakeLateness(us)", export.Int(st.Percentile(50))),
			row("99thPercentileWakeLateness(us)", export.Int(st.Percentile(99))),
			row("MaxWakeLateness(us)", export.Int(st.Max)))
	}
	var late int64
	if behind != nil {
		late = behind.TotalCount()
	}
	return append(rows, row("LateStarts", export.Int(late)))
}

// Served is what a step of a capacity search that passed, having
// achieved achieved ops/s of asked, shows the system serves: the rate
// achieved, at most the rate asked (a step that ran ahead of its schedule
// shows no more than was asked); the rate asked when achieved is not
// known (0). The search's answer and the JSON report's check of it both
// read it here.
func Served(asked, achieved float64) float64 {
	if achieved <= 0 {
		return asked
	}
	return math.Min(asked, achieved)
}
