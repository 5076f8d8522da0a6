package workload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unsafe"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
)

// ClosedEconomyWorkload is YCSB+T's closed-economy workload (Dey, Fekete,
// Nambiar, Röhm, ICDE Workshops 2014), as its forks run it (akon-dey/YCSB,
// ClosedEconomyWorkload.java): accounts whose balances add up to a total,
// transfers between two of them in one transaction, and a check of the
// total after the run. It is the CoreWorkload with one field a record (the
// balance) and the transfer in place of the read-modify-write, plus the
// check (a Validator).
type ClosedEconomyWorkload struct {
	*CoreWorkload
}

// Economy is the closed economy's configuration.
type Economy struct {
	// TotalCash is the money of all accounts (totalcash), spread over
	// recordcount accounts: each holds TotalCash/recordcount, and the
	// first TotalCash%recordcount one more.
	TotalCash int64
	// ValidateByQuery adds up the balances in one statement of the
	// binding's (db.Summer) rather than by reading every account.
	ValidateByQuery bool
}

// totalCashNames are totalcash's spellings: ours and the forks' two.
var totalCashNames = []string{"totalcash", "total_cash", "totalCash"}

// economyProperties are the closed economy's properties beyond the
// CoreWorkload's.
var economyProperties = append([]string{"validatebyquery"}, totalCashNames...)

// defaultTotalCash is the forks' default.
const defaultTotalCash = 1_000_000

// readEconomy reads the closed economy's properties and checks the
// CoreWorkload's against it.
func (c *Config) readEconomy(r *props.Reader, transactions bool) {
	e := &Economy{}
	c.Economy = e
	name := ""
	for _, n := range totalCashNames {
		if r.Has(n) {
			if name != "" {
				r.Errorf(n, "%s is given too: give the total once", name)
				return
			}
			name = n
		}
	}
	if name == "" {
		name = totalCashNames[0]
	}
	e.TotalCash = r.Int64(name, defaultTotalCash, props.NonNegative, props.Range(fmt.Sprintf("at most %d", int64(MaxCount)), func(n int64) bool { return n <= MaxCount }))
	e.ValidateByQuery = r.Bool("validatebyquery", true)
	if r.Err() != nil {
		return
	}
	switch {
	case !r.Has("recordcount") || r.Int64("recordcount", 0) == 0:
		r.Errorf("recordcount", "missing or 0: the closed economy needs its number of accounts")
	case c.DataIntegrity:
		r.Errorf("dataintegrity", "true: the closed economy's records hold balances, not the values dataintegrity checks")
	case c.Mix[opInsert] > 0:
		r.Errorf("insertproportion", "%g: a new account would bring money into the closed economy (set insertproportion=0)", c.Mix[opInsert])
	case r.Has("updateproportion") && c.Mix[opUpdate] > 0:
		r.Errorf("updateproportion", "%g: an update would write a balance from nothing and break the closed economy's invariant; its transfers are readmodifywriteproportion (set updateproportion=0)", c.Mix[opUpdate])
	case !e.ValidateByQuery && c.Clients.Split():
		r.Errorf("validatebyquery", "false with client.count=%d: reading the accounts one by one while other clients still transfer counts money twice or not at all (leave it true: one statement sees one snapshot)", c.Clients.Count)
	}
	// The forks' default of 0.05 would corrupt the economy.
	c.Mix[opUpdate] = 0
	if transactions && c.Mix[opReadModifyWrite] > 0 && c.InsertCount < 2 && r.Err() == nil {
		r.Errorf("recordcount", "a transfer needs two accounts to choose from, and there are %d", c.InsertCount)
	}
}

// balance is what account keynum holds after the load.
func (e *Economy) balance(keynum, accounts int64) int64 {
	b := e.TotalCash / accounts
	if keynum < e.TotalCash%accounts {
		b++
	}
	return b
}

// balanceValues is the record of account keynum at the load: its balance
// in its one field.
func (wk *Worker) balanceValues(keynum int64) []db.Field {
	w := wk.w
	buf := strconv.AppendInt(wk.valueBufs[0][:0], w.economy.balance(keynum, w.RecordCount), 10)
	wk.valueBufs[0] = buf
	wk.values = append(wk.values[:0], db.Field{Name: w.FieldNames[0], Value: buf})
	return wk.values
}

// transfer is one transfer's statements (db.TxnBody): read both accounts,
// move one unit from the first to the second if it has one, write both.
// As in the forks, money moves from the higher account number to the
// lower, so that concurrent transfers never undo each other, and every
// transaction reads and writes its accounts in the same order: no locks
// taken in opposite orders, no deadlocks.
type transfer struct {
	table    string
	balance  []string // the balance field, the only one read
	from, to []byte   // the accounts' keys
	rec      db.Record
	vals     [1]db.Field
	num      []byte
}

// errNoBalance is a read that returned no field.
var errNoBalance = errors.New("no balance field")

// Attempt implements db.TxnBody.
func (t *transfer) Attempt(ctx context.Context, tx db.Txn) error {
	from := unsafe.String(unsafe.SliceData(t.from), len(t.from))
	to := unsafe.String(unsafe.SliceData(t.to), len(t.to))
	a, err := t.read(ctx, tx, from)
	if err != nil {
		return err
	}
	b, err := t.read(ctx, tx, to)
	if err != nil {
		return err
	}
	if a > 0 {
		a--
		b++
	}
	if err := t.write(ctx, tx, from, a); err != nil {
		return err
	}
	return t.write(ctx, tx, to, b)
}

func (t *transfer) read(ctx context.Context, tx db.Txn, key string) (int64, error) {
	t.rec.Reset()
	if err := tx.Read(ctx, t.table, key, t.balance, &t.rec); err != nil {
		return 0, err
	}
	return balanceIn(&t.rec, key)
}

// balanceIn is the balance in rec, account key's one field: the transfers'
// reading and the validation's by reads alike.
func balanceIn(rec *db.Record, key string) (int64, error) {
	if rec.Len() == 0 {
		return 0, fmt.Errorf("account %s: %w", key, errNoBalance)
	}
	v := rec.Fields[0].Value
	n, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(v), len(v)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("account %s: balance %q is not an integer (was the table loaded by the closed economy?)", key, v)
	}
	return n, nil
}

func (t *transfer) write(ctx context.Context, tx db.Txn, key string, balance int64) error {
	t.num = strconv.AppendInt(t.num[:0], balance, 10)
	t.vals[0] = db.Field{Name: t.balance[0], Value: t.num}
	return tx.Update(ctx, t.table, key, t.vals[:])
}

// doTransfer chooses two accounts and runs a transfer between them,
// measured with its retries as one READ-MODIFY-WRITE: the forks' name for
// it, and the operation it replaces in the mix.
func (wk *Worker) doTransfer(ctx context.Context) {
	w := wk.w
	a, b := wk.nextKeynum(), wk.nextKeynum()
	for b == a {
		b = wk.nextKeynum()
	}
	if a < b {
		a, b = b, a
	}
	t := &wk.transfer
	t.from = AppendKey(t.from[:0], w.insertKeynum(a), w.ZeroPadding, w.OrderedInserts)
	t.to = AppendKey(t.to[:0], w.insertKeynum(b), w.ZeroPadding, w.OrderedInserts)
	_ = wk.s.Transact(ctx, measurement.ReadModifyWrite, t)
}

// Operations is every run-phase operation the closed economy's workers
// started (the forks' actual operation count): call it once they have
// returned.
func (w *ClosedEconomyWorkload) Operations() int64 {
	w.workersMu.Lock()
	defer w.workersMu.Unlock()
	var n int64
	for _, wk := range w.workers {
		n += wk.started
	}
	return n
}

// Count adds up the balances now, as Validate does: by one statement of
// the binding's (db.Summer) with validatebyquery, else by reading every
// account through a session of its own. The run counts them before a
// run's first transfer, so that the run is judged on its own change.
func (w *ClosedEconomyWorkload) Count(ctx context.Context, database db.DB) (Tally, error) {
	var t Tally
	var err error
	if w.ValidationMethod(database) == ByQuery {
		t.Cash, t.Accounts, err = database.(db.Summer).Sum(ctx, w.Table, w.FieldNames[0])
	} else {
		t.Cash, t.Accounts, err = w.sumByReads(ctx, database, w.FieldNames[0])
	}
	return t, err
}

// Validate checks the closed economy's invariant once the workers have
// returned: the balances add up to what they did at the run's start
// (start, from Count; nil when it was not counted: then to totalcash).
func (w *ClosedEconomyWorkload) Validate(ctx context.Context, database db.DB, start *Start) *Validation {
	e := w.economy
	method := w.ValidationMethod(database)
	end, err := w.Count(ctx, database)
	if err != nil {
		return &Validation{Status: ValidationError, Method: method, TotalCash: e.TotalCash,
			ExpectedAccounts: w.RecordCount, Operations: w.Operations(), Error: err.Error()}
	}
	return NewValidation(method, e.TotalCash, w.RecordCount, w.Operations(), start, end)
}

// ValidationMethod is how Validate will add up the balances on database:
// by one statement (ByQuery) when it is a db.Summer and
// validatebyquery is on, else by reading every account.
func (w *ClosedEconomyWorkload) ValidationMethod(database db.DB) string {
	if _, ok := database.(db.Summer); ok && w.economy.ValidateByQuery {
		return ByQuery
	}
	return ByReads
}

// sumByReads reads every account's balance, one read each.
func (w *ClosedEconomyWorkload) sumByReads(ctx context.Context, database db.DB, field string) (sum, found int64, err error) {
	s, err := database.Session(ctx, 0, 1)
	if err != nil {
		return 0, 0, fmt.Errorf("session: %w", err)
	}
	defer s.Close(context.WithoutCancel(ctx))
	fields := []string{field}
	var rec db.Record
	var key []byte
	for k := int64(0); k < w.RecordCount; k++ {
		key = AppendKey(key[:0], k, w.ZeroPadding, w.OrderedInserts)
		rec.Reset()
		err := s.Read(ctx, w.Table, string(key), fields, &rec)
		if errors.Is(err, db.ErrNotFound) {
			continue
		}
		if err != nil {
			return 0, 0, fmt.Errorf("read %s: %w", key, err)
		}
		n, err := balanceIn(&rec, string(key))
		if err != nil {
			return 0, 0, err
		}
		sum += n
		found++
	}
	return sum, found, nil
}

// The closed economy is registered after the CoreWorkload (core.go's
// init runs first, files initializing in name order): the first Kind is
// kindOf's default.
func init() {
	Register(&Kind{
		Name:       "closedeconomy",
		Classes:    closedEconomyClasses(),
		Properties: economyProperties,
		Configure:  (*Config).readEconomy,
		Build: func(ctx context.Context, c *Config, stderr io.Writer) (Workload, error) {
			w, err := Build(ctx, c, stderr)
			if err != nil {
				return nil, err
			}
			return &ClosedEconomyWorkload{w}, nil
		},
	})
}

// closedEconomyClasses are ClosedEconomyClasses without ours (the
// Kind's Name), which RunsTransactions reads whole.
func closedEconomyClasses() []string {
	var out []string
	for _, c := range ClosedEconomyClasses {
		if c != "closedeconomy" {
			out = append(out, c)
		}
	}
	return out
}
