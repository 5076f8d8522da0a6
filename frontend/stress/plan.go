package stress

import (
	"io"
	"time"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/run"
	ycsbworkload "github.com/goycsb/ycsb/workload"
)

// summariser is a run's metrics: the engine's interval output, and the
// Results block at the end.
type summariser interface {
	run.Output
	Summarise(w io.Writer)
	Ops() *measurement.Ops // the run's operations, the metrics' rows
}

// plan is the engine's plan for one run of wl on threads workers: count
// operations (0: until the workload or duration= stops it), at -rate's
// target unless it is a warm-up, with an interval line every -log
// interval=. The workers' sessions are the connection's (db/cassandra's
// Conn), whose CQL the stress workloads run their statements on.
func (r *stressRun) plan(wl ycsbworkload.Workload, threads int, count int64, warmup bool) *run.Plan {
	s := r.s
	rated := (s.Rate.OpsPerSecond > 0 || r.step != nil) && !warmup
	p := &run.Plan{
		Threads:     threads,
		Sessions:    r.conn.Sessions(threads),
		OpCount:     max(count, 0),
		Interval:    s.Log.Interval,
		Workload:    wl,
		Measurement: measurementConfig(rated),
		Seed:        uint64(time.Now().UnixNano()),
		// Every stress operation waits on a node.
		AdaptProcs: true,
	}
	if rated {
		p.Target = int64(s.Rate.OpsPerSecond)
	}
	if st := r.step; st != nil && !warmup {
		// A capacity step: its rate, its warm-up, its time.
		p.Target, p.Warmup, p.TimeLimit = st.rate, capacityWarmup, capacityWarmup+st.dur
	}
	return p
}

// measurementConfig is how a stress run is measured: HDR histograms, with
// the defaults of the YCSB measurement properties (measurement.ParseConfig);
// under a rate both the service time and the time from the intended
// start, which fixed= shows, as the original's TimingInterval does.
func measurementConfig(rated bool) *measurement.Config {
	c := &measurement.Config{
		Type:             measurement.HdrHistogram,
		Percentiles:      measurement.DefaultPercentiles,
		HighestLatencyUs: int64(time.Hour / time.Microsecond),
		Buckets:          1000,
		GranularityMs:    int64(time.Second / time.Millisecond),
	}
	if rated {
		c.Interval = measurement.IntervalBoth
	}
	return c
}

// startHook calls fn as the run starts.
type startHook func()

func (startHook) AddInterval(int64, int64, *measurement.Snapshot) {}
func (h startHook) StartRun(time.Time, int64)                     { h() }
