package postgres

import (
	"strconv"
	"strings"
)

// Statement kinds, also the first byte of a statement cache key.
const (
	kindRead byte = 'r' + iota
	kindScan
	kindInsert
	kindUpdate
	kindDelete
	kindReadTxn       // a read-modify-write's read
	kindReadForUpdate // the same with jdbc.selectforupdate
)

// dialect holds what differs between PostgreSQL and CockroachDB in the SQL
// we send. Identifiers are written unquoted as the reference does, so the
// workload's lower-case field names match the upper-case FIELDn columns.
type dialect struct {
	cockroach bool
	// upsert writes inserts as UPSERT (cockroach only).
	upsert bool
	// followerReads adds AS OF SYSTEM TIME follower_read_timestamp() to
	// reads and scans (cockroach only).
	followerReads bool
	// families creates one column family per field (cockroach only).
	families bool
}

func (d dialect) from(b *strings.Builder, table string) {
	b.WriteString(" FROM ")
	b.WriteString(table)
	if d.followerReads {
		b.WriteString(" AS OF SYSTEM TIME follower_read_timestamp()")
	}
}

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

// readSQL selects the given fields (all with nil) of one key. Unlike the
// reference, which always selects *, a field subset is asked of the server.
func (d dialect) readSQL(table string, fields []string) string {
	var b strings.Builder
	selectList(&b, false, fields)
	d.from(&b, table)
	b.WriteString(" WHERE YCSB_KEY = $1")
	return b.String()
}

// txnReadSQL is a read-modify-write's read: never a follower read (a
// transaction that writes cannot read in the past), with FOR UPDATE when
// forUpdate, which locks the row until the transaction ends.
func (d dialect) txnReadSQL(table string, fields []string, forUpdate bool) string {
	d.followerReads = false
	s := d.readSQL(table, fields)
	if forUpdate {
		s += " FOR UPDATE"
	}
	return s
}

// scanSQL selects count rows from startKey on in key order; the key column is
// always selected so Record.Key can be set.
func (d dialect) scanSQL(table string, fields []string) string {
	var b strings.Builder
	selectList(&b, true, fields)
	d.from(&b, table)
	b.WriteString(" WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2")
	return b.String()
}

// insertSQL inserts rows rows of the key and fields, as one multi-row INSERT
// when rows > 1 (PgJDBC's reWriteBatchedInserts does the same rewrite).
func (d dialect) insertSQL(table string, fields []string, rows int) string {
	var b strings.Builder
	if d.upsert {
		b.WriteString("UPSERT INTO ")
	} else {
		b.WriteString("INSERT INTO ")
	}
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
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			n++
		}
		b.WriteByte(')')
	}
	return b.String()
}

// updateSQL sets the given fields; the key is the last parameter.
func (d dialect) updateSQL(table string, fields []string) string {
	var b strings.Builder
	b.WriteString("UPDATE ")
	b.WriteString(table)
	b.WriteString(" SET ")
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f)
		b.WriteString("=$")
		b.WriteString(strconv.Itoa(i + 1))
	}
	b.WriteString(" WHERE YCSB_KEY = $")
	b.WriteString(strconv.Itoa(len(fields) + 1))
	return b.String()
}

func (d dialect) deleteSQL(table string) string {
	return "DELETE FROM " + table + " WHERE YCSB_KEY = $1"
}

// createTableSQL is the reference's schema (README, create_table.sql), made
// idempotent; with families each field gets a column family of its own, as
// CockroachDB's own ycsb workload does.
func (d dialect) createTableSQL(table string, fieldCount int) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE IF NOT EXISTS ")
	b.WriteString(table)
	b.WriteString(" (YCSB_KEY VARCHAR(255) PRIMARY KEY")
	for i := 0; i < fieldCount; i++ {
		b.WriteString(", FIELD")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" TEXT")
	}
	if d.families {
		b.WriteString(", FAMILY (YCSB_KEY)")
		for i := 0; i < fieldCount; i++ {
			b.WriteString(", FAMILY (FIELD")
			b.WriteString(strconv.Itoa(i))
			b.WriteByte(')')
		}
	}
	b.WriteByte(')')
	return b.String()
}

// maxParams is the extended protocol's limit on bind parameters.
const maxParams = 65535

// rowsPerInsert is how many rows of nfields fields fit in one statement.
func rowsPerInsert(nfields int) int {
	return maxParams / (nfields + 1)
}

// sumSQL counts table's rows and adds up field read as an integer (the
// closed economy's balances): one statement, so one snapshot.
func (d dialect) sumSQL(table, field string) string {
	return "SELECT COUNT(*), CAST(COALESCE(SUM(CAST(" + field + " AS BIGINT)), 0) AS BIGINT) FROM " + table
}
