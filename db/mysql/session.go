package mysql

import (
	"context"
	sqldriver "database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/internal/within"
)

// connectBackoff is how long an operation waits after failing to connect,
// so a worker facing a down server fails a few dozen operations a second
// instead of spinning.
const connectBackoff = 50 * time.Millisecond

// maxStmts bounds the statements a connection keeps prepared (the server's
// max_prepared_stmt_count is shared by every connection): past it, they
// are closed and prepared again as needed.
const maxStmts = 64

func isOutcomeUnknown(err error) bool { return db.IsOutcomeUnknown(err) }
func markUnknown(err error) error     { return db.OutcomeUnknown(err) }

// stmt is a statement prepared on one connection.
type stmt struct {
	st     sqldriver.Stmt
	q      sqldriver.StmtQueryContext
	e      sqldriver.StmtExecContext
	names  []string // result columns, lower case; nil until the first query
	keyCol int      // index of YCSB_KEY in the result, -1 if absent
}

// sconn is a session's connection to one shard, with the inserts buffered
// for it.
type sconn struct {
	s      *session
	sh     *shard
	conn   sqldriver.Conn
	exec   sqldriver.ExecerContext
	prep   sqldriver.ConnPrepareContext
	stmts  map[string]*stmt
	broken bool // the last connection broke: the next one is a reconnect
	inTxn  bool // jdbc.autocommit=false: the session's transaction is open
	// uncommitted counts the inserts acknowledged as BATCHED_OK in the
	// open transaction: they are done only once its COMMIT is, and lost
	// with it.
	uncommitted int
	// lastTimedOut: the socket of the last failed operation had run out
	// of its deadline (db.timeout).
	lastTimedOut bool
	down         bool // counted in mysqlDB.down
	batch        sqlbind.Batch
	// live is the connection's socket, for the cancellation callback and
	// Close, the only other goroutines that look at it.
	live atomic.Pointer[trackedConn]
}

// adopt registers a newly dialled socket; when the session was cancelled
// meanwhile, the socket gets the past deadline the cancellation gives the
// others.
func (c *sconn) adopt(tc *trackedConn) {
	c.live.Store(tc)
	if c.s.w.Cancelled.Load() {
		tc.stop()
	}
}

type session struct {
	d     *mysqlDB
	conns []sconn

	args   []sqldriver.NamedValue
	dest   []sqldriver.Value
	keyBuf []byte
	cacheK []byte
	names  []string
	params [][]byte         // a single-row write's, before s.args
	buf    sqlbind.Buffered // inserts buffered (jdbc.batchupdateapi, batch.size)
	writes sqlbind.Writes   // writes since the last commit (jdbc.autocommit=false)

	sqlbind.Counts // retries and reconnections; db.RetryCounter

	tx   sqlbind.InTxn[*sconn]
	body db.TxnBody

	// w watches the run's context once per session instead of once per
	// statement by the driver; see watch.
	w sqlbind.Watch
}

// watch registers ctx's cancellation once for the session
// (sqlbind.Watch): on cancellation the session's sockets get a past
// deadline, which ends any statement in flight.
func (s *session) watch(ctx context.Context) {
	if !s.w.Wants(ctx) {
		return
	}
	s.unwatch()
	s.w.Start(ctx, func() {
		for i := range s.conns {
			if tc := s.conns[i].live.Load(); tc != nil {
				tc.stop()
			}
		}
	})
}

// unwatch stops watching; sockets that the cancellation gave a past
// deadline while idle get it back, so Close can still flush on them.
func (s *session) unwatch() {
	if s.w.Stop() {
		for i := range s.conns {
			if tc := s.conns[i].live.Load(); tc != nil && s.conns[i].conn != nil {
				tc.resume()
			}
		}
	}
}

// dctx is the context for the driver: none when the session watches ctx.
func (s *session) dctx(ctx context.Context) context.Context { return s.w.Context(ctx) }

func (s *session) conn(key string) *sconn {
	return &s.conns[sqlbind.ShardIndex(key, len(s.conns))]
}

func (s *session) key(key string) []byte {
	s.keyBuf = append(s.keyBuf[:0], key...)
	return s.keyBuf
}

// get makes sure c has a connection, connecting when there is none (first
// use, or the last one broke), and opens the session's transaction when
// jdbc.autocommit is false.
func (s *session) get(ctx context.Context, c *sconn) error {
	s.watch(ctx)
	if ctx == s.w.Ctx && s.w.Cancelled.Load() {
		return ctx.Err()
	}
	if c.conn == nil {
		if err := s.connect(ctx, c); err != nil {
			within.Sleep(ctx, connectBackoff)
			return fmt.Errorf("connect: %w", err)
		}
	}
	if !s.d.cfg.Autocommit && !c.inTxn {
		if _, err := c.exec.ExecContext(s.dctx(ctx), "START TRANSACTION", nil); err != nil {
			s.settle(c)
			return fmt.Errorf("begin: %w", err)
		}
		c.inTxn = true
	}
	return nil
}

func (s *session) connect(ctx context.Context, c *sconn) error {
	cctx := context.WithValue(ctx, connKey{}, c)
	conn, err := c.sh.connector.Connect(cctx)
	if err != nil {
		if tc := c.live.Swap(nil); tc != nil {
			tc.Close()
		}
		return err
	}
	c.conn = conn
	c.exec, _ = conn.(sqldriver.ExecerContext)
	c.prep, _ = conn.(sqldriver.ConnPrepareContext)
	if c.exec == nil || c.prep == nil {
		return errors.New("the driver's connection cannot run statements with a context")
	}
	c.stmts = map[string]*stmt{}
	c.inTxn = false
	if c.broken {
		c.broken = false
		s.Reconnected()
	}
	if c.down {
		c.down = false
		s.d.down.Add(-1)
	}
	if c.sh.isoSQL != "" {
		if _, err := c.exec.ExecContext(s.dctx(ctx), c.sh.isoSQL, nil); err != nil {
			s.drop(c)
			return err
		}
	}
	return nil
}

// settle looks at c's connection after a failed operation: one the driver
// closed (the server went away, a deadline ran out) is dropped, and the
// next operation connects again.
func (s *session) settle(c *sconn) {
	if c.conn == nil {
		return
	}
	if v, ok := c.conn.(sqldriver.Validator); ok && !v.IsValid() {
		s.drop(c)
		c.broken = true
		if !s.w.Cancelled.Load() && !c.down {
			// Broken by the server or the network, not by the run's
			// end: the server may not answer the report's questions.
			c.down = true
			s.d.down.Add(1)
		}
	}
}

// drop closes c's connection, waiting closeWait at most for the goodbye.
func (s *session) drop(c *sconn) {
	if c.conn == nil {
		return
	}
	conn, tc := c.conn, c.live.Swap(nil)
	if tc != nil {
		tc.closing(closeWait)
	}
	conn.Close()
	c.conn, c.exec, c.prep, c.stmts, c.inTxn = nil, nil, nil, nil, false
}

// prepare returns the statement for (kind, table, fields, rows) on c's
// connection, preparing it on first use.
func (s *session) prepare(ctx context.Context, c *sconn, kind byte, table string, fields []string, rows int) (*stmt, error) {
	k := sqlbind.AppendCacheKey(s.cacheK[:0], kind, table, fields, rows)
	s.cacheK = k
	if st, ok := c.stmts[string(k)]; ok {
		return st, nil
	}
	if len(c.stmts) >= maxStmts {
		for _, st := range c.stmts {
			st.st.Close()
		}
		clear(c.stmts)
	}
	sql := sqlbind.Statement(s.d.cfg.dialect.sql(), kind, table, fields, rows)
	ps, err := c.prep.PrepareContext(s.dctx(ctx), sql)
	if err != nil {
		if len(sql) > 200 {
			sql = sql[:200] + "…"
		}
		return nil, fmt.Errorf("prepare %q: %w", sql, err)
	}
	st := &stmt{st: ps, keyCol: -1}
	st.q, _ = ps.(sqldriver.StmtQueryContext)
	st.e, _ = ps.(sqldriver.StmtExecContext)
	if st.q == nil || st.e == nil {
		ps.Close()
		return nil, errors.New("the driver's statement cannot run with a context")
	}
	c.stmts[string(k)] = st
	return st, nil
}

// columns learns a statement's result columns from its first result.
func (st *stmt) columns(rows sqldriver.Rows) {
	if st.names != nil {
		return
	}
	cols := rows.Columns()
	st.names = make([]string, len(cols))
	for i, n := range cols {
		st.names[i] = strings.ToLower(n)
		if st.names[i] == "ycsb_key" {
			st.keyCol = i
		}
	}
}

// arg sets the session's argument i (0-based) to v.
func (s *session) arg(i int, v []byte) {
	if i == len(s.args) {
		s.args = append(s.args, sqldriver.NamedValue{Ordinal: i + 1})
	}
	s.args[i].Value = v
}

// bytesOf is a result value as bytes: TEXT columns come as []byte.
func bytesOf(v sqldriver.Value) []byte {
	switch x := v.(type) {
	case []byte:
		return x
	case string:
		return []byte(x)
	case nil:
		return nil
	case int64:
		return strconv.AppendInt(nil, x, 10)
	}
	return fmt.Append(nil, v)
}

// query runs st with the session's arguments; the caller reads the rows
// into the returned values (next) and closes them (done).
func (s *session) query(ctx context.Context, st *stmt, nargs int) (sqldriver.Rows, []sqldriver.Value, error) {
	rows, err := st.q.QueryContext(s.dctx(ctx), s.args[:nargs])
	if err != nil {
		return nil, nil, err
	}
	st.columns(rows)
	if cap(s.dest) < len(st.names) {
		s.dest = make([]sqldriver.Value, len(st.names))
	}
	return rows, s.dest[:len(st.names)], nil
}

// done closes rows after Next returned err: io.EOF is the end.
func done(rows sqldriver.Rows, err error) error {
	cerr := rows.Close()
	if err == io.EOF {
		return cerr
	}
	return err
}

// again says whether a failed autocommit statement is retried: deadlocks
// and lock wait timeouts are, up to db.maxretries times.
func (s *session) again(ctx context.Context, err error, attempt int) bool {
	return s.Again(ctx, attempt, s.d.cfg.maxRetries, s.d.cfg.Autocommit && isRetryable(err))
}

// fail wraps a driver error with the binding and operation, without a
// password, saying what the driver's "invalid connection" was.
func (s *session) fail(op string, c *sconn, err error) error {
	if err == nil {
		return nil
	}
	var se *db.StatusError
	if errors.As(err, &se) && se.Err == nil {
		return err // a sentinel
	}
	name := s.d.cfg.name
	unknown := db.IsOutcomeUnknown(err)
	switch {
	case s.w.Cancelled.Load() && s.w.Ctx != nil:
		err = fmt.Errorf("%s: %s: %w", name, op, s.w.Ctx.Err())
	case c != nil && c.timedOut() && errors.Is(err, gomysql.ErrInvalidConn):
		err = fmt.Errorf("%s: %s: no answer within %s=%v: %w", name, op, sqlbind.PropTimeout, s.d.cfg.Timeout, context.DeadlineExceeded)
	default:
		msg := err.Error()
		if clean := secret.Line(msg); clean != msg {
			err = fmt.Errorf("%s: %s: %s", name, op, clean)
		} else {
			err = fmt.Errorf("%s: %s: %w", name, op, err)
		}
	}
	if unknown && !db.IsOutcomeUnknown(err) {
		err = db.OutcomeUnknown(err)
	}
	return err
}

// timedOut says whether c's last socket ran out of its deadline.
func (c *sconn) timedOut() bool {
	return c.lastTimedOut
}

// Read implements db.Session. Unlike the reference, an all-field read
// returns the values too.
func (s *session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	c := s.conn(key)
	n0 := len(out.Fields)
	for attempt := 0; ; attempt++ {
		err := s.ReadRow(ctx, c, sqlbind.KindRead, table, key, fields, out)
		if err == nil || err == db.ErrNotFound {
			return err
		}
		s.after(c)
		if s.again(ctx, err, attempt) {
			out.Fields = out.Fields[:n0]
			continue
		}
		return sqlbind.LostBatch(s.rolledBack(c, err), s.fail("read", c, err))
	}
}

// ReadRow reads one key on c into out (sqlbind.RowSession).
func (s *session) ReadRow(ctx context.Context, c *sconn, kind byte, table, key string, fields []string, out *db.Record) error {
	if err := s.get(ctx, c); err != nil {
		return err
	}
	st, err := s.prepare(ctx, c, kind, table, fields, 1)
	if err != nil {
		return err
	}
	s.arg(0, s.key(key))
	rows, vals, err := s.query(ctx, st, 1)
	if err != nil {
		return err
	}
	found := false
	for err = rows.Next(vals); err == nil; err = rows.Next(vals) {
		found = true
		for i, v := range vals {
			if i != st.keyCol {
				out.Add(st.names[i], bytesOf(v))
			}
		}
	}
	if err = done(rows, err); err != nil {
		return err
	}
	if !found {
		return db.ErrNotFound
	}
	return nil
}

// after records, once an operation on c failed, whether its socket had
// run out of its deadline, and settles the connection.
func (s *session) after(c *sconn) {
	tc := c.live.Load()
	c.lastTimedOut = tc != nil && tc.timedOut.Load()
	s.settle(c)
}

// Scan implements db.Session: rows in YCSB_KEY order from startKey, with
// Record.Key set. Only the start key's shard is asked, as in the reference.
func (s *session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) error {
	c := s.conn(startKey)
	n0 := out.Len()
	for attempt := 0; ; attempt++ {
		err := s.scan(ctx, c, table, startKey, count, fields, out)
		if err == nil {
			return nil
		}
		s.after(c)
		if s.again(ctx, err, attempt) {
			sqlbind.TruncateRows(out, n0)
			continue
		}
		return sqlbind.LostBatch(s.rolledBack(c, err), s.fail("scan", c, err))
	}
}

func (s *session) scan(ctx context.Context, c *sconn, table, startKey string, count int, fields []string, out *db.Rows) error {
	if err := s.get(ctx, c); err != nil {
		return err
	}
	st, err := s.prepare(ctx, c, sqlbind.KindScan, table, fields, 1)
	if err != nil {
		return err
	}
	s.arg(0, s.key(startKey))
	if len(s.args) < 2 {
		s.args = append(s.args, sqldriver.NamedValue{Ordinal: 2})
	}
	s.args[1].Value = int64(count)
	rows, vals, err := s.query(ctx, st, 2)
	if err != nil {
		return err
	}
	for err = rows.Next(vals); err == nil; err = rows.Next(vals) {
		r := out.Next()
		for i, v := range vals {
			if i == st.keyCol {
				r.SetKey(bytesOf(v))
			} else {
				r.Add(st.names[i], bytesOf(v))
			}
		}
	}
	return done(rows, err)
}
