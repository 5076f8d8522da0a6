package cassandrastress

import (
	"context"
	"errors"
	"fmt"
	"strings"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

// The validate op of ops(...): the original's ValidatingSchemaQuery
// (operations/userdefined/ValidatingSchemaQuery.java). It is one op per
// depth 0..clustering columns, each of the op's weight over their count,
// all reported as "validate"; a run of operations of the same op (from
// clustering=) keeps its depth. Each operation takes a query's seed, reads
// the partition's rows between two bounds and checks them against the
// rows generated for it in sorted order (every row; at depth 0 every
// column, deeper a value column fails as the original's comparison throws
// there, see errExpectedNull): depth 0
// the whole partition (SELECT * by the partition key), depth d the rows
// between two random positions of the first d clustering columns, with
// >= and < (and at the last depth one of >=, > with <=, <, chosen per
// operation). Rows, values and their order must all be the generated
// ones: a partition written in part, a table whose clustering order is not
// the generator's sorted order, or an unsorted insert (-pop contents=, the
// seed of a level's children coming from its first value) does not
// validate, there as here.

// userValidate is the validate op's statements, by depth.
type userValidate struct {
	stmts  [][]valStmt
	serial gocql.Consistency
}

type valStmt struct {
	cql          string
	incLo, incHi bool
}

// validationError is an operation whose data did not validate: not
// retried, and its message is the failure's detail.
type validationError struct{ msg string }

func (e *validationError) Error() string { return e.msg }

// errExpectedNull is the original's NullPointerException on a value
// column expected at depth 1 or more, where its iterator generates none
// (see data.Partition.Bounds). There the next try reads the rows on from
// where the first stopped, which do not validate: the operation fails
// after 1 try, with the exception's message.
var errExpectedNull = errors.New(`(NullPointerException): Cannot invoke "Object.equals(Object)" because "expectedValue" is null`)

// newValidate is ValidatingSchemaQuery.create for sp's table.
func (sp *userSpec) newValidate(serial gocql.Consistency) *userValidate {
	var b strings.Builder
	b.WriteString("SELECT * FROM " + quoteIdent(sp.p.Table) + " WHERE")
	for i, c := range sp.pk {
		if i > 0 {
			b.WriteString(" AND")
		}
		b.WriteString(" " + quoteIdent(c.name) + " = ?")
	}
	base := b.String()
	v := &userValidate{stmts: [][]valStmt{{{base, true, true}}}, serial: serial}
	last := len(sp.ck) - 1
	for depth := 0; depth <= last; depth++ {
		var names, marks []string
		for _, c := range sp.ck[:depth+1] {
			names = append(names, quoteIdent(c.name))
			marks = append(marks, "?")
		}
		cc, arg := "("+strings.Join(names, ",")+")", "("+strings.Join(marks, ",")+")"
		combos := [][2]bool{{true, false}}
		if depth == last {
			combos = [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}}
		}
		var stmts []valStmt
		for _, c := range combos {
			lb, ub := ">", "<"
			if c[0] {
				lb = ">="
			}
			if c[1] {
				ub = "<="
			}
			stmts = append(stmts, valStmt{base + " AND " + cc + lb + arg + " AND " + cc + ub + arg, c[0], c[1]})
		}
		v.stmts = append(v.stmts, stmts)
	}
	return v
}

// validateGen is a worker's sorted generator and partition of a profile.
type validateGen struct {
	part *data.Partition
}

// doValidate is PartitionOperation.ready and run for the validate op.
func (wk *userWorker) doValidate(ctx context.Context, o *userOp) bool {
	if wk.w.take(1) == 0 {
		return false
	}
	idx, _, ok := wk.w.seeds.NextRead(wk.r)
	if !ok {
		return false
	}
	vg := wk.vgens[o.spec]
	if vg == nil {
		g, err := o.spec.newGen() // checked in runUser
		if err != nil {
			panic(err)
		}
		g.Sorted, g.Shuffled = true, false
		vg = &validateGen{part: data.NewPartition(g)}
		wk.vgens[o.spec] = vg
	}
	p := vg.part
	p.Reset(idx)
	depth := min(wk.vdepth, len(o.val.stmts)-1)
	wk.vlo, wk.vhi = p.Bounds(wk.r, depth)
	stmts := o.val.stmts[depth]
	wk.vst = &stmts[wk.r.IntN(len(stmts))]
	return wk.timed(ctx, o, []*data.Partition{p})
}

// rawCol scans a column's bytes (nil: null).
type rawCol struct{ b []byte }

func (c *rawCol) UnmarshalCQL(_ gocql.TypeInfo, b []byte) error {
	if b == nil {
		c.b = nil
		return nil
	}
	c.b = append(make([]byte, 0, len(b)), b...)
	return nil
}

// validateAttempt is ValidatingSchemaQuery's JavaDriverRun: the bounds'
// query, its rows against the expected ones in order, column by column.
func (wk *userWorker) validateAttempt(ctx context.Context, o *userOp, p *data.Partition) (int, int, error) {
	sp, st := o.spec, wk.vst
	args := make([]any, 0, len(p.Key)+2*len(wk.vlo))
	for _, k := range p.Key {
		args = append(args, &rawArg{b: k})
	}
	for _, v := range wk.vlo {
		args = append(args, &rawArg{b: v})
	}
	for _, v := range wk.vhi {
		args = append(args, &rawArg{b: v})
	}
	sess := wk.sessions[sp.p.Keyspace]
	iter := sess.Query(st.cql, args...).Consistency(wk.w.cl).SerialConsistency(o.val.serial).IterContext(ctx)
	defs := iter.Columns()
	idx := make([]int, len(defs))
	typs := make([]data.CQLType, len(defs))
	for i, d := range defs {
		j, ok := sp.index(d.Name)
		if !ok {
			iter.Close()
			return 0, 0, fmt.Errorf("validate: column %s of %s is not in the profile's table", d.Name, sp.p.Table)
		}
		idx[i], typs[i] = j, sp.columnAt(j).typ
	}
	got := make([]rawCol, len(defs))
	dst := make([]any, len(defs))
	for i := range got {
		dst[i] = &got[i]
	}
	expected := p.Rows
	if !st.incLo && len(expected) > 0 {
		expected = expected[1:]
	}
	if !st.incHi && len(expected) > 0 {
		expected = expected[:len(expected)-1]
	}
	rows := 0
	var verr *validationError
	for _, want := range expected {
		if !iter.Scan(dst...) {
			verr = &validationError{fmt.Sprintf("Data returned was not validated: expected row %d but result set exhausted (row empty/missing)", rows+1)}
			break
		}
		rows++
		for i := range got {
			w := expectedValue(p, want, idx[i])
			if w == nil {
				iter.Close()
				return 0, 0, errExpectedNull
			}
			if data.JavaEqual(typs[i], w, got[i].b) {
				continue
			}
			ec, ev := data.JavaValue(typs[i], w, false)
			ac, av := data.JavaValue(typs[i], got[i].b, true)
			verr = &validationError{fmt.Sprintf("Data returned was not validated: row %d, column %d (%s): value mismatch (expected [%s] %s, got [%s] %s)",
				rows, i, defs[i].Name, ec, describeJava(ec, ev, w), ac, describeJava(ac, av, got[i].b))}
			break
		}
		if verr != nil {
			break
		}
	}
	if verr == nil && iter.Scan(dst...) {
		verr = &validationError{fmt.Sprintf("Data returned was not validated: result set not exhausted after consuming %d expected row(s) (got more rows than expected)", rows)}
	}
	if err := iter.Close(); err != nil {
		return 0, 0, err
	}
	if verr != nil {
		return 0, 0, verr
	}
	return min(1, rows), rows, nil
}

// expectedValue is Row.get of the original: a key column's, a clustering
// column's or a value column's, by PartitionGenerator.indexOf's index.
func expectedValue(p *data.Partition, row *data.UserRow, i int) []byte {
	switch {
	case i < 0:
		return p.Key[-1-i]
	case i < len(row.CK):
		return row.CK[i]
	}
	return row.Vals[i-len(row.CK)]
}

// columnAt is the column of an index of index.
func (sp *userSpec) columnAt(i int) column {
	switch {
	case i < 0:
		return sp.pk[-1-i]
	case i < len(sp.ck):
		return sp.ck[i]
	}
	return sp.vs[i-len(sp.ck)]
}

// describeJava is the original's describeValue: a ByteBuffer as hex, then
// its size; anything else as its text, cut at 80 characters.
func describeJava(class, text string, b []byte) string {
	switch {
	case class == "null":
		return "null"
	case class == "HeapByteBuffer":
		return hexPreview(b) + " (" + fmt.Sprint(len(b)) + " bytes)"
	case len(text) > 80:
		return text[:80] + "..."
	}
	return text
}
