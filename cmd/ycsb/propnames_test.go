package main

import (
	"strings"
	"testing"
)

// TestBadPropertyNamesItself: a value out of range (a duration that would
// overflow int64 nanoseconds, a fraction above 1, a NaN percentile) is one
// line on stderr naming the property the user typed, exit 2, before anything
// runs or is created. Durations used to wrap around silently (291 ms for
// maxexecutiontime=18446744074) and some values were blamed on another
// property.
func TestBadPropertyNamesItself(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	bin, wl := binaryAndWorkload(t)
	basic := func(phase string, ps ...string) []string {
		args := []string{phase, "basic", "-P", wl, "-p", "recordcount=10", "-p", "operationcount=10"}
		for _, p := range ps {
			args = append(args, "-p", p)
		}
		return args
	}
	cases := []struct {
		args []string
		want string
	}{
		// Durations (item 7 of issue 24).
		{basic("run", "maxexecutiontime=18446744074"), "maxexecutiontime"},
		{basic("load", "maxexecutiontime=-1"), "maxexecutiontime"},
		{basic("run", "basicdb.simulatedelay=9300000000000"), "basicdb.simulatedelay"},
		{basic("run", "warmup=1e12"), "warmup"},
		{basic("run", "status.interval=1e12"), "status.interval"},
		{basic("run", "report.interval=1e12"), "report.interval"},
		{basic("load", "core_workload_insertion_retry_interval=18446744074"), "core_workload_insertion_retry_interval"},
		{basic("run", "measurementtype=timeseries", "timeseries.granularity=18446744073710"), "timeseries.granularity"},
		{basic("run", "hdrhistogram.highestlatency=9223372036854775807"), "hdrhistogram.highestlatency"},
		{[]string{"run", "cassandra-cql", "-P", wl, "-p", "hosts=127.0.0.1", "-p", "cassandra.readtimeoutmillis=18446744073710"}, "cassandra.readtimeoutmillis"},
		{[]string{"run", "cassandra-cql", "-P", wl, "-p", "hosts=127.0.0.1", "-p", "cassandra.connecttimeoutmillis=18446744073710"}, "cassandra.connecttimeoutmillis"},
		{[]string{"run", "cassandra-cql", "-P", wl, "-p", "hosts=127.0.0.1", "-p", "cassandra.reconnectintervalmillis=18446744073710"}, "cassandra.reconnectintervalmillis"},
		{[]string{"run", "cassandra-cql", "-P", wl, "-p", "hosts=127.0.0.1", "-p", "cassandra.writecoalescemicros=1000001"}, "cassandra.writecoalescemicros"},
		{[]string{"run", "postgresql", "-P", wl, "-p", "db.url=postgres://127.0.0.1:1/x", "-p", "db.timeout=1e12"}, "db.timeout"},
		// Values blamed on another property, or not checked (item 11).
		{basic("run", "requestdistribution=hotspot", "hotspotopnfraction=2"), "hotspotopnfraction"},
		{basic("run", "requestdistribution=hotspot", "hotspotdatafraction=-1"), "hotspotdatafraction"},
		{basic("run", "hdrhistogram.percentiles=NaN"), "hdrhistogram.percentiles"},
		{basic("run", "hdrhistogram.percentiles=50,Inf"), "hdrhistogram.percentiles"},
		{basic("run", "readproportion=1e308", "updateproportion=1e308"), "updateproportion"},
		{basic("run", "requestdistribution=exponential", "exponential.frac=1e308"), "exponential.frac"},
		{basic("run", "requestdistribution=exponential", "exponential.percentile=1e-300"), "exponential.percentile"},
	}
	for _, c := range cases {
		name := c.args[len(c.args)-1]
		t.Run(name, func(t *testing.T) {
			msg := wantBadInput(t, bin, c.args...)
			if !strings.HasPrefix(msg, "ycsb: "+c.want+":") && !strings.Contains(msg, " "+c.want+":") {
				t.Errorf("stderr does not name %s:\n%s", c.want, msg)
			}
		})
	}
}
