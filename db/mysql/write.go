package mysql

import (
	"context"
	"fmt"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
)

// Update implements db.Session: one row matched is OK, none is
// UNEXPECTED_STATE, as in the reference.
func (s *session) Update(ctx context.Context, table, key string, values []db.Field) error {
	return s.writeOne(ctx, sqlbind.KindUpdate, "update", table, key, values, true)
}

// Delete implements db.Session.
func (s *session) Delete(ctx context.Context, table, key string) error {
	return s.writeOne(ctx, sqlbind.KindDelete, "delete", table, key, nil, true)
}

// writeOne runs one write statement, retrying it after a deadlock or lock
// wait timeout up to db.maxretries times. With wantOne, a row count other
// than 1 is UNEXPECTED_STATE. Without autocommit, an insert that leaves
// its transaction open is BATCHED_OK: it is done once the COMMIT is (see
// wrote).
func (s *session) writeOne(ctx context.Context, kind byte, op, table, key string, values []db.Field, wantOne bool) error {
	c := s.conn(key)
	for attempt := 0; ; attempt++ {
		n, err := s.WriteRow(ctx, c, kind, table, key, values)
		if err == nil {
			if err = s.wrote(ctx, c, kind == sqlbind.KindInsert); err != nil {
				return err
			}
			return sqlbind.RowCount(n, wantOne)
		}
		s.after(c)
		if s.again(ctx, err, attempt) {
			continue
		}
		if s.d.cfg.Autocommit {
			// The statement commits itself: sent and unanswered, it may
			// have. Without autocommit it is in a transaction that the
			// failure ended uncommitted.
			err = sentUnsure(err)
		}
		return sqlbind.LostBatch(s.rolledBack(c, err), s.fail(op, c, err))
	}
}

// rolledBack returns the inserts acknowledged in c's transaction when the
// failure err ended it: the connection broke (the server rolls back the
// transaction of a connection that goes away) or InnoDB chose it as a
// deadlock's victim. Any other failure ends only its statement, and the
// transaction keeps them (a lock wait timeout too, with the server's
// default innodb_rollback_on_timeout=OFF). Every operation's failure
// reports them (db.LostBatchError), a read's too.
func (s *session) rolledBack(c *sconn, err error) int {
	if c.conn != nil && c.inTxn && !isDeadlock(err) {
		return 0
	}
	c.inTxn = false // the next statement starts a new one
	n := c.uncommitted
	c.uncommitted = 0
	return n
}

// WriteRow runs one single-row insert, update or delete and returns the
// number of rows it touched (sqlbind.RowSession).
func (s *session) WriteRow(ctx context.Context, c *sconn, kind byte, table, key string, values []db.Field) (int64, error) {
	if err := s.get(ctx, c); err != nil {
		return 0, err
	}
	st, err := s.prepare(ctx, c, kind, table, sqlbind.RowFields(&s.names, kind, values), 1)
	if err != nil {
		return 0, err
	}
	s.params = sqlbind.RowParams(s.params[:0], kind, s.key(key), values)
	for i, v := range s.params {
		s.arg(i, v)
	}
	res, err := st.e.ExecContext(s.dctx(ctx), s.args[:len(s.params)])
	if err != nil {
		return 0, sent(err)
	}
	rows, err := res.RowsAffected()
	return rows, err
}

// wrote counts a write made on c and, with jdbc.autocommit=false, commits
// every db.batchsize writes (every write without it), like the reference's
// insert path; updates and deletes are counted too, so no transaction
// grows without bound during a run phase. An insert the transaction keeps
// open is BATCHED_OK, not the reference's OK: it is not done until its
// COMMIT is. A failed COMMIT fails the write that made it and takes the
// transactions' acknowledged inserts with it (db.LostBatchError).
func (s *session) wrote(ctx context.Context, c *sconn, insert bool) error {
	if s.d.cfg.Autocommit {
		return nil
	}
	if !s.writes.Due(s.d.cfg.BatchSize) {
		if insert {
			c.uncommitted++
			return db.ErrBatched
		}
		return nil
	}
	lost, err := s.commit(ctx)
	return sqlbind.LostBatch(lost, s.fail("commit", nil, err))
}

// commit commits every connection's open transaction: it returns the
// acknowledged inserts of those whose COMMIT failed, and the first failure
// (sqlbind.Commits).
func (s *session) commit(ctx context.Context) (lost int, first error) {
	var res sqlbind.Commits
	for i := range s.conns {
		c := &s.conns[i]
		if c.conn == nil || !c.inTxn {
			continue
		}
		_, err := c.exec.ExecContext(s.dctx(ctx), "COMMIT", nil)
		c.inTxn = false
		n := c.uncommitted
		c.uncommitted = 0
		if err != nil {
			s.after(c)
			err = sentUnsure(sent(err))
		}
		res.Add(n, err)
	}
	return res.Result()
}

// Insert implements db.Session. With jdbc.batchupdateapi (or go-ycsb's
// batch.size) the row is buffered (BATCHED_OK) and sent with the batch:
// every db.batchsize inserts (that insert returns OK or the batch's
// error), at Close, and, without db.batchsize, every 1000 rows.
func (s *session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	c := s.conn(key)
	if !s.d.cfg.BatchAPI {
		// With autocommit off and batching, the count is not checked, as
		// in the reference (docs/compatibility.md, "jdbc binding").
		return s.writeOne(ctx, sqlbind.KindInsert, "insert", table, key, values, s.d.cfg.Autocommit || s.d.cfg.BatchSize <= 0)
	}
	if err := ctx.Err(); err != nil {
		return s.fail("insert", nil, err)
	}
	return s.buf.Insert(ctx, s, sqlbind.ShardIndex(key, len(s.conns)), &c.batch, s.d.cfg.BatchSize, table, key, values)
}

// Shards implements sqlbind.Inserter.
func (s *session) Shards() int { return len(s.conns) }

// Batch implements sqlbind.Inserter.
func (s *session) Batch(shard int) *sqlbind.Batch { return &s.conns[shard].batch }

// SendBatch implements sqlbind.Inserter: c's buffered rows, all of them in
// one transaction, are in the table together or not at all; when the
// outcome of its commit is unknown, the error says so and all its rows
// are of unknown outcome.
func (s *session) SendBatch(ctx context.Context, shard int) error {
	c := &s.conns[shard]
	err := s.sendBatch(ctx, c)
	if err != nil {
		s.after(c)
	}
	if err == nil && !s.d.cfg.Autocommit {
		// No insert of this mode is left uncommitted (BATCHED_OK rows
		// are in c.batch), so the COMMIT loses none but the batch's.
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

// BatchRolledBack implements sqlbind.Inserter: a transaction the failure
// rolled back (a deadlock's) is over, with any inserts it held.
func (s *session) BatchRolledBack(shard int, err error) int {
	return s.rolledBack(&s.conns[shard], err)
}

// BatchError implements sqlbind.Inserter.
func (s *session) BatchError(shard int, err error) error {
	return s.fail("insert batch", &s.conns[shard], err)
}

// sendBatch inserts c's batch: one multi-row INSERT when it fits in one
// statement (atomic on its own), else several in one transaction: its own
// with autocommit, the session's without, from a savepoint that a failure
// goes back to (a failed statement ends only itself: the rows of the
// earlier ones, counted lost, would be committed with the transaction).
func (s *session) sendBatch(ctx context.Context, c *sconn) error {
	if err := s.get(ctx, c); err != nil {
		return err
	}
	b := &c.batch
	chunks := s.chunks(b)
	own := len(chunks) > 1 && s.d.cfg.Autocommit
	saved := len(chunks) > 1 && !s.d.cfg.Autocommit
	if own {
		if _, err := c.exec.ExecContext(s.dctx(ctx), "START TRANSACTION", nil); err != nil {
			return fmt.Errorf("begin: %w", err)
		}
	}
	if saved {
		if _, err := c.exec.ExecContext(s.dctx(ctx), "SAVEPOINT ycsb_batch", nil); err != nil {
			return fmt.Errorf("savepoint: %w", err)
		}
	}
	start := 0
	for _, n := range chunks {
		if err := s.insertRows(ctx, c, b, start, n); err != nil {
			if own {
				s.rollback(c)
				return err // not committed: none of the rows is in the table
			}
			if saved && start > 0 {
				s.rollbackBatch(c, err)
			}
			if s.d.cfg.Autocommit {
				return sentUnsure(err)
			}
			return err
		}
		start += n
	}
	if own {
		if _, err := c.exec.ExecContext(s.dctx(ctx), "COMMIT", nil); err != nil {
			return fmt.Errorf("commit: %w", sentUnsure(sent(err)))
		}
	}
	return nil
}

// chunks splits b into the rows of each INSERT statement: within the
// protocol's parameters and maxInsertBytes, the same count for each but
// the last, so that the statements prepared for them are reused.
func (s *session) chunks(b *sqlbind.Batch) []int {
	per := rowsPerInsert(len(b.Fields))
	biggest := 0
	for r := 0; r < b.Rows; r++ {
		biggest = max(biggest, b.Bytes(r, r+1))
	}
	if biggest > 0 {
		per = max(1, min(per, maxInsertBytes/biggest))
	}
	var out []int
	for left := b.Rows; left > 0; left -= per {
		out = append(out, min(per, left))
	}
	return out
}

func (s *session) insertRows(ctx context.Context, c *sconn, b *sqlbind.Batch, start, n int) error {
	st, err := s.prepare(ctx, c, sqlbind.KindInsert, b.Table, b.Fields, n)
	if err != nil {
		return err
	}
	cols := len(b.Fields) + 1
	for i := 0; i < n*cols; i++ {
		s.arg(i, b.Value(start*cols+i))
	}
	res, err := st.e.ExecContext(s.dctx(ctx), s.args[:n*cols])
	if err != nil {
		return sent(err)
	}
	if got, err := res.RowsAffected(); err != nil || got != int64(n) {
		return fmt.Errorf("batch of %d rows inserted %d (%v)", n, got, err)
	}
	return nil
}

// rollbackBatch takes the rows of a batch that failed (err) out of the
// session's transaction on c, back to its savepoint; when that fails, the
// connection is dropped, which rolls the whole transaction back. A broken
// connection or a deadlock has already rolled it back.
func (s *session) rollbackBatch(c *sconn, err error) {
	if isDeadlock(err) {
		return
	}
	s.after(c)
	if c.conn == nil {
		return
	}
	if _, err := c.exec.ExecContext(context.Background(), "ROLLBACK TO SAVEPOINT ycsb_batch", nil); err != nil {
		s.drop(c)
		c.broken = true
	}
}

// rollback ends a failed transaction of c's, if its connection still
// stands.
func (s *session) rollback(c *sconn) {
	if c.conn == nil {
		return
	}
	if _, err := c.exec.ExecContext(context.Background(), "ROLLBACK", nil); err != nil {
		s.after(c)
	}
}

// Close implements db.Session: buffered inserts are sent, an open
// transaction is committed, and the connections are closed.
func (s *session) Close(ctx context.Context) error {
	if ctx != s.w.Ctx {
		s.unwatch()
	}
	lost, err := s.buf.Close(ctx, s)
	if !s.d.cfg.Autocommit {
		n, cerr := s.commit(ctx)
		lost += n
		err = sqlbind.CloseError(err, s.fail("commit", nil, cerr))
	}
	err = sqlbind.LostBatch(lost, err)
	s.unwatch()
	for i := range s.conns {
		s.drop(&s.conns[i])
	}
	s.AddTo(&s.d.totals)
	return err
}
