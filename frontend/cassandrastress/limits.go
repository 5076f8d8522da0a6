package stress

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/frontend/cassandrastress/settings"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
	"github.com/goycsb/ycsb/workload/cassandrastress/profile"
)

// The checks of what a run would generate against the bounds of
// frontend/cassandrastress/settings/limits.go that need more than one option, or a
// profile's table: before anything is created, one line and exit 2.

// maxRowBytes is the most bytes of a predefined command's row: its key
// and every cell at its largest.
func maxRowBytes(s *settings.Settings) int64 {
	return int64(s.Command.KeySize) + s.Columns.Count.Max*max(s.Columns.Size.Min, s.Columns.Size.Max)
}

// predefinedMemory refuses a predefined command whose workers would hold
// more than this machine's memory: each its row and the frame that carries
// it.
func (r *stressRun) predefinedMemory() error {
	s := r.s
	return r.checkMemory(2*float64(maxRowBytes(s)), "rows of up to "+bytesText(float64(maxRowBytes(s)))+" ("+
		s.Option("-col", "n=", s.Columns.Count.String())+", "+s.Option("-col", "size=", s.Columns.Size.String())+", "+
		s.Option(s.Command.Type.String(), "keysize=", strconv.Itoa(s.Command.KeySize))+")", "their row and the frame that carries it")
}

// runThreads is the most workers the run (or its warm-up) has at once
// that it surely reaches, and how the command line says so: threads=, or
// for a ramp its first step (with auto it may stop there) or its last
// (without), and the warm-up's (at most 100).
func (r *stressRun) runThreads() (int, string) {
	s := r.s
	opt := func(name string, n int, what string) string {
		if w := s.Typed("-rate", name); w != "" {
			return "-rate " + w
		}
		return "the default " + name + strconv.Itoa(n) + what
	}
	n, desc := s.Rate.Threads, opt("threads=", s.Rate.Threads, "")
	switch {
	case s.Rate.Ramp() && s.Rate.Auto:
		n, desc = s.Rate.MinThreads, opt("threads>=", s.Rate.MinThreads, ", the ramp's first step")
	case s.Rate.Ramp():
		n, desc = s.Rate.MaxThreads, opt("threads<=", s.Rate.MaxThreads, ", the ramp's last step")
	}
	if it, w := r.warmupSize(); !s.Command.NoWarmup && it > 0 && w > n {
		n, desc = w, fmt.Sprintf("the warm-up's %d threads", w)
	}
	return n, desc
}

// checkMemory refuses a run whose workers would each hold perWorker bytes
// (what, why) and all together more than this machine's memory.
func (r *stressRun) checkMemory(perWorker float64, what, why string) error {
	mem := machineMemory()
	threads, desc := r.runThreads()
	if mem <= 0 || float64(threads)*perWorker <= float64(mem) {
		return nil
	}
	return bad("%s: %d workers (%s) of up to %s each (%s) need %s, more than this machine's memory (%s): give fewer threads or smaller sizes",
		what, threads, desc, bytesText(perWorker), why, bytesText(float64(threads)*perWorker), bytesText(float64(mem)))
}

// machineMemory is the memory this process may use: the machine's, or
// the Go memory limit (GOMEMLIMIT) when lower; 0 if not known.
func machineMemory() int64 {
	mem := physicalMemory()
	if lim := debug.SetMemoryLimit(-1); lim > 0 && lim < math.MaxInt64 && (mem == 0 || lim < mem) {
		mem = lim
	}
	return mem
}

// bytesText is n bytes for a message: B, KiB, MiB, GiB or TiB.
func bytesText(n float64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if i == 0 {
		return strconv.FormatFloat(n, 'f', 0, 64) + " bytes"
	}
	return strconv.FormatFloat(n, 'f', 1, 64) + " " + units[i]
}

// userLimits checks one profile's partitions, inserts and validate reads
// against the bounds, its table's columns being known (from
// table_definition or from the node), and returns what a worker holds
// for it at most.
func (r *stressRun) userLimits(sp *userSpec, g *data.PartitionGen, validate bool) (float64, error) {
	s, p := r.s, sp.p
	f := g.Footprint()
	perr := func(key, format string, args ...any) error {
		return &BadInput{Err: &profile.Error{File: p.File, Key: key, Msg: fmt.Sprintf(format, args...)}}
	}
	var levels []string
	for i, c := range sp.ck {
		spec := "fixed(1)"
		if c.spec != nil && c.spec.Cluster != nil {
			spec = c.spec.Cluster.String()
		}
		levels = append(levels, fmt.Sprintf("%s cluster: %s (%d values of up to %d bytes)", c.name, spec, f.Levels[i], g.CK[i].MaxBytes()))
	}
	if f.Rows > settings.MaxPartitionRows {
		return 0, perr("columnspec", "partitions of up to %.0f rows (%s); at most %d (the original counts a partition's rows in a Java int)",
			f.Rows, strings.Join(levels, " × "), settings.MaxPartitionRows)
	}
	if f.LevelBytes > settings.MaxPartitionLevelBytes {
		return 0, perr("columnspec", "the clustering values of a partition take up to %d bytes (%s), all generated and kept while it is visited; at most %d",
			f.LevelBytes, strings.Join(levels, ", "), settings.MaxPartitionLevelBytes)
	}
	if f.RowBytes > settings.MaxFrameBytes {
		return 0, perr("columnspec", "rows of up to %d bytes; at most %d (256 MiB, the largest native-protocol frame Cassandra accepts by default: a row is written in one)",
			f.RowBytes, settings.MaxFrameBytes)
	}
	// An insert of a partition written over visits= inserts takes its
	// share of the rows (at least one), else all of them; select= of them.
	rows, per := f.Rows, "rows per partition"
	if v := data.FromSpec(s.Insert.Visits).Least(); v > 1 {
		rows, per = max(1, math.Ceil(f.Rows/float64(v))), "rows per partition over "+s.Option("-insert", "visits=", s.Insert.Visits.String())
	}
	sel := min(1, max(0, float64(sp.sel.Dist.Most())/sp.sel.Divisor))
	parts := float64(max(sp.partitions.Most(), 0))
	insertRows := math.Ceil(parts * sel * rows)
	how := fmt.Sprintf("%s × %s × %.0f %s", r.partitionsOption(sp), r.selectOption(sp), rows, per)
	// An insert of more rows than a batch holds goes as several batches
	// (userWorker.insert), so one batch bounds what travels in a frame.
	insertBytes := insertRows * float64(f.RowBytes)
	if batchBytes := min(insertRows, settings.MaxBatchStatements) * float64(f.RowBytes); batchBytes > settings.MaxFrameBytes {
		return 0, perr("insert", "batches of up to %.0f bytes (%s, of up to %d bytes each, at most %d rows a batch); at most %d (256 MiB, the largest native-protocol frame Cassandra accepts by default: a batch is one statement)",
			batchBytes, how, f.RowBytes, settings.MaxBatchStatements, settings.MaxFrameBytes)
	}
	perWorker := parts*float64(f.LevelBytes) + 2*insertBytes
	if validate {
		whole := f.Rows * float64(f.RowBytes)
		if whole > settings.MaxFrameBytes {
			return 0, perr("columnspec", "the validate op of ops(...) generates and compares whole partitions, here of up to %.0f rows of up to %d bytes (%.0f bytes); at most %d",
				f.Rows, f.RowBytes, whole, settings.MaxFrameBytes)
		}
		perWorker += whole + float64(f.LevelBytes)
	}
	return perWorker, nil
}

// partitionsOption is where the insert's partitions come from, as typed.
func (r *stressRun) partitionsOption(sp *userSpec) string {
	if r.s.Insert.Partitions != nil {
		return r.s.Option("-insert", "partitions=", "")
	}
	if sp.p.Insert.Partitions != nil {
		return "insert partitions: " + sp.p.Insert.Partitions.String()
	}
	return "partitions " + profile.DefaultPartitions
}

// selectOption is where the insert's select ratio comes from, as typed.
func (r *stressRun) selectOption(sp *userSpec) string {
	if r.s.Insert.SelectRatio != nil {
		return r.s.Option("-insert", "select-ratio=", "")
	}
	if sp.p.Insert.Select != nil {
		return "insert select: " + sp.p.Insert.Select.Dist.String() + "/" + strconv.FormatFloat(sp.p.Insert.Select.Divisor, 'f', -1, 64)
	}
	return "select " + profile.DefaultSelect
}
