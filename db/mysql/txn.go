package mysql

import (
	"context"
	"errors"
	"fmt"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
)

// plan is a transaction's control statements: MySQL rolls back and begins
// again after a deadlock.
var plan = sqlbind.TxnPlan{Begin: "START TRANSACTION", Release: "COMMIT"}

// Transact implements db.Transactional: START TRANSACTION, body's
// statements, COMMIT, on the session's one shard, run again after a
// deadlock or lock wait timeout up to jdbc.txnretries times.
func (s *session) Transact(ctx context.Context, body db.TxnBody) error {
	if len(s.conns) != 1 || !s.d.cfg.Autocommit {
		return s.fail("transaction", nil, sqlbind.ErrNoTxn)
	}
	return s.transact(ctx, &s.conns[0], body, "transaction")
}

// TransactRMW runs a read-modify-write's body on key's shard
// (sqlbind.RMWTransactor, for rmwSession).
func (s *session) TransactRMW(ctx context.Context, key string, body db.TxnBody) error {
	return s.transact(ctx, s.conn(key), body, "read-modify-write")
}

// transact runs body in a transaction on c; op names it in errors.
func (s *session) transact(ctx context.Context, c *sconn, body db.TxnBody, op string) error {
	if err := s.get(ctx, c); err != nil {
		s.after(c)
		return s.fail(op, c, err)
	}
	s.tx.C, s.body = c, body
	retries, err := sqlbind.RunTxn(ctx, s, plan, s, sqlbind.Retry{
		Retryable: isRetryable, Unsure: sentUnsure, Max: s.d.cfg.txn.Retries, Wait: sqlbind.TxnWait})
	s.tx.C, s.body = nil, nil
	s.Transacted(retries, err)
	if err != nil {
		s.after(c)
	}
	return s.fail(op, c, err)
}

// Exec runs a control statement on the transaction's connection
// (sqlbind.TxnConn).
func (s *session) Exec(ctx context.Context, sql string) error {
	c := s.tx.C
	if c.conn == nil {
		return errors.New("connection closed")
	}
	_, err := c.exec.ExecContext(s.dctx(ctx), sql, nil)
	return sent(err)
}

// Attempt is one try of the body (sqlbind.TxnAttempt).
func (s *session) Attempt(ctx context.Context) error {
	return s.body.Attempt(ctx, &s.tx)
}

// rmwSession is a session that runs read-modify-writes in a transaction
// (jdbc.rmwintxn=true): only it is a db.ReadModifyWriter.
type rmwSession struct {
	*session
	rmw sqlbind.RMW // the operation in flight
}

// ReadModifyWrite implements db.ReadModifyWriter: START TRANSACTION;
// SELECT … [FOR UPDATE]; UPDATE …; COMMIT on the key's shard, run again
// after a deadlock or lock wait timeout up to jdbc.txnretries times.
func (s *rmwSession) ReadModifyWrite(ctx context.Context, table, key string, fields []string, out *db.Record, values []db.Field) error {
	return s.rmw.Run(ctx, s, table, key, fields, out, values)
}

// Sum implements db.Summer, over every shard, each within db.timeout.
func (md *mysqlDB) Sum(ctx context.Context, table, field string) (sum, rows int64, err error) {
	for _, sh := range md.shards {
		var s, n, notInt int64
		err := md.withConn(ctx, sh, func(ctx context.Context, q querier) error {
			return q.row(ctx, md.cfg.dialect.sumSQL(table, field), &n, &s, &notInt)
		})
		if err == nil && notInt > 0 {
			err = fmt.Errorf("%d values are no integer", notInt)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %s: sum of %s.%s: %v", md.cfg.name, sh.display, table, field, err)
		}
		sum += s
		rows += n
	}
	return sum, rows, nil
}
