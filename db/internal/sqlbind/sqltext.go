package sqlbind

import (
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/db"
)

// Statement kinds, also the first byte of a statement cache key.
const (
	KindRead byte = 'r' + iota
	KindScan
	KindInsert
	KindUpdate
	KindDelete
	KindReadTxn       // a read-modify-write's read
	KindReadForUpdate // the same with jdbc.selectforupdate
)

// Params is a protocol's placeholder style: PostgreSQL's $1, $2 … or
// MySQL's ?.
type Params bool

const (
	Dollar   Params = false // $n
	Question Params = true  // ?
)

// write appends placeholder n (1-based).
func (p Params) write(b *strings.Builder, n int) {
	if p == Question {
		b.WriteByte('?')
		return
	}
	b.WriteByte('$')
	b.WriteString(strconv.Itoa(n))
}

// SQL writes the reference's statements. Identifiers are written unquoted
// as the reference does, so the workload's lower-case field names match
// the upper-case FIELDn columns. It is a Dialect: a binding's dialect
// gives one by its configuration.
type SQL struct {
	Params Params
	// From follows " FROM table" in reads and scans (a follower read, an
	// index hint); TxnFrom in a transaction's reads.
	From, TxnFrom string
	// Verb starts an insert: "" is INSERT INTO (a dialect's UPSERT INTO).
	Verb string
}

func from(b *strings.Builder, table, suffix string) {
	b.WriteString(" FROM ")
	b.WriteString(table)
	b.WriteString(suffix)
}

// ReadSQL is Read (Dialect).
func (q SQL) ReadSQL(table string, fields []string) string { return q.Read(table, fields) }

// TxnReadSQL is a read-modify-write's read, From replaced by TxnFrom,
// with FOR UPDATE when forUpdate, which locks the row until the
// transaction ends (Dialect).
func (q SQL) TxnReadSQL(table string, fields []string, forUpdate bool) string {
	q.From = q.TxnFrom
	s := q.Read(table, fields)
	if forUpdate {
		s += " FOR UPDATE"
	}
	return s
}

// ScanSQL is Scan (Dialect).
func (q SQL) ScanSQL(table string, fields []string) string { return q.Scan(table, fields) }

// InsertSQL is Insert with Verb (Dialect).
func (q SQL) InsertSQL(table string, fields []string, rows int) string {
	verb := q.Verb
	if verb == "" {
		verb = "INSERT INTO"
	}
	return q.Insert(verb, table, fields, rows)
}

// UpdateSQL is Update (Dialect).
func (q SQL) UpdateSQL(table string, fields []string) string { return q.Update(table, fields) }

// DeleteSQL is Delete (Dialect).
func (q SQL) DeleteSQL(table string) string { return q.Delete(table) }

// selectList writes SELECT and the fields (* for nil), the key first with
// withKey.
func selectList(b *strings.Builder, withKey bool, fields []string) {
	if fields == nil {
		b.WriteString("SELECT *")
		return
	}
	b.WriteString("SELECT ")
	if withKey {
		b.WriteString("YCSB_KEY")
		if len(fields) > 0 {
			b.WriteByte(',')
		}
	}
	b.WriteString(strings.Join(fields, ","))
}

// Read selects the given fields (all with nil) of one key. Unlike the
// reference, which always selects *, a field subset is asked of the server.
func (q SQL) Read(table string, fields []string) string {
	var b strings.Builder
	q.selectWhere(&b, table, false, fields, " = ")
	return b.String()
}

// selectWhere writes a SELECT of fields (the key first with withKey) from
// table, of the rows whose key is op the first parameter.
func (q SQL) selectWhere(b *strings.Builder, table string, withKey bool, fields []string, op string) {
	selectList(b, withKey, fields)
	from(b, table, q.From)
	b.WriteString(" WHERE YCSB_KEY")
	b.WriteString(op)
	q.Params.write(b, 1)
}

// Scan selects count rows from startKey on in key order (the reference's
// fix for its issues #171 and #468); the key column is always selected so
// Record.Key can be set.
func (q SQL) Scan(table string, fields []string) string {
	var b strings.Builder
	q.selectWhere(&b, table, true, fields, " >= ")
	b.WriteString(" ORDER BY YCSB_KEY LIMIT ")
	q.Params.write(&b, 2)
	return b.String()
}

// Insert inserts rows rows of the key and fields, as one multi-row INSERT
// when rows > 1 (PgJDBC's reWriteBatchedInserts and Connector/J's
// rewriteBatchedStatements do the same rewrite); verb is INSERT INTO or a
// dialect's UPSERT INTO.
func (q SQL) Insert(verb, table string, fields []string, rows int) string {
	var b strings.Builder
	b.WriteString(verb)
	b.WriteByte(' ')
	b.WriteString(table)
	b.WriteString(" (YCSB_KEY")
	for _, f := range fields {
		b.WriteByte(',')
		b.WriteString(f)
	}
	b.WriteString(") VALUES ")
	n := 1
	for r := 0; r < rows; r++ {
		if r > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for c := 0; c <= len(fields); c++ {
			if c > 0 {
				b.WriteByte(',')
			}
			q.Params.write(&b, n)
			n++
		}
		b.WriteByte(')')
	}
	return b.String()
}

// Update sets the given fields; the key is the last parameter.
func (q SQL) Update(table string, fields []string) string {
	var b strings.Builder
	b.WriteString("UPDATE ")
	b.WriteString(table)
	b.WriteString(" SET ")
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f)
		b.WriteByte('=')
		q.Params.write(&b, i+1)
	}
	b.WriteString(" WHERE YCSB_KEY = ")
	q.Params.write(&b, len(fields)+1)
	return b.String()
}

// Delete removes one key.
func (q SQL) Delete(table string) string {
	var b strings.Builder
	b.WriteString("DELETE FROM ")
	b.WriteString(table)
	b.WriteString(" WHERE YCSB_KEY = ")
	q.Params.write(&b, 1)
	return b.String()
}

// CreateTable is the reference's schema (README, create_table.sql), made
// idempotent: keyNote follows the key's PRIMARY KEY, extra the columns
// (inside the parentheses), tail the closing one.
func CreateTable(table string, fieldCount int, keyNote, extra, tail string) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE IF NOT EXISTS ")
	b.WriteString(table)
	b.WriteString(" (YCSB_KEY VARCHAR(255) PRIMARY KEY")
	b.WriteString(keyNote)
	for i := 0; i < fieldCount; i++ {
		b.WriteString(", FIELD")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" TEXT")
	}
	b.WriteString(extra)
	b.WriteByte(')')
	b.WriteString(tail)
	return b.String()
}

// Dialect writes a binding's statements of each kind.
type Dialect interface {
	ReadSQL(table string, fields []string) string
	TxnReadSQL(table string, fields []string, forUpdate bool) string
	ScanSQL(table string, fields []string) string
	InsertSQL(table string, fields []string, rows int) string
	UpdateSQL(table string, fields []string) string
	DeleteSQL(table string) string
}

// Statement is d's statement of kind (rows: an insert's rows).
func Statement(d Dialect, kind byte, table string, fields []string, rows int) string {
	switch kind {
	case KindRead:
		return d.ReadSQL(table, fields)
	case KindReadTxn:
		return d.TxnReadSQL(table, fields, false)
	case KindReadForUpdate:
		return d.TxnReadSQL(table, fields, true)
	case KindScan:
		return d.ScanSQL(table, fields)
	case KindInsert:
		return d.InsertSQL(table, fields, rows)
	case KindUpdate:
		return d.UpdateSQL(table, fields)
	case KindDelete:
		return d.DeleteSQL(table)
	}
	return ""
}

// AppendCacheKey appends to k the key of a session's prepared statement:
// kind, table, fields (nil: all) and, past one, an insert's rows.
func AppendCacheKey(k []byte, kind byte, table string, fields []string, rows int) []byte {
	k = append(k, kind)
	k = append(k, table...)
	if fields == nil {
		k = append(k, 0, '*')
	}
	for _, f := range fields {
		k = append(k, 0)
		k = append(k, f...)
	}
	if rows > 1 {
		k = append(k, 1)
		k = strconv.AppendInt(k, int64(rows), 10)
	}
	return k
}

// RowFields are the fields of kind's single-row statement: values' names
// in *names' storage, none for a delete.
func RowFields(names *[]string, kind byte, values []db.Field) []string {
	if kind == KindDelete {
		return nil
	}
	*names = (*names)[:0]
	for i := range values {
		*names = append(*names, values[i].Name)
	}
	return *names
}

// RowParams appends kind's single-row statement's parameters to dst: an
// insert's key first, then the values, an update's or delete's key last.
func RowParams(dst [][]byte, kind byte, key []byte, values []db.Field) [][]byte {
	if kind == KindInsert {
		dst = append(dst, key)
	}
	for i := range values {
		dst = append(dst, values[i].Value)
	}
	if kind != KindInsert {
		dst = append(dst, key)
	}
	return dst
}

// RowCount is a write's outcome by the rows it touched: with wantOne, a
// count other than 1 is UNEXPECTED_STATE.
func RowCount(n int64, wantOne bool) error {
	if wantOne && n != 1 {
		return db.ErrUnexpectedState
	}
	return nil
}
