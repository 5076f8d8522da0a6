// Package measurement records operation latencies the way the reference's
// Measurements class does, without its global locks.
//
// Each worker owns a Recorder: one HdrHistogram per (operation, outcome) and
// return-code counters in fixed arrays, so the hot path does no map lookup,
// builds no string and takes only its own worker's mutex. A worker's
// histograms allocate their counts in chunks as values arrive (lazyhdr), so
// that thousands of workers cost little more than the latencies they saw. The status ticker
// harvests every Recorder once per interval by swapping in a spare set of
// histograms (the only time that mutex can be contended), and a Collector
// merges the harvests into per-interval and cumulative totals. After the
// workers have joined, the final harvest needs no coordination at all.
package measurement

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/internal/clock"
)

// Op indexes a run's table of operation names (Ops): the hot path files a
// sample in its worker's fixed slots by it, with no lookup of a name.
type Op uint8

// MaxOps is how many operations a table can name: Op's range. A worker
// holds about 250 bytes per operation of its table and generation.
const MaxOps = 256

// YCSB's operations: indexes into YCSB, in their fixed order (also the
// tie-break order of report sections).
const (
	Read Op = iota
	Update
	Insert
	Scan
	ReadModifyWrite
	Delete
	Cleanup
	Verify
	ScanLatencyPerRecord
)

// CleanupName is the operation a session's close is measured as, in any
// table that has it (see Session.Close).
const CleanupName = "CLEANUP"

// ReadModifyWriteName is YCSB's read-modify-write.
const ReadModifyWriteName = "READ-MODIFY-WRITE"

// YCSB is the table of YCSB runs: the reference's measurement names, in
// the order of the constants above.
var YCSB = mustOps("READ", "UPDATE", "INSERT", "SCAN", ReadModifyWriteName, "DELETE", CleanupName,
	"VERIFY", "SCAN-LATENCY-PER-RECORD")

// Ops is a run's table of operation names, given when its measurement is
// built: YCSB's, the stress mode's kinds, a profile's ops(...). Op values
// index it; reports use its names as they are.
type Ops struct {
	names      []string
	cleanup    Op
	hasCleanup bool
}

// NewOps returns the table of names, in their order (the tie-break order
// of report sections). Names must be distinct and non-empty, and at most
// MaxOps.
func NewOps(names ...string) (*Ops, error) {
	if len(names) == 0 {
		return nil, errors.New("no operations")
	}
	if len(names) > MaxOps {
		return nil, fmt.Errorf("%d operations, at most %d", len(names), MaxOps)
	}
	t := &Ops{names: slices.Clone(names)}
	for i, n := range names {
		switch {
		case n == "":
			return nil, errors.New("an operation without a name")
		case slices.Index(names, n) != i:
			return nil, fmt.Errorf("%s is named twice", n)
		case n == CleanupName:
			t.cleanup, t.hasCleanup = Op(i), true
		}
	}
	return t, nil
}

func mustOps(names ...string) *Ops {
	t, err := NewOps(names...)
	if err != nil {
		panic("measurement: " + err.Error())
	}
	return t
}

// Len is the number of operations in the table.
func (t *Ops) Len() int { return len(t.names) }

// Name is the name of o.
func (t *Ops) Name(o Op) string { return t.names[o] }

// MeasurementName returns the name op's samples of kind k are filed
// under, e.g. READ-FAILED.
func (t *Ops) MeasurementName(op Op, k Kind) string { return t.names[op] + k.Suffix() }

// Kind says under which name a sample is filed: the plain operation name,
// <OP>-FAILED, or <OP>-<STATUS> for statuses tracked one by one
// (reportlatencyforeacherror, latencytrackederrors).
type Kind uint8

const (
	KindOK     Kind = 0
	KindFailed Kind = 1
	kindStatus Kind = 2 // + status.Status
	NumKinds        = int(kindStatus) + int(status.NumStatuses)
)

// StatusKind is the kind for a failed operation tracked under its own status.
func StatusKind(s status.Status) Kind { return kindStatus + Kind(s) }

// Suffix is what k adds to an operation's name: nothing, -FAILED or
// -<STATUS>.
func (k Kind) Suffix() string {
	switch {
	case k == KindOK:
		return ""
	case k == KindFailed:
		return "-FAILED"
	default:
		return "-" + status.Status(k-kindStatus).String()
	}
}

// Now returns monotonic nanoseconds since process start (see internal/clock:
// the TSC where the kernel trusts it, else the monotonic clock).
func Now() int64 { return clock.Now() }

// WallTime converts a Now value back to wall-clock time.
func WallTime(ns int64) time.Time { return clock.Base().Add(time.Duration(ns)) }
