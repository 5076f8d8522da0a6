package ycsb

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/workload"
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
	progress       progressMode  // the live progress line
	promAddr       string        // prometheus.addr: serve /metrics there
	promLinger     time.Duration // prometheus.linger: keep serving it after the report
	cpuProfile     string        // cpuprofile: write a CPU profile of the run there
	// clients is this client's place among several (client.count): opCount
	// and target are then its shares of the totals given.
	clients   partition.Clients
	startTime time.Time    // starttime: wait for it before starting; zero without
	meet      meetSettings // client.rendezvous: meet the others, then start
	// objectives are slo: the run is judged against them (exit code 3);
	// sloAbort stops it once one has failed beyond doubt.
	objectives []slo.Objective
	sloAbort   bool
}

// progressMode is progress: the live progress line on a terminal (auto),
// always (on), or never (off).
type progressMode string

const (
	progressAuto progressMode = "auto"
	progressOn   progressMode = "true"
	progressOff  progressMode = "false"
)

// parseSettings reads the Client-level properties. The first bad value is
// the one reported, in the order below.
func parseSettings(p *props.Properties) (*settings, error) {
	return parseSettingsOn(p, true, time.Now())
}

// parseSettingsOn is parseSettings; local says that the run is on this
// machine, whose output paths are then checked, and starttime must be
// ahead of now.
func parseSettingsOn(p *props.Properties, local bool, now time.Time) (*settings, error) {
	if err := checkWorkloadClass(p); err != nil {
		return nil, err
	}
	s := &settings{}
	r := props.NewReader(p)
	s.parseWork(r, p, now)
	s.parseOutputs(r, local)
	if err := r.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// checkWorkloadClass refuses a missing workload or any but the registered
// ones (workload.Kinds).
func checkWorkloadClass(p *props.Properties) error {
	_, err := workload.ParseKind(p)
	return err
}

// parseWork reads how much work this client does, with how many workers,
// how fast and when: this client's share when client.count splits the work.
func (s *settings) parseWork(r *props.Reader, p *props.Properties, now time.Time) {
	s.transactions = r.Bool("dotransactions", true)
	s.threads = r.Int("threadcount", 1, props.NonNegative, props.Range("at least 1", func(n int64) bool { return n >= 1 }))
	if s.threads > maxThreads {
		r.Errorf("threadcount", "%d is too many: at most %d workers", s.threads, maxThreads)
	}
	if r.Err() == nil {
		var err error
		s.clients, err = parseClients(p, os.Getenv)
		r.Fail(err)
	}
	s.target = share(r, s.clients, "target", r.Int64("target", 0, props.NonNegative))
	s.maxExecution = r.Duration("maxexecutiontime", time.Second, 0, 0, props.MaxDuration)
	switch {
	case s.transactions:
		s.opCount = share(r, s.clients, "operationcount", r.Int64("operationcount", 0, props.NonNegative))
	case r.Has("insertcount"):
		s.opCount = r.Int64("insertcount", 0, props.NonNegative)
	default:
		s.opCount = r.Int64("recordcount", 0, props.NonNegative)
		if s.clients.Split() {
			// The workload refuses insertcount with client.count.
			_, s.opCount = s.clients.Slice(s.opCount)
		}
	}
	if r.Err() == nil {
		var err error
		s.startTime, err = parseStartTime(p, now)
		r.Fail(err)
	}
	if r.Err() == nil {
		s.meet = parseRendezvous(r, s.clients)
	}
	s.spin = r.Bool("spin.sleep", false)
	s.warmup = r.Seconds("warmup", 0, 0)
}

// parseOutputs reads where the report, the status lines and the other
// outputs go, and, when the run is local, checks that every output path
// can be written (nothing is created yet).
func (s *settings) parseOutputs(r *props.Reader, local bool) {
	s.status = r.Bool("status", false)
	s.statusInterval = r.Seconds("status.interval", 10, 0.01)
	s.label = r.String("label", "")
	s.exporter = r.String("exporter", "text")
	s.exportFile = r.String("exportfile", "")
	s.cpuProfile = r.String("cpuprofile", "")
	if r.Err() == nil {
		r.Fail(checkExporter(s.exporter))
	}
	if r.Err() == nil && s.exportFile != "" && local {
		r.Fail(checkWritable("exportfile", s.exportFile, false))
	}
	if r.Err() == nil && s.cpuProfile != "" && local {
		r.Fail(checkWritable("cpuprofile", s.cpuProfile, true))
	}
	s.progress = props.OneOf(r, "progress", progressAuto, progressAuto, progressOn, progressOff)
	if s.progress == progressOn && s.status {
		r.Errorf("progress", "progress=true replaces the status lines of -s (status=true); give one of them")
	}
	s.promAddr = r.String("prometheus.addr", "")
	s.promLinger = r.Duration("prometheus.linger", time.Second, 0, 0, time.Hour)
	if r.Err() == nil && s.promLinger > 0 && s.promAddr == "" {
		r.Errorf("prometheus.linger", "needs prometheus.addr, the address /metrics is served at")
	}
	if r.Err() == nil && r.Has("slo") {
		objs, err := slo.Parse(r.String("slo", ""))
		if err != nil {
			r.Errorf("slo", "%v", err)
		}
		s.objectives = objs
	}
	s.sloAbort = r.Bool("slo.abort", false)
	if r.Err() == nil && s.sloAbort && s.objectives == nil {
		r.Errorf("slo.abort", "needs objectives to judge (slo, e.g. -p slo=READ.p99<=5ms)")
	}
	if r.Err() == nil && s.sloAbort && s.clients.Split() {
		r.Errorf("slo.abort", "one client of a fleet (client.count=%d) cannot tell that the fleet's objectives failed: ycsb merge judges them after the run", s.clients.Count)
	}
}

// share is a client's share of a total (clientShare), read through r.
func share(r *props.Reader, cl partition.Clients, name string, total int64) int64 {
	if r.Err() != nil {
		return total
	}
	n, err := clientShare(cl, name, total)
	r.Fail(err)
	return n
}

// maxThreads bounds threadcount before any worker is built: each holds its
// session, recorders and buffers, and far more than this would exhaust memory
// instead of failing with a message. A report's thread counts are read
// back against the same bound.
const maxThreads = jsonreport.MaxThreads

// parseClients reads client.count and client.index. getenv looks up partition.IndexEnv for
// client.index=auto (os.Getenv). Every mistake is one error naming the
// property.
func parseClients(p *props.Properties, getenv func(string) string) (partition.Clients, error) {
	r := props.NewReader(p)
	count := r.Int("client.count", 0, props.Range(fmt.Sprintf("an integer from 1 to %d", partition.MaxCount),
		func(n int64) bool { return n >= 1 && n <= partition.MaxCount }))
	if err := r.Err(); err != nil {
		return partition.Clients{}, err
	}
	raw, hasIndex := p.Word("client.index")
	switch {
	case count == 0 && hasIndex:
		return partition.Clients{}, props.Errorf("client.index", "needs client.count, the number of clients the work is split among")
	case count == 0:
		return partition.Clients{}, nil
	case !hasIndex:
		return partition.Clients{}, props.Errorf("client.index", "missing: client.count=%d needs each client's index, 0 to %d (or auto, from %s)", count, count-1, partition.IndexEnv)
	}
	from := ""
	if raw == "auto" {
		raw = strings.TrimSpace(getenv(partition.IndexEnv))
		if raw == "" {
			return partition.Clients{}, props.Errorf("client.index", "auto, but %s is not set (a Kubernetes Indexed Job sets it): give the index, 0 to %d", partition.IndexEnv, count-1)
		}
		from = "auto: " + partition.IndexEnv + " is "
	}
	i, err := strconv.Atoi(raw)
	if err != nil || i < 0 || i >= count {
		return partition.Clients{}, props.Errorf("client.index", "%s%q, but client.count=%d takes an index from 0 to %d", from, raw, count, count-1)
	}
	return partition.Clients{Count: count, Index: i}, nil
}
