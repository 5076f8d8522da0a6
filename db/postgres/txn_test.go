package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/props"
)

func TestParseIsolation(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want isolation
		ok   bool
	}{
		{"read_committed", readCommitted, true},
		{"REPEATABLE_READ", repeatableRead, true},
		{"serializable", serializable, true},
		{"TRANSACTION_SERIALIZABLE", serializable, true},
		{"TRANSACTION_READ_COMMITTED", readCommitted, true},
		{"repeatable read", repeatableRead, true},
		{"read_uncommitted", "", false},
		{"snapshot", "", false},
		{"", "", false},
	} {
		got, ok := sqlbind.ParseIsolation(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseIsolation(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// Bad transaction properties are bad input naming the property, found
// without a server (db.Checker).
func TestTxnPropertyErrors(t *testing.T) {
	base := map[string]string{"db.url": "postgres://127.0.0.1:5432/ycsb"}
	for _, tc := range []struct {
		name string
		set  map[string]string
		want string
	}{
		{"for update alone", map[string]string{propSelectForUpdate: "true"}, propSelectForUpdate},
		{"rmw without autocommit", map[string]string{propRMWInTxn: "true", "jdbc.autocommit": "false"}, propRMWInTxn},
		{"bad isolation", map[string]string{propIsolation: "snapshot"}, propIsolation},
		{"negative retries", map[string]string{propTxnRetries: "-1"}, propTxnRetries},
		{"too many retries", map[string]string{propTxnRetries: "1001"}, propTxnRetries},
		{"bad rmwintxn", map[string]string{propRMWInTxn: "yes please"}, propRMWInTxn},
		{"retries alone", map[string]string{propTxnRetries: "3"}, propTxnRetries},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := map[string]string{}
			for k, v := range base {
				m[k] = v
			}
			for k, v := range tc.set {
				m[k] = v
			}
			err := driver{name: "postgresql"}.Check(props.FromMap(m))
			if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Check = %v, want one line of bad input naming %s", err, tc.want)
			}
		})
	}
	m := map[string]string{"db.url": "postgres://127.0.0.1:5432/ycsb", propRMWInTxn: "true", propSelectForUpdate: "true",
		propIsolation: "TRANSACTION_REPEATABLE_READ", propTxnRetries: "0"}
	if err := (driver{name: "jdbc"}).Check(props.FromMap(m)); err != nil {
		t.Errorf("Check of good properties: %v", err)
	}
}

func TestCheckIsolation(t *testing.T) {
	if err := checkIsolation("serializable", serializable, "h"); err != nil {
		t.Errorf("match: %v", err)
	}
	err := checkIsolation("serializable", readCommitted, "127.0.0.1:26257")
	if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), propIsolation) {
		t.Errorf("mismatch: %v, want an error naming %s", err, propIsolation)
	}
}

func TestTxnReadSQL(t *testing.T) {
	d := dialect{cockroach: true, followerReads: true}
	if got, want := d.sql().TxnReadSQL("t", []string{"field1"}, true), "SELECT field1 FROM t WHERE YCSB_KEY = $1 FOR UPDATE"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := d.sql().TxnReadSQL("t", nil, false), "SELECT * FROM t WHERE YCSB_KEY = $1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// fakeTxn records the control statements and fails the body (or the
// commit) with the errors it is given, in turn.
type fakeTxn struct {
	log        []string
	bodyErrs   []error
	commitErrs []error
	commitStmt string
}

func (f *fakeTxn) Exec(_ context.Context, sql string) error {
	f.log = append(f.log, sql)
	if sql == f.commitStmt && len(f.commitErrs) > 0 {
		err := f.commitErrs[0]
		f.commitErrs = f.commitErrs[1:]
		return err
	}
	return nil
}

func (f *fakeTxn) Attempt(context.Context) error {
	f.log = append(f.log, "<body>")
	if len(f.bodyErrs) == 0 {
		return nil
	}
	err := f.bodyErrs[0]
	f.bodyErrs = f.bodyErrs[1:]
	return err
}

var (
	errSerialization = &pgconn.PgError{Severity: "ERROR", Code: "40001", Message: "could not serialize access due to concurrent update"}
	errDeadlock      = &pgconn.PgError{Severity: "ERROR", Code: "40P01", Message: "deadlock detected"}
	errOther         = &pgconn.PgError{Severity: "ERROR", Code: "23505", Message: "duplicate key value"}
)

func noWait(context.Context, int) bool { return true }

// The statement sequences of both dialects: PostgreSQL begins anew after a
// rollback, CockroachDB restarts at its cockroach_restart savepoint and
// releases it before the commit.
func TestRunTxnSequence(t *testing.T) {
	pg := planFor(dialect{}, serializable)
	crdb := planFor(dialect{cockroach: true}, "")
	for _, tc := range []struct {
		name        string
		plan        txnPlan
		fake        fakeTxn
		max         int
		wantLog     string
		wantRetries int
		wantErr     string // "" none
		exhausted   bool
		stopWaiting bool // the run ends during the backoff
	}{
		{"pg ok", pg, fakeTxn{}, 10,
			"BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|COMMIT", 0, "", false, false},
		{"pg retried", pg, fakeTxn{bodyErrs: []error{errSerialization, errDeadlock}}, 10,
			"BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|ROLLBACK|BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|ROLLBACK|BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|COMMIT", 2, "", false, false},
		{"pg commit fails then retried", pg, fakeTxn{commitStmt: "COMMIT", commitErrs: []error{errSerialization}}, 10,
			"BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|COMMIT|ROLLBACK|BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|COMMIT", 1, "", false, false},
		{"pg exhausted", pg, fakeTxn{bodyErrs: []error{errSerialization, errSerialization, errSerialization}}, 2,
			"BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|ROLLBACK|BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|ROLLBACK|BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|ROLLBACK", 2,
			"retries exhausted after 2 (jdbc.txnretries=2): ERROR: could not serialize access", true, false},
		{"pg no retries", pg, fakeTxn{bodyErrs: []error{errSerialization}}, 0,
			"BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|ROLLBACK", 0, "retries exhausted after 0", true, false},
		{"pg other error", pg, fakeTxn{bodyErrs: []error{errOther}}, 10,
			"BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|ROLLBACK", 0, "duplicate key", false, false},
		{"crdb ok", crdb, fakeTxn{}, 10,
			"BEGIN; SAVEPOINT cockroach_restart|<body>|RELEASE SAVEPOINT cockroach_restart|COMMIT", 0, "", false, false},
		{"crdb retried", crdb, fakeTxn{bodyErrs: []error{errSerialization}}, 10,
			"BEGIN; SAVEPOINT cockroach_restart|<body>|ROLLBACK TO SAVEPOINT cockroach_restart|<body>|RELEASE SAVEPOINT cockroach_restart|COMMIT", 1, "", false, false},
		{"crdb release retried", crdb, fakeTxn{commitStmt: "RELEASE SAVEPOINT cockroach_restart", commitErrs: []error{errSerialization}}, 10,
			"BEGIN; SAVEPOINT cockroach_restart|<body>|RELEASE SAVEPOINT cockroach_restart|ROLLBACK TO SAVEPOINT cockroach_restart|<body>|RELEASE SAVEPOINT cockroach_restart|COMMIT", 1, "", false, false},
		{"pg ended while waiting", pg, fakeTxn{bodyErrs: []error{errSerialization}}, 10,
			"BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|ROLLBACK", 0, "could not serialize access", false, true},
		{"crdb exhausted", crdb, fakeTxn{bodyErrs: []error{errSerialization, errSerialization}}, 1,
			"BEGIN; SAVEPOINT cockroach_restart|<body>|ROLLBACK TO SAVEPOINT cockroach_restart|<body>|ROLLBACK", 1, "retries exhausted after 1", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.fake
			wait := noWait
			if tc.stopWaiting {
				wait = func(context.Context, int) bool { return false }
			}
			retries, err := runTxn(context.Background(), &f, tc.plan, &f, tc.max, wait)
			if got := strings.Join(f.log, "|"); got != tc.wantLog {
				t.Errorf("statements\n got %s\nwant %s", got, tc.wantLog)
			}
			if retries != tc.wantRetries {
				t.Errorf("retries %d, want %d", retries, tc.wantRetries)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one with %q", err, tc.wantErr)
			}
			if got := errors.Is(err, sqlbind.ErrRetriesExhausted); got != tc.exhausted {
				t.Errorf("exhausted %v, want %v (%v)", got, tc.exhausted, err)
			}
			if tc.exhausted && !isRetryable(err) {
				t.Errorf("the database's error is not kept: %v", err)
			}
		})
	}
}

func TestIsRetryable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{errSerialization, true},
		{fmt.Errorf("commit: %w", errDeadlock), true},
		{errOther, false},
		{errors.New("40001"), false},
	} {
		if got := isRetryable(tc.err); got != tc.want {
			t.Errorf("isRetryable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// A COMMIT cut off after it was sent may have been made: the transaction
// is of unknown outcome and is not run again, which would apply it twice.
// One the server refused (a serialization failure) was not made and is
// run again.
func TestRunTxnCommitUnknown(t *testing.T) {
	pg := planFor(dialect{}, serializable)
	const begin = "BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|COMMIT|ROLLBACK"
	for _, tc := range []struct {
		name    string
		commit  error
		unknown bool
		retries int
		wantLog string
	}{
		{"cut", sent(errors.New("unexpected EOF"), true), true, 0, begin},
		{"cut, pgconn's conn closed", sent(fmt.Errorf("%w", pgconn.ErrConnClosed), true), true, 0, begin},
		{"refused", sent(errSerialization, true), false, 1, begin + "|BEGIN ISOLATION LEVEL SERIALIZABLE|<body>|COMMIT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeTxn{commitStmt: "COMMIT", commitErrs: []error{tc.commit}}
			retries, err := runTxn(context.Background(), &f, pg, &f, 10, noWait)
			if got := strings.Join(f.log, "|"); got != tc.wantLog || retries != tc.retries {
				t.Errorf("statements %s, %d retries; want %s, %d", got, retries, tc.wantLog, tc.retries)
			}
			if db.IsOutcomeUnknown(err) != tc.unknown {
				t.Errorf("error %v: outcome unknown %v, want %v", err, !tc.unknown, tc.unknown)
			}
		})
	}
}
