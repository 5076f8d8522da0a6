package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/props"
)

// Transaction properties (ours; CockroachDB's `workload run ycsb` has the
// first two as --read-modify-write-in-txn and --select-for-update).
const (
	propRMWInTxn        = "jdbc.rmwintxn"
	propSelectForUpdate = "jdbc.selectforupdate"
	propIsolation       = "jdbc.isolation"
	propTxnRetries      = "jdbc.txnretries"
)

// defaultTxnRetries is jdbc.txnretries' default; maxTxnRetries its bound.
const (
	defaultTxnRetries = 10
	maxTxnRetries     = 1000
)

// isolation is jdbc.isolation: "" leaves the server's default.
type isolation string

const (
	readCommitted  isolation = "read committed"
	repeatableRead isolation = "repeatable read"
	serializable   isolation = "serializable"
)

// parseIsolation reads read_committed, repeatable_read or serializable, in
// any case, also spelled as JDBC's constants (TRANSACTION_SERIALIZABLE) or
// as SQL's ("repeatable read").
func parseIsolation(v string) (isolation, bool) {
	l := strings.ToLower(strings.TrimSpace(v))
	l = strings.TrimPrefix(l, "transaction_")
	l = strings.ReplaceAll(l, "_", " ")
	switch isolation(l) {
	case readCommitted, repeatableRead, serializable:
		return isolation(l), true
	}
	return "", false
}

// readTxnConfig reads the transaction properties into cfg.
func readTxnConfig(r *props.Reader, cfg *config) {
	cfg.rmwInTxn = r.Bool(propRMWInTxn, false)
	cfg.selectForUpdate = r.Bool(propSelectForUpdate, false)
	cfg.economy = r.Bool(db.PropPhaseTransactions, false)
	if cfg.selectForUpdate && !cfg.rmwInTxn && !cfg.economy {
		r.Errorf(propSelectForUpdate, "needs %s=true or the closed-economy workload: FOR UPDATE locks rows only within a transaction", propRMWInTxn)
	}
	if cfg.rmwInTxn && !cfg.autocommit {
		r.Errorf(propRMWInTxn, "needs jdbc.autocommit=true: with it false every statement is already in the session's long transaction")
	}
	if v, ok := r.Props().Get(propIsolation); ok {
		iso, ok := parseIsolation(v)
		if !ok {
			r.Fail(props.Invalid(propIsolation, v, "read_committed, repeatable_read or serializable"))
		}
		cfg.isolation = iso
	}
	cfg.txnRetries = r.Int(propTxnRetries, defaultTxnRetries,
		props.Range(fmt.Sprintf("an integer from 0 to %d", maxTxnRetries), func(n int64) bool { return n >= 0 && n <= maxTxnRetries }))
	if r.Has(propTxnRetries) && !cfg.rmwInTxn && !cfg.economy {
		r.Errorf(propTxnRetries, "needs %s=true or the closed-economy workload: it bounds the retries of their transactions (single statements have db.maxretries)", propRMWInTxn)
	}
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
type txnPlan struct {
	begin   string // opens the transaction
	restart string // after a retryable failure; "" rolls back and begins anew
	release string // ends a successful attempt
	commit  string // after release; "" none
}

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
			begin:   begin + "; SAVEPOINT cockroach_restart",
			restart: "ROLLBACK TO SAVEPOINT cockroach_restart",
			release: "RELEASE SAVEPOINT cockroach_restart",
			commit:  "COMMIT",
		}
	}
	return txnPlan{begin: begin, release: "COMMIT"}
}

// txnConn runs a control statement on the transaction's connection.
type txnConn interface {
	exec(ctx context.Context, sql string) error
}

// txnBody is one attempt of a transaction's statements.
type txnBody interface {
	attempt(ctx context.Context) error
}

// errRetriesExhausted marks a transaction that failed on its last allowed
// retry; the database's error follows it.
var errRetriesExhausted = errors.New("retries exhausted")

// runTxn runs body in a transaction by plan, again after each retryable
// failure (serialization failure, deadlock) up to maxRetries times, waiting
// by wait(retry) before each; it returns the retries made. A failure rolls
// the transaction back; one that a further retry could have fixed says so
// (errRetriesExhausted) with the database's own error.
func runTxn(ctx context.Context, c txnConn, plan txnPlan, body txnBody, maxRetries int, wait func(ctx context.Context, retry int) bool) (retries int, err error) {
	if err := c.exec(ctx, plan.begin); err != nil {
		rollback(c)
		return 0, fmt.Errorf("begin: %w", err)
	}
	for {
		err = body.attempt(ctx)
		if err == nil {
			if err = c.exec(ctx, plan.release); err == nil && plan.commit != "" {
				err = c.exec(ctx, plan.commit)
			}
			if err == nil {
				return retries, nil
			}
			// Sent and unanswered, the commit may have been made: such a
			// transaction is not retried (isRetryable), lest it be
			// applied twice.
			err = fmt.Errorf("commit: %w", sentUnsure(err))
		}
		if !isRetryable(err) || ctx.Err() != nil {
			rollback(c)
			return retries, err
		}
		if retries >= maxRetries {
			rollback(c)
			return retries, fmt.Errorf("%w after %d (%s=%d): %w", errRetriesExhausted, retries, propTxnRetries, maxRetries, err)
		}
		// Counted once it runs: a run that ends during the wait made no
		// retry.
		if !wait(ctx, retries+1) {
			rollback(c)
			return retries, err
		}
		retries++
		if plan.restart != "" {
			err = c.exec(ctx, plan.restart)
		} else if err = c.exec(ctx, "ROLLBACK"); err == nil {
			err = c.exec(ctx, plan.begin)
		}
		if err != nil {
			rollback(c)
			return retries, fmt.Errorf("restart: %w", err)
		}
	}
}

// rollback ends a failed transaction; on a broken connection there is
// nothing to end (the session drops it).
func rollback(c txnConn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.exec(ctx, "ROLLBACK")
}

// txnWait sleeps before retry n (1, 2, …): jittered exponential backoff,
// uniform in [d/2, d] for d = 1 ms doubling up to 128 ms, so contending
// clients do not retry in step.
func txnWait(ctx context.Context, n int) bool {
	d := time.Millisecond << min(n-1, 7)
	return within.Sleep(ctx, d/2+rand.N(d/2+1))
}

// isRetryable says whether err asks the client to run the transaction (or
// statement) again: a serialization failure (40001) or a deadlock (40P01).
func isRetryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// txn is the transaction in progress that a body runs its statements
// through (db.Txn): on one connection of the session.
type txn struct {
	s *session
	c *sconn
}

// Read implements db.Txn: SELECT, with FOR UPDATE under
// jdbc.selectforupdate.
func (t *txn) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	kind := kindReadTxn
	if t.s.d.cfg.selectForUpdate {
		kind = kindReadForUpdate
	}
	return t.s.read(ctx, t.c, kind, table, key, fields, out)
}

// Update implements db.Txn.
func (t *txn) Update(ctx context.Context, table, key string, values []db.Field) error {
	n, err := t.s.write(ctx, t.c, kindUpdate, table, key, values)
	if err != nil {
		return err
	}
	if n != 1 {
		return db.ErrUnexpectedState
	}
	return nil
}

// errNoTxn refuses a transaction where the session cannot run one; the
// closed economy is refused before the run for the same reasons
// (driver.Transactions).
var errNoTxn = errors.New("no transactions with jdbc.autocommit=false or several shards")

// Transact implements db.Transactional: BEGIN, body's statements, COMMIT,
// on the session's one shard, run again after a serialization failure or
// deadlock up to jdbc.txnretries times.
func (s *session) Transact(ctx context.Context, body db.TxnBody) error {
	if len(s.conns) != 1 || !s.d.cfg.autocommit {
		return s.fail("transaction", errNoTxn)
	}
	return s.transact(ctx, &s.conns[0], body, "transaction")
}

// transact runs body in a transaction on c; op names it in errors.
func (s *session) transact(ctx context.Context, c *sconn, body db.TxnBody, op string) error {
	defer s.end(s.begin())
	if _, err := s.get(ctx, c); err != nil {
		s.settle(c, err)
		return s.fail(op, err)
	}
	s.tx.c, s.body = c, body
	retries, err := runTxn(ctx, s, s.plan, s, s.d.cfg.txnRetries, txnWait)
	s.tx.c, s.body = nil, nil
	s.retries += int64(retries)
	s.retried += int64(retries)
	if errors.Is(err, errRetriesExhausted) {
		s.exhausted++
	}
	s.settle(c, err)
	return s.fail(op, err)
}

// exec runs a control statement on the transaction's connection (txnConn).
func (s *session) exec(ctx context.Context, sql string) error {
	c := s.tx.c
	if c.conn == nil || c.conn.IsClosed() {
		return errors.New("connection closed")
	}
	return sent(c.conn.Exec(s.wctx(ctx), sql).Close(), true)
}

// errAborted is a body that returned nil from a transaction the server
// aborted (it went on past a failed statement).
var errAborted = errors.New("a statement of the transaction failed and the transaction was aborted")

// attempt is one try of the body (txnBody). A body that went on past a
// failed statement is an error: PostgreSQL answers the COMMIT of an
// aborted transaction with ROLLBACK, not with an error.
func (s *session) attempt(ctx context.Context) error {
	if err := s.body.Attempt(ctx, &s.tx); err != nil {
		return err
	}
	if c := s.tx.c.conn; c != nil && c.TxStatus() == 'E' {
		return errAborted
	}
	return nil
}

// rmwSession is a session that runs read-modify-writes in a transaction
// (jdbc.rmwintxn=true): only it is a db.ReadModifyWriter.
type rmwSession struct {
	*session
	rmw rmwBody // the operation in flight (no closure per operation)
}

// rmwBody is a read-modify-write's statements: the read, then the update.
type rmwBody struct {
	table, key string
	fields     []string
	out        *db.Record
	n0         int
	values     []db.Field
}

func (b *rmwBody) Attempt(ctx context.Context, tx db.Txn) error {
	b.out.Fields = b.out.Fields[:b.n0]
	if err := tx.Read(ctx, b.table, b.key, b.fields, b.out); err != nil {
		return err
	}
	return tx.Update(ctx, b.table, b.key, b.values)
}

// ReadModifyWrite implements db.ReadModifyWriter: BEGIN; SELECT … [FOR
// UPDATE]; UPDATE …; COMMIT on the key's shard, run again after a
// serialization failure or deadlock up to jdbc.txnretries times.
func (s *rmwSession) ReadModifyWrite(ctx context.Context, table, key string, fields []string, out *db.Record, values []db.Field) error {
	n0 := len(out.Fields)
	s.rmw = rmwBody{table: table, key: key, fields: fields, out: out, n0: n0, values: values}
	err := s.transact(ctx, s.conn(key), &s.rmw, "read-modify-write")
	s.rmw = rmwBody{}
	if err != nil {
		out.Fields = out.Fields[:n0] // no read of a transaction that did not commit
	}
	return err
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
	if !cfg.autocommit {
		return props.Errorf("jdbc.autocommit", "false: each transfer runs in a transaction of its own, and with jdbc.autocommit=false every statement is in the session's one long transaction (leave it true)")
	}
	if len(targets) > 1 {
		return props.Errorf("db.url", "%d shards: a transaction runs on one, and a transfer's two accounts may be on two (give one URL)", len(targets))
	}
	return nil
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
