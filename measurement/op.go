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
	"github.com/goycsb/ycsb/internal/clock"
	"time"

	"github.com/goycsb/ycsb/db"
)

// Op is a measured operation; its String is the reference's measurement name.
type Op uint8

// Operations in a fixed order (also the tie-break order of report sections).
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
	// The cassandra-stress mode's operations without a YCSB name (READ
	// is YCSB's): `ycsb stress` records them, YCSB runs never do.
	Write
	CounterWrite
	CounterRead
	NumOps
)

var opNames = [NumOps]string{
	Read:                 "READ",
	Update:               "UPDATE",
	Insert:               "INSERT",
	Scan:                 "SCAN",
	ReadModifyWrite:      "READ-MODIFY-WRITE",
	Delete:               "DELETE",
	Cleanup:              "CLEANUP",
	Verify:               "VERIFY",
	ScanLatencyPerRecord: "SCAN-LATENCY-PER-RECORD",
	Write:                "WRITE",
	CounterWrite:         "COUNTER_WRITE",
	CounterRead:          "COUNTER_READ",
}

func (o Op) String() string { return opNames[o] }

// Kind says under which name a sample is filed: the plain operation name,
// <OP>-FAILED, or <OP>-<STATUS> for statuses tracked one by one
// (reportlatencyforeacherror, latencytrackederrors).
type Kind uint8

const (
	KindOK     Kind = 0
	KindFailed Kind = 1
	kindStatus Kind = 2 // + db.Status
	NumKinds        = int(kindStatus) + int(db.NumStatuses)
)

// StatusKind is the kind for a failed operation tracked under its own status.
func StatusKind(s db.Status) Kind { return kindStatus + Kind(s) }

// Name returns the measurement name for op and kind, e.g. READ-FAILED.
func Name(op Op, k Kind) string {
	switch {
	case k == KindOK:
		return op.String()
	case k == KindFailed:
		return op.String() + "-FAILED"
	default:
		return op.String() + "-" + db.Status(k-kindStatus).String()
	}
}

// Now returns monotonic nanoseconds since process start (see internal/clock:
// the TSC where the kernel trusts it, else the monotonic clock).
func Now() int64 { return clock.Now() }

// WallTime converts a Now value back to wall-clock time.
func WallTime(ns int64) time.Time { return clock.Base().Add(time.Duration(ns)) }
