package postgres

import (
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/db/internal/sqlbind"
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

// sql writes the statements: $n placeholders, and the follower read
// after the table.
func (d dialect) sql() sqlbind.SQL {
	return sqlbind.SQL{Params: sqlbind.Dollar, From: func(b *strings.Builder, table string) {
		b.WriteString(" FROM ")
		b.WriteString(table)
		if d.followerReads {
			b.WriteString(" AS OF SYSTEM TIME follower_read_timestamp()")
		}
	}}
}

// ReadSQL selects the given fields (all with nil) of one key.
func (d dialect) ReadSQL(table string, fields []string) string { return d.sql().Read(table, fields) }

// TxnReadSQL is a read-modify-write's read: never a follower read (a
// transaction that writes cannot read in the past), with FOR UPDATE when
// forUpdate, which locks the row until the transaction ends.
func (d dialect) TxnReadSQL(table string, fields []string, forUpdate bool) string {
	d.followerReads = false
	s := d.ReadSQL(table, fields)
	if forUpdate {
		s += " FOR UPDATE"
	}
	return s
}

// ScanSQL selects count rows from startKey on in key order.
func (d dialect) ScanSQL(table string, fields []string) string { return d.sql().Scan(table, fields) }

// InsertSQL inserts rows rows of the key and fields (UPSERT with
// cockroach.upsert).
func (d dialect) InsertSQL(table string, fields []string, rows int) string {
	verb := "INSERT INTO"
	if d.upsert {
		verb = "UPSERT INTO"
	}
	return d.sql().Insert(verb, table, fields, rows)
}

func (d dialect) UpdateSQL(table string, fields []string) string {
	return d.sql().Update(table, fields)
}

func (d dialect) DeleteSQL(table string) string { return d.sql().Delete(table) }

// createTableSQL is the reference's schema; with families each field gets
// a column family of its own, as CockroachDB's own ycsb workload does.
func (d dialect) createTableSQL(table string, fieldCount int) string {
	var fam strings.Builder
	if d.families {
		fam.WriteString(", FAMILY (YCSB_KEY)")
		for i := 0; i < fieldCount; i++ {
			fam.WriteString(", FAMILY (FIELD")
			fam.WriteString(strconv.Itoa(i))
			fam.WriteByte(')')
		}
	}
	return sqlbind.CreateTable(table, fieldCount, "", fam.String(), "")
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
