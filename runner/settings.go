package runner

import (
	"os"
	"time"

	"github.com/goycsb/ycsb/internal/partition"
	"github.com/goycsb/ycsb/props"
)

// settings are the Client-level properties (the reference's Client.java at
// 0.17.0; docs/compatibility.md, "Command line and properties").
type settings struct {
	transactions   bool
	threads        int
	target         int64
	status         bool
	statusInterval time.Duration
	label          string
	maxExecution   time.Duration
	opCount        int64
	exporter       string
	exportFile     string
	spin           bool
	warmup         time.Duration // operations in the first warmup are not measured
	progress       string        // auto, true, false: the live progress line
	promAddr       string        // prometheus.addr: serve /metrics there
	cpuProfile     string        // cpuprofile: write a CPU profile of the run there
	// clients is this client's place among several (client.count): opCount
	// and target are then its shares of the totals given.
	clients   partition.Clients
	startTime time.Time // starttime: wait for it before starting; zero without
}

var workloadClasses = map[string]bool{
	"site.ycsb.workloads.CoreWorkload":      true,
	"com.yahoo.ycsb.workloads.CoreWorkload": true,
	"core":                                  true,
}

// parseSettings reads the Client-level properties; the workload property
// only when the run is to build the CoreWorkload (core).
func parseSettings(p *props.Properties, core bool) (*settings, error) {
	s := &settings{}
	var err error
	if core {
		wl, ok := p.Word("workload")
		if !ok {
			return nil, props.Errorf("workload", "missing: give a workload file with -P (for example -P workloads/workloada) or -p workload=site.ycsb.workloads.CoreWorkload")
		}
		if !workloadClasses[wl] {
			return nil, props.Invalid("workload", wl, "site.ycsb.workloads.CoreWorkload (the only workload class)")
		}
	}
	if s.transactions, err = p.Bool("dotransactions", true); err != nil {
		return nil, err
	}
	if s.threads, err = p.NonNegInt("threadcount", 1); err != nil {
		return nil, err
	}
	if s.threads < 1 {
		return nil, props.Invalid("threadcount", "0", "at least 1")
	}
	if s.threads > maxThreads {
		return nil, props.Errorf("threadcount", "%d is too many: at most %d workers", s.threads, maxThreads)
	}
	if s.clients, err = partition.Parse(p, os.Getenv); err != nil {
		return nil, err
	}
	if s.target, err = p.NonNegInt64("target", 0); err != nil {
		return nil, err
	}
	if s.target, err = clientShare(s.clients, "target", s.target); err != nil {
		return nil, err
	}
	if s.status, err = p.Bool("status", false); err != nil {
		return nil, err
	}
	if s.statusInterval, err = p.Seconds("status.interval", 10, 0.01); err != nil {
		return nil, err
	}
	s.label = p.String("label", "")
	secs, err := p.NonNegInt64("maxexecutiontime", 0)
	if err != nil {
		return nil, err
	}
	s.maxExecution = time.Duration(secs) * time.Second
	if s.transactions {
		s.opCount, err = p.NonNegInt64("operationcount", 0)
	} else if p.Has("insertcount") {
		s.opCount, err = p.NonNegInt64("insertcount", 0)
	} else {
		s.opCount, err = p.NonNegInt64("recordcount", 0)
	}
	if err != nil {
		return nil, err
	}
	if s.transactions {
		if s.opCount, err = clientShare(s.clients, "operationcount", s.opCount); err != nil {
			return nil, err
		}
	} else if s.clients.Split() && !p.Has("insertcount") {
		// The workload refuses insertcount with client.count.
		_, s.opCount = s.clients.Slice(s.opCount)
	}
	if s.startTime, err = parseStartTime(p, time.Now()); err != nil {
		return nil, err
	}
	s.exporter = p.String("exporter", "text")
	if err := checkExporter(s.exporter); err != nil {
		return nil, err
	}
	s.exportFile = p.String("exportfile", "")
	if s.exportFile != "" {
		if err := checkWritable("exportfile", s.exportFile, false); err != nil {
			return nil, err
		}
	}
	s.cpuProfile = p.String("cpuprofile", "")
	if s.cpuProfile != "" {
		if err := checkWritable("cpuprofile", s.cpuProfile, true); err != nil {
			return nil, err
		}
	}

	if s.spin, err = p.Bool("spin.sleep", false); err != nil {
		return nil, err
	}
	if s.warmup, err = p.Seconds("warmup", 0, 0); err != nil {
		return nil, err
	}
	if s.progress, err = p.OneOf("progress", "auto", "auto", "true", "false"); err != nil {
		return nil, err
	}
	if s.progress == "true" && s.status {
		return nil, props.Errorf("progress", "progress=true replaces the status lines of -s (status=true); give one of them")
	}
	s.promAddr = p.String("prometheus.addr", "")
	return s, nil
}
