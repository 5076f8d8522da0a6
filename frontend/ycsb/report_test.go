package ycsb

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/hostcpu"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run"
)

// TestJSONReportGolden builds the JSON report from fixed measurements,
// intervals and rows.
func TestJSONReportGolden(t *testing.T) {
	p := props.FromMap(map[string]string{
		"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "1000", "operationcount": "600",
		"readproportion": "0.5", "updateproportion": "0.5", "exporter": "jsonreport",
		"postgres.password": "hunter2", "db.passwd": "s3cret", "measurement.interval": "both",
	})
	s, err := parseSettings(p)
	if err != nil {
		t.Fatal(err)
	}
	mcfg, err := measurement.ParseConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	c := measurement.NewCollector(mcfg, measurement.YCSB)
	rec := c.NewRecorder()
	for i := int64(1); i <= 300; i++ {
		rec.Done(measurement.Read, db.OK, 0, i*3000, 0)
		st := db.OK
		if i%100 == 0 {
			st = db.Error
		}
		rec.Done(measurement.Update, st, 0, i*5000, i*1000)
	}
	rec.Measure(measurement.Cleanup, 0, 7000, 0)
	c.Tick()
	intervals := []jsonreport.Interval{
		{StartMs: 0, EndMs: 1000, Ops: 350, ByOp: map[string]int64{"READ": 170, "UPDATE": 180}},
		{StartMs: 1000, EndMs: 1712, Ops: 250, ByOp: map[string]int64{"READ": 130, "UPDATE": 120}},
	}
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	end := start.Add(1712 * time.Millisecond)
	rows := []export.Row{
		{Metric: "OVERALL", Name: "RunTime(ms)", Value: export.Int(1712)},
		{Metric: "OVERALL", Name: "Throughput(ops/sec)", Value: export.Float(350.46728971962617)},
	}
	rows = append(rows, c.Total().Rows(mcfg)...)
	sched := &run.Schedule{Target: 400, MeanLagUs: 12.5, MaxLagUs: 900, FinalLagUs: 0}
	rows = append(rows, report.ScheduleRows(sched)...)
	m := &run.Result{Start: start, End: end, Ops: 600, Succeeded: 597, Total: c.Total(), Schedule: sched,
		Client: run.Client{Workers: 4, Target: 400, CPU: hostcpu.Usage{Wall: 1712 * time.Millisecond,
			Cores: 2, CoresKnown: true, CPU: 0.25, CPUKnown: true, Wait: 0.01, WaitKnown: true}}}
	run := &report.Run{Binding: "basic", Load: !s.transactions, Settings: p.Map(), Clients: s.clients, StartTime: s.startTime}
	rep, err := report.JSON(run, mcfg, m, rows, intervals)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	if bytes.Contains(got, []byte("hunter2")) || bytes.Contains(got, []byte("s3cret")) {
		t.Error("a password reached the report")
	}
	if !json.Valid(got) {
		t.Error("not valid JSON")
	}
	back, err := jsonreport.Read(got)
	if err != nil {
		t.Fatalf("the report does not read back: %v", err)
	}
	if back.Schedule == nil || back.Schedule.MaxLagUs != 900 || len(back.Sections) != len(rows) {
		t.Errorf("read back: schedule %+v, %d sections", back.Schedule, len(back.Sections))
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "report.json.golden"), got)
}

func TestCheckExporter(t *testing.T) {
	for _, name := range []string{"text", "json", "jsonarray", "jsonreport", "site.ycsb.measurements.exporter.TextMeasurementsExporter"} {
		if err := checkExporter(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := checkExporter("xml"); err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), "jsonreport") {
		t.Errorf("xml: %v", err)
	}
}
