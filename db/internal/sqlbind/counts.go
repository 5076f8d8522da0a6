package sqlbind

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/within"
)

// Counts are a session's retries, retries given up and reconnections,
// added to its DB's Totals when it closes. Embedded in the session, it
// makes it a db.RetryCounter.
type Counts struct {
	retries, exhausted, reconnects int64
	retried                        int64 // retries never reset: db.RetryCounter
}

// Retries implements db.RetryCounter: every retry of the session's
// operations, single statements (db.maxretries) and transactions
// (jdbc.txnretries) alike.
func (c *Counts) Retries() int64 { return c.retried }

// Again says whether a failed autocommit statement is retried, after its
// attempt (0, 1, …): when retryable, up to max (db.maxretries) times,
// after a wait of 1 ms doubling up to 64 ms from the second retry on.
func (c *Counts) Again(ctx context.Context, attempt, max int, retryable bool) bool {
	if max <= 0 || !retryable {
		return false
	}
	if attempt >= max {
		c.exhausted++
		return false
	}
	if attempt > 0 && !within.Sleep(ctx, time.Millisecond<<min(attempt-1, 6)) {
		return false
	}
	// Counted once it runs: a run that ends during the wait made no retry.
	c.retries++
	c.retried++
	return true
}

// Transacted counts the retries of a transaction that ended with err.
func (c *Counts) Transacted(retries int, err error) {
	c.retries += int64(retries)
	c.retried += int64(retries)
	if errors.Is(err, ErrRetriesExhausted) {
		c.exhausted++
	}
}

// Reconnected counts a connection made again after one broke.
func (c *Counts) Reconnected() { c.reconnects++ }

// AddTo adds the counts to t and starts them again from 0 (but Retries).
func (c *Counts) AddTo(t *Totals) {
	t.retries.Add(c.retries)
	t.exhausted.Add(c.exhausted)
	t.reconnects.Add(c.reconnects)
	c.retries, c.exhausted, c.reconnects = 0, 0, 0
}

// Totals are a DB's counts, from its closed sessions.
type Totals struct {
	retries, exhausted, reconnects atomic.Int64
}

// Stats are t's report rows: TXN-RETRIES when the binding retries
// (db.maxretries, jdbc.rmwintxn or the closed economy), CONNECTIONS always.
func (t *Totals) Stats(retrying bool) []db.Stat {
	var out []db.Stat
	if retrying {
		out = append(out,
			db.Stat{Section: "TXN-RETRIES", Name: "Retries", Value: t.retries.Load()},
			db.Stat{Section: "TXN-RETRIES", Name: "GaveUp", Value: t.exhausted.Load()})
	}
	return append(out, db.Stat{Section: "CONNECTIONS", Name: "Reconnects", Value: t.reconnects.Load()})
}
