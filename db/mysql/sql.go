package mysql

import (
	"github.com/goycsb/ycsb/db/internal/sqlbind"
)

// dialect is what the configuration changes in the SQL we send.
// Identifiers are written unquoted as the reference does; MySQL's column
// names are not case-sensitive, so the workload's field0 is FIELD0.
type dialect struct {
	// forceIndex adds FORCE INDEX(PRIMARY) to reads and scans
	// (go-ycsb's mysql.force_index).
	forceIndex bool
	// engine is the storage engine of a table we create; "": the
	// server's default.
	engine storageEngine
	// clustered marks the primary key CLUSTERED for TiDB in a comment
	// the other servers ignore (go-ycsb's tidb.cluster_index).
	clustered bool
}

// sql writes the statements: ? placeholders, and the index hint after
// the table, in a transaction's reads too.
func (d dialect) sql() sqlbind.SQL {
	var hint string
	if d.forceIndex {
		hint = " FORCE INDEX(`PRIMARY`)"
	}
	return sqlbind.SQL{Params: sqlbind.Question, From: hint, TxnFrom: hint}
}

// createTableSQL is the reference's schema on the chosen engine.
func (d dialect) createTableSQL(table string, fieldCount int) string {
	key, tail := "", ""
	if d.clustered {
		key = " /*T![clustered_index] CLUSTERED */"
	}
	if d.engine != "" {
		tail = " ENGINE=" + d.engine.sqlName()
	}
	return sqlbind.CreateTable(table, fieldCount, key, "", tail)
}

// sumSQL counts table's rows, adds up field read as an integer (the
// closed economy's balances) and counts the values that are no integer,
// which CAST would read as 0 with only a warning: one statement, so one
// snapshot.
func (d dialect) sumSQL(table, field string) string {
	return "SELECT COUNT(*), CAST(COALESCE(SUM(CAST(" + field + " AS SIGNED)), 0) AS SIGNED), " +
		"COALESCE(SUM(" + field + " NOT REGEXP '^-?[0-9]+$'), 0) FROM " + table
}

// maxParams is the protocol's limit on a prepared statement's parameters.
const maxParams = 65535

// maxInsertBytes bounds the values of one multi-row INSERT, well under
// max_allowed_packet's default (16 MiB on MariaDB 10.11, 64 MiB on MySQL
// 8): a larger batch is sent as several statements in one transaction.
const maxInsertBytes = 4 << 20

// rowsPerInsert is how many rows of nfields fields fit in one statement's
// parameters.
func rowsPerInsert(nfields int) int {
	return maxParams / (nfields + 1)
}
