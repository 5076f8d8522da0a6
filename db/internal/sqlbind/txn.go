package sqlbind

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/props"
)

// Transaction properties (ours; CockroachDB's `workload run ycsb` has the
// first two as --read-modify-write-in-txn and --select-for-update).
const (
	PropRMWInTxn        = "jdbc.rmwintxn"
	PropSelectForUpdate = "jdbc.selectforupdate"
	PropIsolation       = "jdbc.isolation"
	PropTxnRetries      = "jdbc.txnretries"
)

// DefaultTxnRetries is jdbc.txnretries' default; MaxTxnRetries its bound.
const (
	DefaultTxnRetries = 10
	MaxTxnRetries     = 1000
)

// Isolation is jdbc.isolation: "" leaves the server's default.
type Isolation string

// The isolation levels jdbc.isolation names, as SQL spells them.
const (
	ReadCommitted  Isolation = "read committed"
	RepeatableRead Isolation = "repeatable read"
	Serializable   Isolation = "serializable"
)

// ParseIsolation reads read_committed, repeatable_read or serializable, in
// any case, also spelled as JDBC's constants (TRANSACTION_SERIALIZABLE) or
// as SQL's ("repeatable read").
func ParseIsolation(v string) (Isolation, bool) {
	l := strings.ToLower(strings.TrimSpace(v))
	l = strings.TrimPrefix(l, "transaction_")
	l = strings.ReplaceAll(l, "_", " ")
	switch Isolation(l) {
	case ReadCommitted, RepeatableRead, Serializable:
		return Isolation(l), true
	}
	return "", false
}

// Txn is the transaction properties.
type Txn struct {
	RMWInTxn        bool      // jdbc.rmwintxn
	Economy         bool      // the closed economy's transfers are transactions
	SelectForUpdate bool      // jdbc.selectforupdate
	Isolation       Isolation // jdbc.isolation; "": the server's default
	Retries         int       // jdbc.txnretries
}

// ReadTxn reads the transaction properties; autocommit is jdbc.autocommit.
func ReadTxn(r *props.Reader, autocommit bool) Txn {
	var t Txn
	t.RMWInTxn = r.Bool(PropRMWInTxn, false)
	t.SelectForUpdate = r.Bool(PropSelectForUpdate, false)
	t.Economy = r.Bool(db.PropPhaseTransactions, false)
	if t.SelectForUpdate && !t.RMWInTxn && !t.Economy {
		r.Errorf(PropSelectForUpdate, "needs %s=true or the closed-economy workload: FOR UPDATE locks rows only within a transaction", PropRMWInTxn)
	}
	if t.RMWInTxn && !autocommit {
		r.Errorf(PropRMWInTxn, "needs jdbc.autocommit=true: with it false every statement is already in the session's long transaction")
	}
	if v, ok := r.Props().Get(PropIsolation); ok {
		iso, ok := ParseIsolation(v)
		if !ok {
			r.Fail(props.Invalid(PropIsolation, v, "read_committed, repeatable_read or serializable"))
		}
		t.Isolation = iso
	}
	t.Retries = r.Int(PropTxnRetries, DefaultTxnRetries,
		props.Range(fmt.Sprintf("an integer from 0 to %d", MaxTxnRetries), func(n int64) bool { return n >= 0 && n <= MaxTxnRetries }))
	if r.Has(PropTxnRetries) && !t.RMWInTxn && !t.Economy {
		r.Errorf(PropTxnRetries, "needs %s=true or the closed-economy workload: it bounds the retries of their transactions (single statements have db.maxretries)", PropRMWInTxn)
	}
	return t
}

// CheckTransactions says whether sessions can run the closed economy's
// transfers as transactions (db.TxnDriver): not with jdbc.autocommit=false
// (every statement is then already in the session's long transaction) nor
// with several shards (a transaction runs on one, and a transfer's two
// accounts may be on two).
func CheckTransactions(autocommit bool, shards int) error {
	if !autocommit {
		return props.Errorf("jdbc.autocommit", "false: each transfer runs in a transaction of its own, and with jdbc.autocommit=false every statement is in the session's one long transaction (leave it true)")
	}
	if shards > 1 {
		return props.Errorf("db.url", "%d shards: a transaction runs on one, and a transfer's two accounts may be on two (give one URL)", shards)
	}
	return nil
}

// TxnPlan is a database's control statements of a retried transaction.
type TxnPlan struct {
	Begin   string // opens the transaction
	Restart string // after a retryable failure; "" rolls back and begins anew
	Release string // ends a successful attempt
	Commit  string // after Release; "" none
}

// TxnConn runs a control statement on the transaction's connection.
type TxnConn interface {
	Exec(ctx context.Context, sql string) error
}

// TxnAttempt is one attempt of a transaction's statements.
type TxnAttempt interface {
	Attempt(ctx context.Context) error
}

// Retry is how a database's failures are retried.
type Retry struct {
	// Retryable says that err asks the client to run the transaction
	// again (a serialization failure, a deadlock).
	Retryable func(err error) bool
	// Unsure marks the error of a commit as of unknown outcome when the
	// commit was sent and not answered (db.OutcomeUnknown).
	Unsure func(err error) error
	// Max is the retries allowed (jdbc.txnretries).
	Max int
	// Wait sleeps before retry n (1, 2, …); false: the run ended.
	Wait func(ctx context.Context, n int) bool
}

// ErrRetriesExhausted marks a transaction that failed on its last allowed
// retry; the database's error follows it.
var ErrRetriesExhausted = errors.New("retries exhausted")

// RunTxn runs body in a transaction by plan, again after each retryable
// failure up to r.Max times, waiting by r.Wait before each; it returns the
// retries made. A failure rolls the transaction back; one that a further
// retry could have fixed says so (ErrRetriesExhausted) with the database's
// own error.
func RunTxn(ctx context.Context, c TxnConn, plan TxnPlan, body TxnAttempt, r Retry) (retries int, err error) {
	if err := c.Exec(ctx, plan.Begin); err != nil {
		rollback(c)
		return 0, fmt.Errorf("begin: %w", err)
	}
	for {
		err = body.Attempt(ctx)
		if err == nil {
			if err = c.Exec(ctx, plan.Release); err == nil && plan.Commit != "" {
				err = c.Exec(ctx, plan.Commit)
			}
			if err == nil {
				return retries, nil
			}
			// Sent and unanswered, the commit may have been made: such a
			// transaction is not retried (not Retryable), lest it be
			// applied twice.
			err = fmt.Errorf("commit: %w", r.Unsure(err))
		}
		if !r.Retryable(err) || db.IsOutcomeUnknown(err) || ctx.Err() != nil {
			rollback(c)
			return retries, err
		}
		if retries >= r.Max {
			rollback(c)
			return retries, fmt.Errorf("%w after %d (%s=%d): %w", ErrRetriesExhausted, retries, PropTxnRetries, r.Max, err)
		}
		// Counted once it runs: a run that ends during the wait made no
		// retry.
		if !r.Wait(ctx, retries+1) {
			rollback(c)
			return retries, err
		}
		retries++
		if plan.Restart != "" {
			err = c.Exec(ctx, plan.Restart)
		} else if err = c.Exec(ctx, "ROLLBACK"); err == nil {
			err = c.Exec(ctx, plan.Begin)
		}
		if err != nil {
			rollback(c)
			return retries, fmt.Errorf("restart: %w", err)
		}
	}
}

// rollback ends a failed transaction; on a broken connection there is
// nothing to end (the session drops it).
func rollback(c TxnConn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.Exec(ctx, "ROLLBACK")
}

// TxnWait sleeps before retry n (1, 2, …): jittered exponential backoff,
// uniform in [d/2, d] for d = 1 ms doubling up to 128 ms, so contending
// clients do not retry in step.
func TxnWait(ctx context.Context, n int) bool {
	d := time.Millisecond << min(n-1, 7)
	return within.Sleep(ctx, d/2+rand.N(d/2+1))
}

// RMW is a read-modify-write as a transaction's body: the read, then the
// update (db.TxnBody). A session keeps one and reuses it, so an operation
// makes no closure.
type RMW struct {
	table, key string
	fields     []string
	out        *db.Record
	n0         int
	values     []db.Field
}

// Attempt implements db.TxnBody; each attempt reads afresh.
func (b *RMW) Attempt(ctx context.Context, tx db.Txn) error {
	b.out.Fields = b.out.Fields[:b.n0]
	if err := tx.Read(ctx, b.table, b.key, b.fields, b.out); err != nil {
		return err
	}
	return tx.Update(ctx, b.table, b.key, b.values)
}

// RMWTransactor runs a read-modify-write's body in a transaction on the
// key's shard.
type RMWTransactor interface {
	TransactRMW(ctx context.Context, key string, body db.TxnBody) error
}

// Run is db.ReadModifyWriter's ReadModifyWrite through t: out gets the
// read of the attempt that committed, and nothing when none did.
func (b *RMW) Run(ctx context.Context, t RMWTransactor, table, key string, fields []string, out *db.Record, values []db.Field) error {
	n0 := len(out.Fields)
	*b = RMW{table: table, key: key, fields: fields, out: out, n0: n0, values: values}
	err := t.TransactRMW(ctx, key, b)
	*b = RMW{}
	if err != nil {
		out.Fields = out.Fields[:n0]
	}
	return err
}

// ErrNoTxn refuses a transaction where the session cannot run one; the
// closed economy is refused before the run for the same reasons
// (CheckTransactions).
var ErrNoTxn = errors.New("no transactions with jdbc.autocommit=false or several shards")

// RowSession is a session's single-row statements on its connection C,
// through which InTxn runs a transaction's.
type RowSession[C any] interface {
	// ReadRow reads key's fields into out by the statement of kind.
	ReadRow(ctx context.Context, c C, kind byte, table, key string, fields []string, out *db.Record) error
	// WriteRow runs kind's single-row write and returns the rows it touched.
	WriteRow(ctx context.Context, c C, kind byte, table, key string, values []db.Field) (int64, error)
}

// InTxn is the transaction in progress that a body runs its statements
// through (db.Txn): on the connection C of session S.
type InTxn[C any] struct {
	S RowSession[C]
	C C
	// ForUpdate reads with SELECT ... FOR UPDATE (jdbc.selectforupdate).
	ForUpdate bool
}

// Read implements db.Txn: SELECT, with FOR UPDATE under
// jdbc.selectforupdate.
func (t *InTxn[C]) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	kind := KindReadTxn
	if t.ForUpdate {
		kind = KindReadForUpdate
	}
	return t.S.ReadRow(ctx, t.C, kind, table, key, fields, out)
}

// Update implements db.Txn: one row touched, or UNEXPECTED_STATE.
func (t *InTxn[C]) Update(ctx context.Context, table, key string, values []db.Field) error {
	n, err := t.S.WriteRow(ctx, t.C, KindUpdate, table, key, values)
	if err != nil {
		return err
	}
	return RowCount(n, true)
}
