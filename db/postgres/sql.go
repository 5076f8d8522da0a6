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

// sql writes the statements: $n placeholders, the follower read after
// the table (never in a transaction's reads: a transaction that writes
// cannot read in the past), UPSERT INTO with cockroach.upsert.
func (d dialect) sql() sqlbind.SQL {
	q := sqlbind.SQL{Params: sqlbind.Dollar}
	if d.followerReads {
		q.From = " AS OF SYSTEM TIME follower_read_timestamp()"
	}
	if d.upsert {
		q.Verb = "UPSERT INTO"
	}
	return q
}

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
