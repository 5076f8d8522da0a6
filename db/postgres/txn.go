package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
)

// Transaction properties: sqlbind's.
const (
	propRMWInTxn        = sqlbind.PropRMWInTxn
	propSelectForUpdate = sqlbind.PropSelectForUpdate
	propIsolation       = sqlbind.PropIsolation
	propTxnRetries      = sqlbind.PropTxnRetries
)

// isolation is jdbc.isolation (sqlbind's).
type isolation = sqlbind.Isolation

const (
	readCommitted  = sqlbind.ReadCommitted
	repeatableRead = sqlbind.RepeatableRead
	serializable   = sqlbind.Serializable
)

// readTxnConfig reads the transaction properties into cfg.
func readTxnConfig(r *props.Reader, cfg *config) {
	t := sqlbind.ReadTxn(r, cfg.autocommit)
	cfg.rmwInTxn, cfg.selectForUpdate, cfg.economy = t.RMWInTxn, t.SelectForUpdate, t.Economy
	cfg.isolation, cfg.txnRetries = t.Isolation, t.Retries
}

// setIsolationSQL makes iso every transaction's default on a connection,
// so single statements and jdbc.autocommit=false's transactions run at it.
func setIsolationSQL(iso isolation) string {
	return "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL " + strings.ToUpper(string(iso))
}

// checkIsolation compares what the server reports with what was asked:
// CockroachDB, for one, may run a READ COMMITTED transaction as
// SERIALIZABLE unless the cluster allows it.
func checkIsolation(got string, want isolation, display string) error {
	if isolation(strings.ToLower(strings.TrimSpace(got))) == want {
		return nil
	}
	return props.Errorf(propIsolation, "%s runs transactions at %s, not %s (SHOW transaction_isolation)", display, got, want)
}

// txnPlan is a dialect's control statements of a retried transaction.
type txnPlan = sqlbind.TxnPlan

// planFor returns the plan: PostgreSQL rolls back and begins again;
// CockroachDB's client-side retry protocol (the cockroach_restart
// savepoint, docs/postgres.md, Transactions) restarts within the same
// transaction.
func planFor(d dialect, iso isolation) txnPlan {
	begin := "BEGIN"
	if iso != "" {
		begin += " ISOLATION LEVEL " + strings.ToUpper(string(iso))
	}
	if d.cockroach {
		return txnPlan{
			Begin:   begin + "; SAVEPOINT cockroach_restart",
			Restart: "ROLLBACK TO SAVEPOINT cockroach_restart",
			Release: "RELEASE SAVEPOINT cockroach_restart",
			Commit:  "COMMIT",
		}
	}
	return txnPlan{Begin: begin, Release: "COMMIT"}
}

// runTxn runs body in a transaction by plan (sqlbind.RunTxn), retrying
// serialization failures and deadlocks.
func runTxn(ctx context.Context, c sqlbind.TxnConn, plan txnPlan, body sqlbind.TxnAttempt, maxRetries int, wait func(ctx context.Context, retry int) bool) (int, error) {
	return sqlbind.RunTxn(ctx, c, plan, body, sqlbind.Retry{Retryable: isRetryable, Unsure: sentUnsure, Max: maxRetries, Wait: wait})
}

// isRetryable says whether err asks the client to run the transaction (or
// statement) again: a serialization failure (40001) or a deadlock (40P01).
func isRetryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// Transact implements db.Transactional: BEGIN, body's statements, COMMIT,
// on the session's one shard, run again after a serialization failure or
// deadlock up to jdbc.txnretries times.
func (s *session) Transact(ctx context.Context, body db.TxnBody) error {
	if len(s.conns) != 1 || !s.d.cfg.autocommit {
		return s.fail("transaction", sqlbind.ErrNoTxn)
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
	defer s.end(s.begin())
	if _, err := s.get(ctx, c); err != nil {
		s.settle(c, err)
		return s.fail(op, err)
	}
	s.tx.C, s.body = c, body
	retries, err := runTxn(ctx, s, s.plan, s, s.d.cfg.txnRetries, sqlbind.TxnWait)
	s.tx.C, s.body = nil, nil
	s.Transacted(retries, err)
	s.settle(c, err)
	return s.fail(op, err)
}

// Exec runs a control statement on the transaction's connection
// (sqlbind.TxnConn).
func (s *session) Exec(ctx context.Context, sql string) error {
	c := s.tx.C
	if c.conn == nil || c.conn.IsClosed() {
		return errors.New("connection closed")
	}
	return sent(c.conn.Exec(s.wctx(ctx), sql).Close(), true)
}

// errAborted is a body that returned nil from a transaction the server
// aborted (it went on past a failed statement).
var errAborted = errors.New("a statement of the transaction failed and the transaction was aborted")

// Attempt is one try of the body (sqlbind.TxnAttempt). A body that went on past a
// failed statement is an error: PostgreSQL answers the COMMIT of an
// aborted transaction with ROLLBACK, not with an error.
func (s *session) Attempt(ctx context.Context) error {
	if err := s.body.Attempt(ctx, &s.tx); err != nil {
		return err
	}
	if c := s.tx.C.conn; c != nil && c.TxStatus() == 'E' {
		return errAborted
	}
	return nil
}

// rmwSession is a session that runs read-modify-writes in a transaction
// (jdbc.rmwintxn=true): only it is a db.ReadModifyWriter.
type rmwSession struct {
	*session
	rmw sqlbind.RMW // the operation in flight
}

// ReadModifyWrite implements db.ReadModifyWriter: BEGIN; SELECT … [FOR
// UPDATE]; UPDATE …; COMMIT on the key's shard, run again after a
// serialization failure or deadlock up to jdbc.txnretries times.
func (s *rmwSession) ReadModifyWrite(ctx context.Context, table, key string, fields []string, out *db.Record, values []db.Field) error {
	return s.rmw.Run(ctx, s, table, key, fields, out, values)
}

// Transactions implements db.TxnDriver: the sessions run transactions
// unless jdbc.autocommit is false (every statement is then already in the
// session's long transaction) or db.url names several shards (a
// transaction runs on one, and a transfer's two accounts may be on two).
func (d driver) Transactions(p *props.Properties) error {
	cfg, targets, _, _, err := d.parse(p)
	if err != nil {
		return err
	}
	return sqlbind.CheckTransactions(cfg.autocommit, len(targets))
}

// Sum implements db.Summer, over every shard, each within db.timeout.
func (pd *pgDB) Sum(ctx context.Context, table, field string) (sum, rows int64, err error) {
	for _, sh := range pd.shards {
		s, n, err := pd.sumShard(ctx, sh, table, field)
		if err != nil {
			return 0, 0, err
		}
		sum += s
		rows += n
	}
	return sum, rows, nil
}

func (pd *pgDB) sumShard(ctx context.Context, sh *shard, table, field string) (sum, rows int64, err error) {
	if t := pd.cfg.timeout; t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	c, err := sh.pool.Acquire(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: connect to %s: %v", pd.cfg.name, sh.display, secret.Line(err.Error()))
	}
	defer c.Release()
	if err := c.QueryRow(ctx, pd.cfg.dialect.sumSQL(table, field)).Scan(&rows, &sum); err != nil {
		return 0, 0, fmt.Errorf("%s: %s: sum of %s.%s: %v", pd.cfg.name, sh.display, table, field, secret.Line(err.Error()))
	}
	return sum, rows, nil
}
