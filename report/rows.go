// Package report is the final report of an engine run, the YCSB
// front end's and the stress mode's alike: the text report's rows and the
// JSON report (report/jsonreport) with its intervals.
package report

import (
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/run"
)

// Rows are the text report's rows, in the reference's order with ours in
// between where parsers keyed on the reference's rows still work: the
// OVERALL and GC rows, the measurements', the schedule's under a target,
// the binding's stats, and last the client's verdict (ClientRows).
func Rows(res *run.Result, mcfg *measurement.Config, stats []db.Stat) []export.Row {
	elapsed := res.End.Sub(res.Start)
	rows := overallRows(elapsed, res.Ops, &res.GC.Start, &res.GC.End)
	if res.WarmedUp {
		// After the reference's two OVERALL rows, so parsers keyed on them
		// keep working.
		rows = slices.Insert(rows, 2, export.Row{Metric: export.Overall, Name: "Warmup(ms)", Value: export.Int(res.Warmup.Milliseconds())})
	}
	// Ours, after the reference's OVERALL rows: a dead cluster that fails
	// fast must not look fast.
	rows = slices.Insert(rows, overallEnd(rows), export.Row{Metric: export.Overall, Name: "SuccessfulThroughput(ops/sec)",
		Value: export.Float(rate(res.Succeeded, elapsed))})
	if res.Unknown > 0 {
		// Ours, only when there were some: of the failed operations,
		// those whose write the server may have applied.
		rows = slices.Insert(rows, overallEnd(rows), export.Row{Metric: export.Overall, Name: export.UnknownOutcome,
			Value: export.Int(res.Unknown)})
	}
	rows = append(rows, res.Total.Rows(mcfg)...)
	if res.Schedule != nil {
		rows = append(rows, ScheduleRows(res.Schedule)...)
	}
	for _, st := range stats {
		rows = append(rows, export.Row{Metric: st.Section, Name: st.Name, Value: statValue(st.Value)})
	}
	return append(rows, ClientRows(CheckClient(res, YCSBTerms))...)
}

// ScheduleRows are the text report's SCHEDULE section: the lag behind the
// schedule, then the paced starts split in two (measurement.StartRows).
func ScheduleRows(s *run.Schedule) []export.Row {
	rows := measurement.ScheduleRows(s.Target, s.MeanLagUs, s.MaxLagUs, s.FinalLagUs)
	return append(rows, measurement.StartRows(s.Wake, s.Behind)...)
}

// overallEnd is the index after the last OVERALL row.
func overallEnd(rows []export.Row) int {
	i := 0
	for i < len(rows) && rows[i].Metric == export.Overall {
		i++
	}
	return i
}

// rate is n per second of d, 0 for an empty d.
func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

func statValue(v any) export.Value {
	switch x := v.(type) {
	case int:
		return export.Int(int64(x))
	case int64:
		return export.Int(x)
	case uint64:
		return export.Int(int64(x))
	case float64:
		return export.Float(x)
	}
	return export.Float(math.NaN())
}

func overallRows(elapsed time.Duration, ops int64, gcStart, gcEnd *runtime.MemStats) []export.Row {
	runtimeMs := elapsed.Milliseconds()
	// From the exact elapsed time rather than whole milliseconds, so a short
	// run does not report a rounded (or infinite) rate.
	throughput := float64(ops) / elapsed.Seconds()
	gcs := int64(gcEnd.NumGC - gcStart.NumGC)
	gcMs := int64(gcEnd.PauseTotalNs-gcStart.PauseTotalNs) / 1e6
	gcPct := float64(gcMs) / float64(runtimeMs) * 100
	if runtimeMs == 0 {
		gcPct = 0
	}
	if math.IsNaN(throughput) {
		throughput = 0
	}
	return []export.Row{
		{Metric: export.Overall, Name: export.RunTime, Value: export.Int(runtimeMs)},
		{Metric: export.Overall, Name: export.Throughput, Value: export.Float(throughput)},
		{Metric: "TOTAL_GCs", Name: "Count", Value: export.Int(gcs)},
		{Metric: "TOTAL_GC_TIME", Name: "Time(ms)", Value: export.Int(gcMs)},
		{Metric: "TOTAL_GC_TIME_%", Name: "Time(%)", Value: export.Float(gcPct)},
	}
}
