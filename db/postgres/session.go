package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/internal/clock"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/internal/within"
)

// connectBackoff is how long an operation waits after failing to get a
// connection, so a worker facing a down server fails a few dozen operations a
// second instead of spinning.
const connectBackoff = 50 * time.Millisecond

// customDataKey holds a connection's prepared statements in
// pgconn.PgConn.CustomData, so a connection handed from one session to
// another keeps them and names never collide.
const customDataKey = "ycsb.stmts"

// connStmts are the statements prepared on one connection, by cache key
// (kind, table, fields, rows).
type connStmts struct {
	m map[string]*stmt
	n int
}

type stmt struct {
	sd     *pgconn.StatementDescription
	keyCol int      // index of YCSB_KEY in the result, -1 if absent
	names  []string // result column names, lower case as the server returns them
}

// sconn is a session's connection to one shard, with the inserts buffered
// for it.
type sconn struct {
	sh     *shard
	pc     *pgxpool.Conn
	conn   *pgconn.PgConn
	st     *connStmts
	broken bool // the last connection broke: the next one is a reconnect
	batch  sqlbind.Batch
	// uncommitted counts the inserts acknowledged as BATCHED_OK in the
	// connection's open transaction (jdbc.autocommit=false): they are done
	// only once its COMMIT is, and lost with it.
	uncommitted int
	// cur is conn for the cancellation callback, the only other goroutine
	// that looks at it.
	cur atomic.Pointer[pgconn.PgConn]
}

type session struct {
	d     *pgDB
	conns []sconn

	params [][]byte
	keyBuf []byte
	numBuf []byte
	cacheK []byte
	names  []string
	buf    sqlbind.Buffered // inserts buffered (jdbc.batchupdateapi)
	writes sqlbind.Writes   // writes since the last commit (jdbc.autocommit=false)

	sqlbind.Counts // retries and reconnections; db.RetryCounter

	// plan is the control statements of a transaction (Transact); tx and
	// body the one in flight.
	plan txnPlan
	tx   sqlbind.InTxn[*sconn]
	body db.TxnBody

	// w watches the run's context once per session instead of once per
	// operation by pgconn; see watch.
	w sqlbind.Watch

	// db.timeout, kept by a watchdog timer (see begin) rather than by a
	// deadline per operation.
	timeout time.Duration
	opStart atomic.Int64 // clock.Now() when the operation in flight began; 0: none; expired: it ran out
	dog     atomic.Pointer[time.Timer]
	dogOff  atomic.Bool // the session is closed: the watchdog stops
	// dogMu is held by the watchdog while it ends an operation, and by the
	// session when it finds that it did: never on the way of an operation
	// that finishes in time. It also guards acancel.
	dogMu sync.Mutex
	// actx is the watched context's child that pool.Acquire gets, cancelled
	// by the watchdog (acancel) to end a wait for a connection.
	actx    context.Context
	acancel context.CancelFunc
}

// expired marks in opStart an operation the watchdog ended.
const expired = -1

// begin starts db.timeout for an operation; end stops it. The cost on an
// operation that finishes in time is a clock read and two atomic stores: a
// session's watchdog timer wakes once per db.timeout and looks at opStart,
// and only when the operation in flight is older than db.timeout does it
// end it the way a cancellation does (a past deadline on the connection in
// use, which holds even when the server answers nothing, not even a cancel
// request; and the cancellation of a wait for a connection).
func (s *session) begin() int64 {
	if s.timeout <= 0 {
		return 0
	}
	now := max(clock.Now(), 1)
	s.opStart.Store(now)
	if s.dog.Load() == nil {
		s.dogOff.Store(false)
		s.dog.Store(time.AfterFunc(s.timeout, s.check))
	}
	return now
}

// end closes the operation begun at start. When the watchdog ended it, the
// connections it left a past deadline on and that are still open (idle
// ones of other shards, or the one in use when the operation completed at
// that very moment) get their deadline back.
func (s *session) end(start int64) {
	if start == 0 || s.opStart.CompareAndSwap(start, 0) {
		return
	}
	s.dogMu.Lock()
	defer s.dogMu.Unlock()
	s.opStart.Store(0)
	if !s.w.Cancelled.Load() {
		for i := range s.conns {
			if c := s.conns[i].conn; c != nil && !c.IsClosed() {
				c.Conn().SetDeadline(time.Time{})
			}
		}
	}
	if s.actx != nil && s.actx.Err() != nil && s.w.Ctx != nil {
		s.acancel()
		s.actx, s.acancel = context.WithCancel(s.w.Ctx)
	}
}

// timedOut says whether the watchdog ended the operation in flight.
func (s *session) timedOut() bool { return s.timeout > 0 && s.opStart.Load() == expired }

// check is the watchdog: it ends the operation in flight if it began
// db.timeout ago, and otherwise sleeps until it could have.
func (s *session) check() {
	if s.dogOff.Load() {
		return
	}
	next := s.timeout
	if st := s.opStart.Load(); st > 0 {
		if left := time.Duration(st + int64(s.timeout) - clock.Now()); left > 0 {
			next = left
		} else {
			s.dogMu.Lock()
			if s.opStart.CompareAndSwap(st, expired) {
				for i := range s.conns {
					if p := s.conns[i].cur.Load(); p != nil {
						p.Conn().SetDeadline(time.Now())
					}
				}
				if s.acancel != nil {
					s.acancel()
				}
			}
			s.dogMu.Unlock()
		}
	}
	if t := s.dog.Load(); t != nil {
		t.Reset(next)
	}
}

// stopDog stops the watchdog (Close).
func (s *session) stopDog() {
	s.dogOff.Store(true)
	if t := s.dog.Swap(nil); t != nil {
		t.Stop()
	}
}

// watch registers ctx's cancellation once for the session
// (sqlbind.Watch): on cancellation the session's connections get a past
// deadline, which ends any statement in flight.
func (s *session) watch(ctx context.Context) {
	if !s.w.Wants(ctx) {
		return
	}
	s.unwatch()
	if s.timeout > 0 {
		s.dogMu.Lock()
		s.actx, s.acancel = context.WithCancel(ctx)
		s.dogMu.Unlock()
	}
	s.w.Start(ctx, func() {
		for i := range s.conns {
			if p := s.conns[i].cur.Load(); p != nil {
				p.Conn().SetDeadline(time.Now())
			}
		}
	})
}

// unwatch stops watching and clears the deadline the cancellation set on
// connections that were idle then, so Close can still flush on them.
func (s *session) unwatch() {
	cancelled := s.w.Stop()
	s.dogMu.Lock()
	if s.acancel != nil {
		s.acancel()
		s.actx, s.acancel = nil, nil
	}
	s.dogMu.Unlock()
	if cancelled {
		for i := range s.conns {
			if c := s.conns[i].conn; c != nil && !c.IsClosed() {
				c.Conn().SetDeadline(time.Time{})
			}
		}
	}
}

// wctx is the context for pgconn: none when the session watches ctx itself.
func (s *session) wctx(ctx context.Context) context.Context { return s.w.Context(ctx) }

func (s *session) conn(key string) *sconn {
	return &s.conns[sqlbind.ShardIndex(key, len(s.conns))]
}

func (s *session) key(key string) []byte {
	s.keyBuf = append(s.keyBuf[:0], key...)
	return s.keyBuf
}

// get returns c's connection, taking one from the pool when there is none
// (first use, or the last one broke) and opening the session's transaction
// when jdbc.autocommit is false.
func (s *session) get(ctx context.Context, c *sconn) (*pgconn.PgConn, error) {
	s.watch(ctx)
	if c.conn == nil {
		pc, err := s.acquire(ctx, c)
		if err != nil {
			within.Sleep(ctx, connectBackoff)
			return nil, fmt.Errorf("connect: %w", err)
		}
		if c.broken {
			c.broken = false
			s.Reconnected()
		}
		c.pc, c.conn = pc, pc.Conn().PgConn()
		c.cur.Store(c.conn)
		cd := c.conn.CustomData()
		st, _ := cd[customDataKey].(*connStmts)
		if st == nil {
			st = &connStmts{m: map[string]*stmt{}}
			cd[customDataKey] = st
		}
		c.st = st
	}
	if ctx == s.w.Ctx && s.w.Cancelled.Load() {
		return nil, ctx.Err()
	}
	if !s.d.cfg.autocommit && c.conn.TxStatus() == 'I' {
		if _, err := c.conn.Exec(s.wctx(ctx), "BEGIN").ReadAll(); err != nil {
			s.settle(c, err)
			return nil, fmt.Errorf("begin: %w", err)
		}
	}
	return c.conn, nil
}

// acquire takes a connection from c's pool within db.timeout: through actx
// when ctx is the watched context, so the watchdog can end the wait.
func (s *session) acquire(ctx context.Context, c *sconn) (*pgxpool.Conn, error) {
	if s.timeout <= 0 {
		return c.sh.pool.Acquire(ctx)
	}
	if ctx == s.w.Ctx && s.actx != nil {
		return c.sh.pool.Acquire(s.actx)
	}
	actx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return c.sh.pool.Acquire(actx)
}

// settle looks at c's connection after an operation: a broken one goes back
// to the pool (which drops it), a failed transaction is rolled back, and
// without db.holdconn the connection is returned after every operation.
func (s *session) settle(c *sconn, err error) {
	if c.conn == nil {
		return
	}
	switch {
	case c.conn.IsClosed():
		c.broken = true
	case err != nil && c.conn.TxStatus() == 'E':
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, rerr := c.conn.Exec(ctx, "ROLLBACK").ReadAll()
		cancel()
		if rerr == nil && s.d.cfg.holdConn {
			return
		}
	case s.d.cfg.holdConn:
		return
	}
	s.release(c)
}

// release gives c's connection back to the pool. A closed one is taken out
// of it instead: the pool would hold its place until pgconn's cleanup ends,
// up to 15 s with a server that answers nothing, and make new connections
// wait for it.
func (s *session) release(c *sconn) {
	if c.pc == nil {
		return
	}
	c.cur.Store(nil)
	if c.conn.IsClosed() {
		c.pc.Hijack()
	} else {
		c.pc.Release()
	}
	c.pc, c.conn, c.st = nil, nil, nil
}

// prepare returns the statement for (kind, table, fields, rows) on c's
// connection, preparing it on first use.
func (s *session) prepare(ctx context.Context, c *sconn, kind byte, table string, fields []string, rows int) (*stmt, error) {
	k := sqlbind.AppendCacheKey(s.cacheK[:0], kind, table, fields, rows)
	s.cacheK = k
	if st, ok := c.st.m[string(k)]; ok {
		return st, nil
	}
	sql := sqlbind.Statement(s.d.cfg.dialect.sql(), kind, table, fields, rows)
	name := "ycsb_" + strconv.Itoa(c.st.n)
	sd, err := c.conn.Prepare(s.wctx(ctx), name, sql, nil)
	if err != nil {
		return nil, fmt.Errorf("prepare %q: %w", sql, err)
	}
	c.st.n++
	st := &stmt{sd: sd, keyCol: -1, names: make([]string, len(sd.Fields))}
	for i, f := range sd.Fields {
		st.names[i] = f.Name
		if f.Name == "ycsb_key" {
			st.keyCol = i
		}
	}
	c.st.m[string(k)] = st
	return st, nil
}

// again says whether a failed autocommit operation is retried:
// serialization failures (SQLSTATE 40001) and deadlocks (40P01) are, up to
// db.maxretries times.
func (s *session) again(ctx context.Context, err error, attempt int) bool {
	return s.Again(ctx, attempt, s.d.cfg.maxRetries, s.d.cfg.autocommit && isRetryable(err))
}

// fail wraps a driver error with the binding and operation, without the
// password (pgx may echo a connection string).
func (s *session) fail(op string, err error) error {
	if err == nil {
		return nil
	}
	if db.IsOutcomeUnknown(err) {
		// The wrapping below may drop the chain (a message with a
		// password, a timeout): the mark goes on top.
		return db.OutcomeUnknown(s.wrapFail(op, err))
	}
	return s.wrapFail(op, err)
}

func (s *session) wrapFail(op string, err error) error {
	var se *db.StatusError
	if errors.As(err, &se) && se.Err == nil {
		return err // a sentinel
	}
	if s.timedOut() {
		// pgconn's error is an i/o timeout or a cancellation; what
		// happened is that the server did not answer in time.
		return fmt.Errorf("%s: %s: no answer within %s=%v: %w", s.d.cfg.name, op, propTimeout, s.timeout, context.DeadlineExceeded)
	}
	msg := err.Error()
	if clean := secret.Line(msg); clean != msg {
		return fmt.Errorf("%s: %s: %s", s.d.cfg.name, op, clean)
	}
	return fmt.Errorf("%s: %s: %w", s.d.cfg.name, op, err)
}

// Read implements db.Session. Unlike the reference, an all-field read
// returns the values too.
func (s *session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	defer s.end(s.begin())
	c := s.conn(key)
	n0 := len(out.Fields)
	for attempt := 0; ; attempt++ {
		err := s.ReadRow(ctx, c, sqlbind.KindRead, table, key, fields, out)
		s.settle(c, err)
		if err == nil {
			return nil
		}
		if s.again(ctx, err, attempt) {
			out.Fields = out.Fields[:n0]
			continue
		}
		return sqlbind.LostBatch(s.rolledBack(c), s.fail("read", err))
	}
}

// ReadRow reads one key on c into out (sqlbind.RowSession).
func (s *session) ReadRow(ctx context.Context, c *sconn, kind byte, table, key string, fields []string, out *db.Record) error {
	if _, err := s.get(ctx, c); err != nil {
		return err
	}
	st, err := s.prepare(ctx, c, kind, table, fields, 1)
	if err != nil {
		return err
	}
	s.params = append(s.params[:0], s.key(key))
	rr := c.conn.ExecStatement(s.wctx(ctx), st.sd, s.params, nil, nil)
	found := false
	for rr.NextRow() {
		found = true
		for i, v := range rr.Values() {
			if i != st.keyCol {
				out.Add(st.names[i], v)
			}
		}
	}
	if _, err := rr.Close(); err != nil {
		return err
	}
	if !found {
		return db.ErrNotFound
	}
	return nil
}

// Scan implements db.Session: rows in YCSB_KEY order from startKey, with
// Record.Key set. Only the start key's shard is asked, as in the reference.
func (s *session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) error {
	defer s.end(s.begin())
	c := s.conn(startKey)
	n0 := out.Len()
	for attempt := 0; ; attempt++ {
		err := s.scan(ctx, c, table, startKey, count, fields, out)
		s.settle(c, err)
		if err == nil {
			return nil
		}
		if s.again(ctx, err, attempt) {
			sqlbind.TruncateRows(out, n0)
			continue
		}
		return sqlbind.LostBatch(s.rolledBack(c), s.fail("scan", err))
	}
}

func (s *session) scan(ctx context.Context, c *sconn, table, startKey string, count int, fields []string, out *db.Rows) error {
	if _, err := s.get(ctx, c); err != nil {
		return err
	}
	if fs := s.d.cfg.fetchSize; fs > 0 && !s.d.cfg.autocommit && count > fs {
		return s.scanCursor(ctx, c, table, startKey, count, fields, out)
	}
	st, err := s.prepare(ctx, c, sqlbind.KindScan, table, fields, 1)
	if err != nil {
		return err
	}
	s.numBuf = strconv.AppendInt(s.numBuf[:0], int64(count), 10)
	s.params = append(s.params[:0], s.key(startKey), s.numBuf)
	rr := c.conn.ExecStatement(s.wctx(ctx), st.sd, s.params, nil, nil)
	for rr.NextRow() {
		s.addRow(st, rr.Values(), out)
	}
	_, err = rr.Close()
	return err
}

func (s *session) addRow(st *stmt, vals [][]byte, out *db.Rows) {
	r := out.Next()
	for i, v := range vals {
		if i == st.keyCol {
			r.SetKey(v)
		} else {
			r.Add(st.names[i], v)
		}
	}
}

// scanCursor honours jdbc.fetchsize as PgJDBC does (only outside autocommit):
// the rows come through a cursor, fetchsize at a time.
func (s *session) scanCursor(ctx context.Context, c *sconn, table, startKey string, count int, fields []string, out *db.Rows) error {
	sql := "DECLARE ycsb_scan NO SCROLL CURSOR FOR " + s.d.cfg.dialect.sql().ScanSQL(table, fields)
	s.numBuf = strconv.AppendInt(s.numBuf[:0], int64(count), 10)
	s.params = append(s.params[:0], s.key(startKey), s.numBuf)
	if _, err := c.conn.ExecParams(s.wctx(ctx), sql, s.params, nil, nil, nil).Close(); err != nil {
		return err
	}
	fetch := "FETCH " + strconv.Itoa(s.d.cfg.fetchSize) + " FROM ycsb_scan"
	var st *stmt
	for {
		rr := c.conn.ExecParams(s.wctx(ctx), fetch, nil, nil, nil, nil)
		if st == nil {
			st = &stmt{keyCol: -1}
			for i, f := range rr.FieldDescriptions() {
				st.names = append(st.names, f.Name)
				if f.Name == "ycsb_key" {
					st.keyCol = i
				}
			}
		}
		n := 0
		for rr.NextRow() {
			s.addRow(st, rr.Values(), out)
			n++
		}
		if _, err := rr.Close(); err != nil {
			return err
		}
		if n < s.d.cfg.fetchSize {
			break
		}
	}
	_, err := c.conn.Exec(s.wctx(ctx), "CLOSE ycsb_scan").ReadAll()
	return err
}

// Update implements db.Session: one row updated is OK, none is
// UNEXPECTED_STATE, as in the reference.
func (s *session) Update(ctx context.Context, table, key string, values []db.Field) error {
	defer s.end(s.begin())
	return s.writeOne(ctx, sqlbind.KindUpdate, "update", table, key, values, true)
}

// Delete implements db.Session.
func (s *session) Delete(ctx context.Context, table, key string) error {
	defer s.end(s.begin())
	return s.writeOne(ctx, sqlbind.KindDelete, "delete", table, key, nil, true)
}

// writeOne runs one write statement, retrying it where the dialect says so.
// With wantOne, a row count other than 1 is UNEXPECTED_STATE. Without
// autocommit, an insert that leaves its transaction open is BATCHED_OK:
// it is done once the COMMIT is (see wrote).
func (s *session) writeOne(ctx context.Context, kind byte, op, table, key string, values []db.Field, wantOne bool) error {
	c := s.conn(key)
	for attempt := 0; ; attempt++ {
		n, err := s.WriteRow(ctx, c, kind, table, key, values)
		s.settle(c, err)
		if err == nil {
			if err = s.wrote(ctx, c, kind == sqlbind.KindInsert); err != nil {
				return err
			}
			return sqlbind.RowCount(n, wantOne)
		}
		if s.again(ctx, err, attempt) {
			continue
		}
		if s.d.cfg.autocommit {
			// The statement commits itself: sent and unanswered, it may
			// have. Without autocommit it is in a transaction that the
			// failure ended uncommitted.
			err = sentUnsure(err)
		}
		return sqlbind.LostBatch(s.rolledBack(c), s.fail(op, err))
	}
}

// rolledBack returns the inserts acknowledged in c's transaction when a
// failure ended it (the connection broke, or settle rolled it back): they
// were never committed. A transaction still open (the statement was not
// sent, or a read found no row) keeps them. Every operation's failure
// reports them (db.LostBatchError), a read's too.
func (s *session) rolledBack(c *sconn) int {
	if c.conn != nil && c.conn.TxStatus() != 'I' {
		return 0
	}
	n := c.uncommitted
	c.uncommitted = 0
	return n
}

// WriteRow runs one single-row insert, update or delete and returns the
// number of rows it touched (sqlbind.RowSession).
func (s *session) WriteRow(ctx context.Context, c *sconn, kind byte, table, key string, values []db.Field) (int64, error) {
	if _, err := s.get(ctx, c); err != nil {
		return 0, err
	}
	st, err := s.prepare(ctx, c, kind, table, sqlbind.RowFields(&s.names, kind, values), 1)
	if err != nil {
		return 0, err
	}
	s.params = sqlbind.RowParams(s.params[:0], kind, s.key(key), values)
	open := !c.conn.IsClosed()
	tag, err := c.conn.ExecStatement(s.wctx(ctx), st.sd, s.params, nil, nil).Close()
	return tag.RowsAffected(), sent(err, open)
}

// wrote counts a write made on c and, with jdbc.autocommit=false, commits
// every db.batchsize writes (every write without it), like the reference's
// insert path; updates and deletes are counted too, so no transaction grows
// without bound during a run phase. An insert the transaction keeps open
// is BATCHED_OK, not the reference's OK: it is not done until its COMMIT
// is. A failed COMMIT fails the write that made it and takes the
// transactions' acknowledged inserts with it (db.LostBatchError).
func (s *session) wrote(ctx context.Context, c *sconn, insert bool) error {
	if s.d.cfg.autocommit {
		return nil
	}
	if !s.writes.Due(s.d.cfg.batchSize) {
		if insert {
			c.uncommitted++
			return db.ErrBatched
		}
		return nil
	}
	lost, err := s.commit(ctx)
	return sqlbind.LostBatch(lost, s.fail("commit", err))
}

// commit commits every connection's open transaction: it returns the
// acknowledged inserts of those whose COMMIT failed, and the first failure
// (sqlbind.Commits).
func (s *session) commit(ctx context.Context) (lost int, first error) {
	var res sqlbind.Commits
	for i := range s.conns {
		c := &s.conns[i]
		if c.conn == nil || c.conn.TxStatus() == 'I' {
			continue
		}
		open := !c.conn.IsClosed()
		_, err := c.conn.Exec(s.wctx(ctx), "COMMIT").ReadAll()
		s.settle(c, err)
		n := c.uncommitted
		c.uncommitted = 0
		if err != nil {
			err = sentUnsure(sent(err, open))
		}
		res.Add(n, err)
	}
	return res.Result()
}

// Insert implements db.Session. With jdbc.batchupdateapi the row is
// buffered (BATCHED_OK) and sent with the batch: every db.batchsize inserts
// (that insert returns OK or the batch's error), at Close, and, without
// db.batchsize, every 1000 rows.
func (s *session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	defer s.end(s.begin())
	c := s.conn(key)
	if s.d.cfg.batchAPI {
		if err := ctx.Err(); err != nil {
			return s.fail("insert", err)
		}
		return s.buf.Insert(ctx, s, sqlbind.ShardIndex(key, len(s.conns)), &c.batch, s.d.cfg.batchSize, table, key, values)
	}
	// With autocommit off and batching, the count is not checked, as in the
	// reference (docs/compatibility.md, "jdbc binding").
	return s.writeOne(ctx, sqlbind.KindInsert, "insert", table, key, values, s.d.cfg.autocommit || s.d.cfg.batchSize <= 0)
}

// Shards implements sqlbind.Inserter.
func (s *session) Shards() int { return len(s.conns) }

// Batch implements sqlbind.Inserter.
func (s *session) Batch(shard int) *sqlbind.Batch { return &s.conns[shard].batch }

// SendBatch implements sqlbind.Inserter.
func (s *session) SendBatch(ctx context.Context, shard int) error {
	c := &s.conns[shard]
	err := s.sendBatch(ctx, c)
	s.settle(c, err)
	if err != nil && s.d.cfg.autocommit {
		err = sentUnsure(err)
	}
	if err == nil && !s.d.cfg.autocommit {
		// Inserts are only ever acknowledged in the batch here: the
		// transactions hold none of their own.
		if _, err = s.commit(ctx); err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}
	return err
}

// RetryBatch implements sqlbind.Inserter.
func (s *session) RetryBatch(ctx context.Context, err error, attempt int) bool {
	return s.again(ctx, err, attempt)
}

// BatchRolledBack implements sqlbind.Inserter: none, inserts being
// acknowledged only in the batch with batching on.
func (s *session) BatchRolledBack(int, error) int { return 0 }

// BatchError implements sqlbind.Inserter.
func (s *session) BatchError(_ int, err error) error { return s.fail("insert batch", err) }

func (s *session) sendBatch(ctx context.Context, c *sconn) error {
	if _, err := s.get(ctx, c); err != nil {
		return err
	}
	b := &c.batch
	cols := len(b.Fields) + 1
	if c.sh.rewriteBatch {
		per := rowsPerInsert(len(b.Fields))
		for start := 0; start < b.Rows; start += per {
			n := min(per, b.Rows-start)
			st, err := s.prepare(ctx, c, sqlbind.KindInsert, b.Table, b.Fields, n)
			if err != nil {
				return err
			}
			s.params = b.AppendParams(s.params[:0], start*cols, (start+n)*cols)
			open := !c.conn.IsClosed()
			tag, err := c.conn.ExecStatement(s.wctx(ctx), st.sd, s.params, nil, nil).Close()
			if err != nil {
				if start > 0 && s.d.cfg.autocommit {
					// The statements before this one went in: some of
					// the batch's rows are in the table.
					return db.OutcomeUnknown(err)
				}
				return sent(err, open)
			}
			if tag.RowsAffected() != int64(n) {
				return fmt.Errorf("batch of %d rows inserted %d", n, tag.RowsAffected())
			}
		}
		return nil
	}
	st, err := s.prepare(ctx, c, sqlbind.KindInsert, b.Table, b.Fields, 1)
	if err != nil {
		return err
	}
	var pb pgconn.Batch
	for r := 0; r < b.Rows; r++ {
		s.params = b.AppendParams(s.params[:0], r*cols, (r+1)*cols)
		pb.ExecStatement(st.sd, s.params, nil, nil)
	}
	// One Sync for the whole batch: the server runs it as one implicit
	// transaction, all or nothing.
	open := !c.conn.IsClosed()
	mrr := c.conn.ExecBatch(s.wctx(ctx), &pb)
	bad := 0
	for mrr.NextResult() {
		if tag, err := mrr.ResultReader().Close(); err == nil && tag.RowsAffected() != 1 {
			bad++
		}
	}
	if err := mrr.Close(); err != nil {
		return sent(err, open)
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d batched inserts wrote no row", bad, b.Rows)
	}
	return nil
}

// Close implements db.Session: buffered inserts are sent, an open
// transaction is committed, and the connections go back to the pool.
func (s *session) Close(ctx context.Context) error {
	start := s.begin()
	if ctx != s.w.Ctx {
		s.unwatch()
	}
	lost, err := s.buf.Close(ctx, s)
	if !s.d.cfg.autocommit {
		n, cerr := s.commit(ctx)
		lost += n
		err = sqlbind.CloseError(err, s.fail("commit", cerr))
	}
	err = sqlbind.LostBatch(lost, err)
	s.end(start)
	s.stopDog()
	s.unwatch()
	for i := range s.conns {
		s.release(&s.conns[i])
	}
	s.AddTo(&s.d.totals)
	return err
}
