package kv

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goycsb/ycsb/db"
)

// Debt is an engine's compaction debt at one moment: the work its
// compactions still have to do. Both engines fill the same fields
// (docs/engines.md says from where); the pending bytes are each engine's
// own estimate, and the two estimate differently, but 0 means no debt on
// both.
type Debt struct {
	// PendingCompactionBytes: RocksDB's estimate-pending-compaction-bytes
	// (bytes over its L0 trigger and level targets), Pebble's
	// Compact.EstimatedDebt (all of L0 and Lbase once both hold data, plus
	// what the levels hold over their targets).
	PendingCompactionBytes int64
	L0Files                int64
	// L0Sublevels is Pebble's L0 read amplification; in RocksDB every L0
	// file is a sorted run of its own, so it is the L0 file count.
	L0Sublevels        int64
	RunningCompactions int64
}

// Settled says there is nothing left to compact, nothing compacting and
// nothing in L0 (which a full compaction empties: Pebble estimates no debt
// for L0 tables while its base level is empty).
func (d Debt) Settled() bool {
	return d.PendingCompactionBytes == 0 && d.RunningCompactions == 0 && d.L0Files == 0
}

// Rows renders d as report rows whose names end in when ("AtStart", ...).
func (d Debt) Rows(when string) []db.Stat {
	return []db.Stat{
		stat("PendingCompactionBytes"+when, d.PendingCompactionBytes),
		stat("L0Files"+when, d.L0Files),
		stat("L0Sublevels"+when, d.L0Sublevels),
		stat("RunningCompactions"+when, d.RunningCompactions),
	}
}

// Settling is what a binding gives Settle.
type Settling interface {
	// Flush writes the memtable to a table and waits for it.
	Flush() error
	// CompactAll compacts the whole key space down to the bottom level
	// with data (the engine's manual compaction) and returns when it is
	// done or ctx is done.
	CompactAll(ctx context.Context) error
	// Debt reads the engine's compaction debt now.
	Debt() Debt
}

// settlePoll is how often Settle reads the debt after the manual compaction
// while the engine's own compactions finish.
const settlePoll = 50 * time.Millisecond

// Settle brings the store to a state with no compaction debt: it flushes the
// memtable, compacts the whole key space, then waits until the engine reports
// nothing pending and nothing compacting. It gives up after timeout (or when
// ctx is done) and says so in its error; took is the time spent either way.
func Settle(ctx context.Context, e Settling, timeout time.Duration) (took time.Duration, err error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer func() { took = time.Since(start) }()
	if err := e.Flush(); err != nil {
		return 0, err
	}
	// Not started once ctx is done: a compaction that might finish before
	// the engine notices would make an interrupted Settle look settled.
	if ctx.Err() == nil {
		if err := e.CompactAll(ctx); err != nil && ctx.Err() == nil {
			return 0, fmt.Errorf("compact: %w", err)
		}
	}
	t := time.NewTicker(settlePoll)
	defer t.Stop()
	for {
		d := e.Debt()
		if d.Settled() {
			return 0, nil
		}
		select {
		case <-ctx.Done():
			why := PropSettleTimeout
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				why = "interrupted"
			}
			return 0, fmt.Errorf("not settled: still %d bytes of compaction debt, %d L0 files and %d compactions running after %v (%s)",
				d.PendingCompactionBytes, d.L0Files, d.RunningCompactions, time.Since(start).Round(time.Millisecond), why)
		case <-t.C:
		}
	}
}
