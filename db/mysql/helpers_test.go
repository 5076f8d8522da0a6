package mysql

import (
	sqldriver "database/sql/driver"
	"strings"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/internal/sqlbind"
)

var errBadConn = sqldriver.ErrBadConn

// batchOf builds batches for tests.
type batchOf struct{ sqlbind.Batch }

// fill adds rows rows of fields fields of size bytes each.
func (b *batchOf) fill(fields, rows, size int) {
	vals := make([]db.Field, fields)
	for i := range vals {
		vals[i] = db.Field{Name: "field" + string(rune('0'+i%10)), Value: []byte(strings.Repeat("x", size))}
	}
	for r := 0; r < rows; r++ {
		b.Add("t", "k", vals)
	}
}
