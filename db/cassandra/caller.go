package cassandra

import (
	"context"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/cql/cqlwire"
)

// Stmt is a statement of the lean path: its CQL, prepared on each node at
// its first use there, with its result's paging (cqlwire.Stmt).
type Stmt = cqlwire.Stmt

// Caller is one worker's statements on the lean path: its request, the
// router to its statements' replicas, the node its last try failed on,
// and with a speculative delay its second requests. The binding's
// sessions and the stress workload's workers each have one (per
// keyspace); it is not safe for concurrent use.
type Caller struct {
	router *cqlwire.Router
	call   *cqlwire.Call
	spec   *cqlwire.Speculator
	// failed is the node the last try failed on: the next goes to another
	// replica (nil: the last did not fail there)
	failed *cqlwire.Host
	// host, ans and ansSt are the last answer's node, request and
	// statement (the second request's when it answered first)
	host  *cqlwire.Host
	ans   *cqlwire.Call
	ansSt *Stmt
}

// newCaller is a Caller on router; a second request goes to another
// replica after specDelay when it is above zero.
func newCaller(router *cqlwire.Router, specDelay time.Duration) *Caller {
	c := &Caller{router: router, call: cqlwire.NewCall()}
	if specDelay > 0 {
		c.spec = cqlwire.NewSpeculator(specDelay)
	}
	return c
}

// Caller is a worker's Caller on the keyspace's lean path, token-aware; a
// second request goes to another replica after specDelay when it is above
// zero.
func (l *LeanPath) Caller(specDelay time.Duration) *Caller {
	return newCaller(l.router(), specDelay)
}

// Exec runs st with vals at cl on a replica of the partition rk of table
// (the router's first for it, or another after a failed try). With a
// speculative delay and an idempotent statement, the same request goes to
// another replica once the first has not answered within the delay, and
// the first answer counts. It returns how many second requests it sent
// (0 or 1) and how many of those answered first.
func (c *Caller) Exec(ctx context.Context, table string, rk []byte, st *Stmt, cl gocql.Consistency, vals [][]byte, idempotent bool) (sent, won int64, err error) {
	var h *cqlwire.Host
	if c.failed != nil {
		h, err = c.router.Other(table, rk, c.failed)
	} else {
		h, err = c.router.Host(table, rk)
	}
	c.failed = nil
	c.host, c.ans, c.ansSt = h, c.call, st
	if err != nil {
		return 0, 0, err
	}
	if c.spec == nil || !idempotent {
		err = h.Exec(ctx, c.call, st, cl, vals)
	} else {
		second, _ := c.router.Other(table, rk, h)
		s0, w0 := c.spec.Sent(), c.spec.Won()
		c.ans, c.ansSt, _, err = c.spec.Exec(ctx, c.call, h, second, st, cl, vals)
		sent, won = c.spec.Sent()-s0, c.spec.Won()-w0
	}
	if err != nil {
		c.failed = h
	}
	return sent, won, err
}

// OnlyReplica says whether the node the last try failed on is the one
// replica the router has for rk of table: a try again would go there.
func (c *Caller) OnlyReplica(table string, rk []byte) bool {
	if c.failed == nil {
		return false
	}
	next, err := c.router.Other(table, rk, c.failed)
	return err == nil && next == c.failed
}

// Rows calls row for each row of the last answer, until it returns false
// (cqlwire.Call.Rows; scratch is reused for the values).
func (c *Caller) Rows(row func(cols []string, vals [][]byte) bool, scratch [][]byte) ([][]byte, error) {
	return c.ans.Rows(c.ansSt, row, scratch)
}

// PagingState is the last answer's paging state, nil on its last page.
func (c *Caller) PagingState() []byte { return c.ans.PagingState() }

// NextPage asks the node of the last answer for st's page after paging
// (the last answer's PagingState, copied), with the same values.
func (c *Caller) NextPage(ctx context.Context, st *Stmt, cl gocql.Consistency, vals [][]byte, paging []byte) error {
	c.ans, c.ansSt = c.call, st
	return c.host.ExecPage(ctx, c.call, st, cl, vals, paging)
}

// NewOperation forgets the node the last try failed on: the first try of
// an operation goes to the router's first replica.
func (c *Caller) NewOperation() { c.failed = nil }
