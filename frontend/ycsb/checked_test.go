package ycsb

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/merge"
)

// TestRealReportsPassTheChecker: every report a real run writes passes
// the checks merge, compare and report --html read it with: loads and
// runs of every workload of workloads/, paced with a warm-up and intended
// latency, every measurement type, failures tracked by status, a load
// whose inserts are retried, a run stopped by its time limit and one
// cancelled, a capacity search, a closed economy, and the merges of
// clients' reports.
func TestRealReportsPassTheChecker(t *testing.T) {
	clear(read)
	dir := t.TempDir()
	basic, _, _ := db.Lookup("basic")
	type run struct {
		name     string
		workload string // a file of workloads/, or none
		extra    map[string]string
		driver   db.Driver     // basic when nil
		timeout  time.Duration // cancelled after it: the report is written all the same
		wantErr  bool
	}
	fast := map[string]string{"recordcount": "300", "operationcount": "600", "threadcount": "4", "report.interval": "0.05"}
	runs := []run{{name: "load-a", workload: "workloada", extra: map[string]string{"dotransactions": "false"}}}
	for _, w := range []string{"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"} {
		runs = append(runs, run{name: "run-" + w, workload: w, extra: map[string]string{"dotransactions": "true"}})
	}
	runs = append(runs,
		run{name: "paced", workload: "workloadf", extra: map[string]string{"dotransactions": "true", "target": "3000", "warmup": "0.1",
			"measurement.interval": "both", "dataintegrity": "true", "operationcount": "900"}},
		run{name: "intended-only", workload: "workloadf", extra: map[string]string{"dotransactions": "true", "target": "4000",
			"measurement.interval": "intended", "dataintegrity": "true"}},
		run{name: "histogram", workload: "workloada", extra: map[string]string{"dotransactions": "true", "measurementtype": "histogram"}},
		run{name: "timeseries", workload: "workloade", extra: map[string]string{"dotransactions": "true", "measurementtype": "timeseries"}},
		run{name: "raw", workload: "workloadb", extra: map[string]string{"dotransactions": "true", "measurementtype": "raw"}},
		run{name: "time-limit", workload: "workloada", extra: map[string]string{"dotransactions": "true", "operationcount": "0",
			"maxexecutiontime": "1", "basicdb.simulatedelay": "1", "basicdb.randomizedelay": "false"}},
		run{name: "cancelled", workload: "workloada", extra: map[string]string{"dotransactions": "true", "operationcount": "1000000",
			"basicdb.simulatedelay": "1"}, timeout: 700 * time.Millisecond},
		run{name: "failures", extra: map[string]string{"dotransactions": "true", "readproportion": "0.5", "updateproportion": "0.5",
			"latencytrackederrors": "ERROR"},
			driver: &testDriver{readErr: func(key string) error {
				switch {
				case strings.HasSuffix(key, "1"):
					return errDuplicate
				case strings.HasSuffix(key, "2"):
					return db.ErrNotFound
				}
				return nil
			}}},
		run{name: "failures-each", extra: map[string]string{"dotransactions": "true", "readproportion": "1", "updateproportion": "0",
			"reportlatencyforeacherror": "true"},
			driver: &testDriver{readErr: func(key string) error {
				if strings.HasSuffix(key, "3") {
					return db.ErrNotFound
				}
				return nil
			}}},
		run{name: "load-retried", extra: map[string]string{"dotransactions": "false", "core_workload_insertion_retry_limit": "3",
			"core_workload_insertion_retry_interval": "0"},
			driver: &testDriver{failInserts: func(n int64) bool { return n%5 == 0 }}},
		run{name: "load-failed", extra: map[string]string{"dotransactions": "false", "core_workload_insertion_retry_limit": "0"},
			driver: &testDriver{failInserts: func(n int64) bool { return n%50 == 0 }}, wantErr: true},
	)
	for _, rn := range runs {
		m := map[string]string{"workload": "site.ycsb.workloads.CoreWorkload"}
		if rn.workload != "" {
			p, _, err := props.LoadFileText(context.Background(), filepath.Join("..", "..", "workloads", rn.workload))
			if err != nil {
				t.Fatal(err)
			}
			m = p.Map()
		}
		maps.Copy(m, fast)
		maps.Copy(m, rn.extra)
		path := filepath.Join(dir, rn.name+".json")
		m["report.json"] = path
		d, binding := rn.driver, "test"
		if d == nil {
			d, binding = basic, "basic"
		}
		ctx := context.Background()
		if rn.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, rn.timeout)
			defer cancel()
		}
		var stdout, stderr syncBuffer
		err := Run(ctx, Options{Props: props.FromMap(m), Driver: d, Binding: binding, Stdout: &stdout, Stderr: &stderr})
		if (err != nil) != rn.wantErr {
			t.Fatalf("%s: %v\n%s", rn.name, err, stderr.String())
		}
		checkRead(t, rn.name, path)
	}

	// A capacity search.
	capPath := filepath.Join(dir, "capacity.json")
	if _, stderr, err := capacityBasic(t, map[string]string{"threadcount": "4", "capacity.maxthreads": "4", "capacity.steps": "3",
		"measurement.interval": "both", "report.json": capPath}); err != nil && !strings.Contains(err.Error(), "capacity") {
		t.Fatalf("capacity: %v\n%s", err, stderr)
	}
	checkRead(t, "capacity", capPath)

	// A closed economy's load and run.
	econ := &economyDriver{mem: dbtest.NewMemory()}
	for _, load := range []bool{true, false} {
		path := filepath.Join(dir, fmt.Sprintf("economy-%v.json", load))
		m := map[string]string{"workload": "closedeconomy", "recordcount": "5", "totalcash": "5000", "operationcount": "400",
			"readproportion": "0.2", "readmodifywriteproportion": "0.8", "threadcount": "4", "dotransactions": strconv.FormatBool(!load),
			"report.json": path}
		var stdout, stderr syncBuffer
		if err := Run(context.Background(), Options{Props: props.FromMap(m), Driver: econ, Binding: "test", Stdout: &stdout, Stderr: &stderr}); err != nil {
			t.Fatalf("economy (load %v): %v\n%s", load, err, stderr.String())
		}
		checkRead(t, "economy", path)
	}

	for _, f := range []string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "VERIFY", "CLEANUP", "Intended-READ",
		"READ-FAILED", "READ-ERROR", "READ-NOT_FOUND", "INSERT-FAILED", "phase load", "phase run", "phase capacity",
		"schedule", "capacity", "validation", "warmup", "failed", "interval latency"} {
		if !read[f] {
			t.Errorf("no report read held %s", f)
		}
	}

	// Clients' reports of one run, merged as ycsb merge merges them, and
	// read back.
	for _, phase := range []string{"false", "true"} {
		paths := make([]string, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i := range paths {
			paths[i] = filepath.Join(dir, fmt.Sprintf("client-%s-%d.json", phase, i))
			m := map[string]string{"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "400", "operationcount": "400",
				"readproportion": "0.5", "updateproportion": "0.5", "threadcount": "2", "dotransactions": phase,
				"client.count": "2", "client.index": strconv.Itoa(i), "target": "1000", "report.interval": "0.1", "report.json": paths[i]}
			wg.Go(func() {
				var stdout, stderr syncBuffer
				errs[i] = Run(context.Background(), Options{Props: props.FromMap(m), Driver: basic, Binding: "basic", Stdout: &stdout, Stderr: &stderr})
			})
		}
		wg.Wait()
		var reps []*jsonreport.Report
		for i, p := range paths {
			if errs[i] != nil {
				t.Fatalf("client %d: %v", i, errs[i])
			}
			reps = append(reps, checkRead(t, "client", p))
		}
		merged, err := merge.Merge(paths, reps)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := jsonreport.Write(&buf, merged); err != nil {
			t.Fatal(err)
		}
		if _, err := jsonreport.Read(buf.Bytes()); err != nil {
			t.Errorf("the merge of %v: %v", paths, err)
		}
	}
}

// read are the features of the reports checkRead read: measurement names
// and what else a report may hold.
var read = map[string]bool{}

// checkRead reads a report as merge and compare do, failing the test with
// what the checker says of it.
func checkRead(t *testing.T, name, path string) *jsonreport.Report {
	t.Helper()
	r, err := merge.ReadReport(path)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, m := range r.Measurements {
		read[m.Name] = true
	}
	read["phase "+r.Phase] = true
	read["schedule"] = read["schedule"] || r.Schedule != nil && (r.Schedule.Wake != nil || r.Schedule.Behind != nil)
	read["capacity"] = read["capacity"] || r.Capacity != nil && len(r.Capacity.Steps) > 0
	read["validation"] = read["validation"] || r.Validation != nil
	read["warmup"] = read["warmup"] || r.WarmupMs > 0
	read["failed"] = read["failed"] || r.Failed != nil && *r.Failed > 0
	read["interval latency"] = read["interval latency"] || len(r.Intervals) > 0 && r.Intervals[0].Latency != nil
	return r
}
