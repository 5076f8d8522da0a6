// Package prom serves a run's measurements on a Prometheus /metrics
// endpoint (-p prometheus.addr=127.0.0.1:9109).
//
// It is fed from the Collector's interval harvests (Observe), never from the
// workers: recording an operation costs the same with or without it, and the
// exporter's own mutex is taken once per harvest and once per scrape. The
// figures are therefore as fresh as the last harvest (status.interval with
// -s, report.interval otherwise, one second by default).
//
// The text exposition format (version 0.0.4) is written here rather than
// with client_golang: the metrics are a handful of counters and fixed-bucket
// histograms rebuilt from HdrHistograms, which client_golang's types cannot
// take directly (its histograms want one Observe per value), and the format
// is small and stable.
package prom

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
)

// Buckets are the upper bounds of the latency histograms, in seconds.
var Buckets = []float64{
	0.00005, 0.0001, 0.00025, 0.0005,
	0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
	0.1, 0.25, 0.5, 1, 2.5, 5, 10,
}

// Info labels the run (ycsb_run_info) and gives its service level
// objectives (ycsb_slo_limit, from the first scrape on).
type Info struct {
	Binding string
	Phase   string // load or run
	SLO     []slo.Objective
}

type opStatus struct{ op, status string }

type histKey struct {
	op, result string
	intended   bool
}

type hist struct {
	counts []int64 // per bucket, not cumulative; the last is +Inf
	count  int64
	sumSec float64
}

// Exporter holds the cumulative metrics and serves them.
type Exporter struct {
	info Info

	mu        sync.Mutex
	ops       map[opStatus]int64
	overall   int64 // operations as [OVERALL] counts them
	failed    int64 // those of them that failed (the errors objective's)
	hists     map[histKey]*hist
	warmupEnd time.Time // ycsb_warmup is 1 until then
	judgement *slo.Judgement
	// wake and behind are the paced starts (Snapshot.Wake, Behind); nil
	// until a harvest has any.
	wake, behind *hist

	ln  net.Listener
	srv *http.Server
}

// New returns an exporter that is not listening (for tests and Handler).
func New(info Info) *Exporter {
	return &Exporter{info: info, ops: map[opStatus]int64{}, hists: map[histKey]*hist{}}
}

// Listen starts serving /metrics on addr (host:port). The error names
// the address; the caller turns it into a bad-input error.
func Listen(addr string, info Info) (*Exporter, error) {
	e := New(info)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	e.ln = ln
	mux := http.NewServeMux()
	mux.Handle("/metrics", e)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "ycsb: metrics are at /metrics")
	})
	e.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go e.srv.Serve(ln)
	return e, nil
}

// EveryInterface reports whether Listen(addr) serves every network
// interface of the machine: an empty host (net.Listen's "every address")
// or an unspecified address (0.0.0.0, ::, in any spelling).
func EveryInterface(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// Addr returns the address the exporter listens on.
func (e *Exporter) Addr() string {
	if e.ln == nil {
		return ""
	}
	return e.ln.Addr().String()
}

// Close stops serving.
func (e *Exporter) Close() error {
	if e.srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := e.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = e.srv.Close()
	}
	return err
}

// SetWarmupEnd makes ycsb_warmup 1 until t.
func (e *Exporter) SetWarmupEnd(t time.Time) {
	e.mu.Lock()
	e.warmupEnd = t
	e.mu.Unlock()
}

// SetSLO publishes the run's judgement: ycsb_slo_measured and, when the
// run is judged (not one client's share of a fleet), ycsb_slo_passed per
// objective and ycsb_slo_run_passed. It is called once, after the run,
// while /metrics is still served; j is kept, not copied, and must not
// change afterwards. The limits come from Info.SLO, the objectives j
// judged.
func (e *Exporter) SetSLO(j *slo.Judgement) {
	e.mu.Lock()
	e.judgement = j
	e.mu.Unlock()
}

// Label returns an operation's label: read, read-modify-write.
func Label(op string) string { return strings.ToLower(op) }

// result is the latency histogram's result label: ok, failed, or the
// tracked status (error, not_found, ...).
func result(m *measurement.Measurement) string {
	switch m.Kind {
	case measurement.KindOK:
		return "ok"
	case measurement.KindFailed:
		return "failed"
	}
	return strings.ToLower(strings.TrimPrefix(m.Kind.Suffix(), "-"))
}

// Observe adds one interval harvest. It is called by the goroutine that
// ticks the Collector.
func (e *Exporter) Observe(iv *measurement.Snapshot) {
	type add struct {
		k hist
		h histKey
	}
	var adds []add
	for i := range iv.Measurements {
		m := &iv.Measurements[i]
		if m.Hist == nil || m.Hist.TotalCount() == 0 {
			continue
		}
		var h hist
		fill(&h, m.Hist)
		adds = append(adds, add{h, histKey{Label(m.Operation), result(m), m.Intended}})
	}
	var wake, behind hist
	fill(&wake, iv.Wake)
	fill(&behind, iv.Behind)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.wake = addTo(e.wake, &wake)
	e.behind = addTo(e.behind, &behind)
	e.overall += iv.Operations
	e.failed += iv.Failed
	for i := range iv.Measurements {
		m := &iv.Measurements[i]
		for _, rc := range m.Returns {
			e.ops[opStatus{Label(m.Operation), rc.Status.String()}] += rc.Count
		}
	}
	for _, a := range adds {
		e.hists[a.h] = addTo(e.hists[a.h], &a.k)
	}
}

// addTo adds an interval's h to the cumulative sum (nil: none yet) and
// returns the sum; an empty h leaves a nil sum nil.
func addTo(sum, h *hist) *hist {
	if h.count == 0 {
		return sum
	}
	if sum == nil {
		sum = &hist{counts: make([]int64, len(Buckets)+1)}
	}
	for i, n := range h.counts {
		sum.counts[i] += n
	}
	sum.count += h.count
	sum.sumSec += h.sumSec
	return sum
}

// fill sorts an interval's HdrHistogram (µs; nil is empty) into the fixed
// buckets. Each HdrHistogram bucket goes where its lowest equivalent value
// falls; with three significant digits that is within 0.1% of every value
// in it.
func fill(h *hist, hd *hdrhistogram.Histogram) {
	h.counts = make([]int64, len(Buckets)+1)
	if hd == nil {
		return
	}
	for _, b := range hd.Distribution() {
		if b.Count == 0 {
			continue
		}
		sec := float64(b.From) / 1e6
		i, _ := slices.BinarySearch(Buckets, sec)
		h.counts[i] += b.Count
		h.count += b.Count
		mid := b.From + (b.To-b.From+1)>>1
		h.sumSec += float64(mid) * float64(b.Count) / 1e6
	}
}

// ServeHTTP writes the metrics in the text exposition format.
func (e *Exporter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	e.WriteText(&buf)
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Write(buf.Bytes())
}

// WriteText writes the metrics in the text exposition format.
func (e *Exporter) WriteText(b *bytes.Buffer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	family(b, "ycsb_run_info", "gauge", "The binding and phase of the run; always 1.")
	fmt.Fprintf(b, "ycsb_run_info{binding=%s,phase=%s} 1\n", quote(e.info.Binding), quote(e.info.Phase))
	family(b, "ycsb_warmup", "gauge", "1 while warm-up operations run (they are not counted), else 0.")
	fmt.Fprintf(b, "ycsb_warmup %d\n", map[bool]int{false: 0, true: 1}[time.Now().Before(e.warmupEnd)])

	family(b, "ycsb_overall_operations_total", "counter", "Operations completed as [OVERALL] counts them: one per transaction or insert, a read-modify-write is one.")
	fmt.Fprintf(b, "ycsb_overall_operations_total %d\n", e.overall)
	family(b, "ycsb_overall_failed_operations_total", "counter", "Of the [OVERALL] operations, those that failed (the report's failed_operations, the errors objective's): a transaction with a failed call, an insert that did not go in.")
	fmt.Fprintf(b, "ycsb_overall_failed_operations_total %d\n", e.failed)
	family(b, "ycsb_operations_total", "counter", "Database calls completed (and data-integrity checks), by operation and return status: a read-modify-write is a read and an update.")
	keys := make([]opStatus, 0, len(e.ops))
	for k := range e.ops {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b opStatus) int {
		return strings.Compare(a.op+"\x00"+a.status, b.op+"\x00"+b.status)
	})
	for _, k := range keys {
		fmt.Fprintf(b, "ycsb_operations_total{operation=%s,status=%s} %d\n", quote(k.op), quote(k.status), e.ops[k])
	}

	for _, intended := range []bool{false, true} {
		name, help := "ycsb_operation_latency_seconds", "Latency of database operations (service time), by operation and result."
		if intended {
			name, help = "ycsb_operation_intended_latency_seconds", "Latency from the intended start time of the -target schedule, by operation and result."
		}
		var hk []histKey
		for k := range e.hists {
			if k.intended == intended {
				hk = append(hk, k)
			}
		}
		if len(hk) == 0 && intended {
			continue
		}
		slices.SortFunc(hk, func(a, b histKey) int {
			return strings.Compare(a.op+"\x00"+a.result, b.op+"\x00"+b.result)
		})
		family(b, name, "histogram", help)
		for _, k := range hk {
			writeHist(b, name, "operation="+quote(k.op)+",result="+quote(k.result), e.hists[k])
		}
	}
	if e.wake != nil {
		family(b, "ycsb_schedule_wake_lateness_seconds", "histogram", "With -target: how late the workers woke for the operations they had time to wait for (actual start less due time), the client's own timing error.")
		writeHist(b, "ycsb_schedule_wake_lateness_seconds", "", e.wake)
	}
	if e.behind != nil {
		family(b, "ycsb_schedule_late_start_seconds", "histogram", "With -target: how far behind its due time each operation started that the worker had no time to wait for, the lag a slow database causes.")
		writeHist(b, "ycsb_schedule_late_start_seconds", "", e.behind)
	}
	e.writeSLO(b)
}

// writeHist writes one histogram's series; labels are its own ("" for
// none), le added to them.
func writeHist(b *bytes.Buffer, name, labels string, h *hist) {
	sep := ""
	if labels != "" {
		sep = ","
	}
	var cum int64
	for i, le := range Buckets {
		cum += h.counts[i]
		fmt.Fprintf(b, "%s_bucket{%s%sle=\"%s\"} %d\n", name, labels, sep, strconv.FormatFloat(le, 'g', -1, 64), cum)
	}
	fmt.Fprintf(b, "%s_bucket{%s%sle=\"+Inf\"} %d\n", name, labels, sep, h.count)
	if labels != "" {
		labels = "{" + labels + "}"
	}
	fmt.Fprintf(b, "%s_sum%s %s\n", name, labels, strconv.FormatFloat(h.sumSec, 'g', -1, 64))
	fmt.Fprintf(b, "%s_count%s %d\n", name, labels, h.count)
}

// writeSLO writes the objectives' limits and, once judged, what the run
// measured for them. Latencies are in seconds, an error rate is a ratio,
// a throughput operations per second.
func (e *Exporter) writeSLO(b *bytes.Buffer) {
	j := e.judgement
	objs := e.info.SLO
	if len(objs) > 0 {
		family(b, "ycsb_slo_limit", "gauge", "The limit of each service level objective (-p slo): seconds for a latency, a ratio for the error rate, operations per second for the throughput.")
		for _, o := range objs {
			fmt.Fprintf(b, "ycsb_slo_limit{%s} %s\n", sloLabels(&o), float(inUnit(&o, o.Limit)))
		}
	}
	if j == nil {
		return
	}
	family(b, "ycsb_slo_measured", "gauge", "What the run measured for each objective, in the unit of ycsb_slo_limit; absent when it measured nothing the objective reads.")
	for _, r := range j.Results {
		if r.Verdict != slo.NoData {
			fmt.Fprintf(b, "ycsb_slo_measured{%s} %s\n", sloLabels(&r.Objective), float(inUnit(&r.Objective, r.Measured)))
		}
	}
	if !j.Judged() {
		return // one client's share: ycsb merge judges the fleet
	}
	family(b, "ycsb_slo_passed", "gauge", "1 if the run met the objective, 0 if not (failed, or nothing measured).")
	for _, r := range j.Results {
		fmt.Fprintf(b, "ycsb_slo_passed{%s} %d\n", sloLabels(&r.Objective), boolInt(r.Verdict == slo.Pass))
	}
	family(b, "ycsb_slo_run_passed", "gauge", "1 if the run met every objective, else 0.")
	fmt.Fprintf(b, "ycsb_slo_run_passed %d\n", boolInt(j.Passed()))
}

// sloLabels are an objective's labels: its text as written, the operation
// (as the other metrics write it; none for errors and throughput), the
// statistic as the JSON report names it and the unit of the values.
func sloLabels(o *slo.Objective) string {
	l := "objective=" + quote(o.Text)
	if o.Op != "" {
		l += ",operation=" + quote(Label(o.Op))
	}
	st, unit := statUnit(o)
	return l + ",statistic=" + quote(st) + ",comparison=" + quote(o.Cmp.String()) + ",unit=" + quote(unit)
}

func statUnit(o *slo.Objective) (stat, unit string) {
	switch o.Stat {
	case slo.Percentile:
		return "p" + strconv.FormatFloat(o.Percentile, 'f', -1, 64), "seconds"
	case slo.Mean:
		return "mean", "seconds"
	case slo.Max:
		return "max", "seconds"
	case slo.ErrorRate:
		return "errors", "ratio"
	}
	return "throughput", "ops_per_second"
}

// inUnit converts an objective's figure (µs for a latency) to its
// metric's unit (seconds).
func inUnit(o *slo.Objective, v float64) float64 {
	switch o.Stat {
	case slo.ErrorRate, slo.Throughput:
		return v
	}
	return v / 1e6
}

func float(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func family(b *bytes.Buffer, name, typ, help string) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
}

// quote writes a label value with the format's escapes (\\, \", \n).
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
