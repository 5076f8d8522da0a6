package mysql

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

func (d dialect) from(b *strings.Builder, table string) {
	b.WriteString(" FROM ")
	b.WriteString(table)
	if d.forceIndex {
		b.WriteString(" FORCE INDEX(`PRIMARY`)")
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

// readSQL selects the given fields (all with nil) of one key.
func (d dialect) readSQL(table string, fields []string) string {
	var b strings.Builder
	selectList(&b, false, fields)
	d.from(&b, table)
	b.WriteString(" WHERE YCSB_KEY = ?")
	return b.String()
}

// txnReadSQL is a read-modify-write's read, with FOR UPDATE when
// forUpdate, which locks the row until the transaction ends.
func (d dialect) txnReadSQL(table string, fields []string, forUpdate bool) string {
	s := d.readSQL(table, fields)
	if forUpdate {
		s += " FOR UPDATE"
	}
	return s
}

// scanSQL selects count rows from startKey on in key order (the
// reference's fix for its issues #171 and #468; go-ycsb's scan has no
// ORDER BY); the key column is always selected so Record.Key can be set.
func (d dialect) scanSQL(table string, fields []string) string {
	var b strings.Builder
	selectList(&b, true, fields)
	d.from(&b, table)
	b.WriteString(" WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?")
	return b.String()
}

// insertSQL inserts rows rows of the key and fields, as one multi-row
// INSERT when rows > 1 (Connector/J's rewriteBatchedStatements does the
// same rewrite).
func (d dialect) insertSQL(table string, fields []string, rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(table)
	b.WriteString(" (YCSB_KEY")
	for _, f := range fields {
		b.WriteByte(',')
		b.WriteString(f)
	}
	b.WriteString(") VALUES ")
	row := "(?" + strings.Repeat(",?", len(fields)) + ")"
	for r := 0; r < rows; r++ {
		if r > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row)
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
		b.WriteString("=?")
	}
	b.WriteString(" WHERE YCSB_KEY = ?")
	return b.String()
}

func (d dialect) deleteSQL(table string) string {
	return "DELETE FROM " + table + " WHERE YCSB_KEY = ?"
}

// createTableSQL is the reference's schema (README, create_table.sql),
// made idempotent, on the chosen engine.
func (d dialect) createTableSQL(table string, fieldCount int) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE IF NOT EXISTS ")
	b.WriteString(table)
	b.WriteString(" (YCSB_KEY VARCHAR(255) PRIMARY KEY")
	if d.clustered {
		b.WriteString(" /*T![clustered_index] CLUSTERED */")
	}
	for i := 0; i < fieldCount; i++ {
		b.WriteString(", FIELD")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" TEXT")
	}
	b.WriteByte(')')
	if d.engine != "" {
		b.WriteString(" ENGINE=")
		b.WriteString(d.engine.sqlName())
	}
	return b.String()
}

// sumSQL counts table's rows and adds up field read as an integer (the
// closed economy's balances): one statement, so one snapshot.
func (d dialect) sumSQL(table, field string) string {
	return "SELECT COUNT(*), CAST(COALESCE(SUM(CAST(" + field + " AS SIGNED)), 0) AS SIGNED) FROM " + table
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
