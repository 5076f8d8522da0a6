package cassandra

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"unsafe"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/backoff"
	"github.com/goycsb/ycsb/internal/cql/cqlwire"
	"github.com/goycsb/ycsb/internal/within"
)

// Operation kinds, for the statement cache and error messages.
type opKind uint8

const (
	opRead opKind = iota
	opScan
	opUpdate
	opInsert
	opDelete
	numOps
)

var opNames = [numOps]string{"read", "scan", "update", "insert", "delete"}

// empty is what a zero-length value marshals to: a nil slice would be NULL.
var empty = []byte{}

// strArg binds a string (the key) without copying it: the driver writes the
// bytes into its frame during the call.
type strArg struct{ s string }

func (a *strArg) MarshalCQL(gocql.TypeInfo) ([]byte, error) {
	if len(a.s) == 0 {
		return empty, nil
	}
	return unsafe.Slice(unsafe.StringData(a.s), len(a.s)), nil
}

// bytesArg binds a field value as is.
type bytesArg struct{ b []byte }

func (a *bytesArg) MarshalCQL(gocql.TypeInfo) ([]byte, error) {
	if a.b == nil {
		return empty, nil
	}
	return a.b, nil
}

// intArg binds the scan LIMIT (a CQL int).
type intArg struct {
	v   int
	buf [4]byte
}

func (a *intArg) MarshalCQL(info gocql.TypeInfo) ([]byte, error) {
	if info.Type() != gocql.TypeInt {
		return gocql.Marshal(info, a.v)
	}
	binary.BigEndian.PutUint32(a.buf[:], uint32(int32(a.v)))
	return a.buf[:], nil
}

// stmt is one prepared statement of a session, with its own bound-value
// holders: args points into key, vals and limit, so an operation only
// stores its arguments there.
type stmt struct {
	op     opKind
	table  string
	fields []string // the cache key: nil is all fields (read, scan) or none
	q      *gocql.Query
	args   []any
	key    strArg
	vals   []bytesArg
	limit  intArg
	page   int

	// the lean path's
	wire cqlwire.Stmt
	cl   gocql.Consistency
}

// session is one worker's state: its statements and scan buffers.
type session struct {
	d     *cassDB
	cache [numOps]map[uint64][]*stmt
	last  [numOps]*stmt
	dest  []any
	skip  []byte

	// backoff is the wait after operations that failed for want of a
	// node, reset by a success.
	backoff backoff.Backoff

	// the lean path's caller (nil: the driver's path), which routes each
	// try and sends cassandra.speculativedelaymillis's second request, and
	// the bound values
	lean *Caller
	vals [][]byte
	row  [][]byte

	// retried is the retries of the session's operations, never reset
	// (db.RetryCounter); retry is the driver's path's policy that counts
	// them
	retried int64
	retry   *driverRetry
}

func newSession(d *cassDB) *session {
	s := &session{d: d}
	if d != nil && d.cfg != nil && d.cfg.retries > 0 {
		s.retry = &driverRetry{max: d.cfg.retries, n: &s.retried}
	}
	if d != nil && d.wire != nil {
		s.lean = newCaller(d.wire.Router(d.session, d.policy, d.cfg.keyspace, d.cfg.tokenAware), d.cfg.specDelay)
	}
	for i := range s.cache {
		s.cache[i] = map[uint64][]*stmt{}
	}
	return s
}

// hashFields hashes the table and the ordered field names (FNV-1a).
func hashFields(table string, names func(i int) string, n int) uint64 {
	h := uint64(14695981039346656037)
	mix := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	mix(table)
	for i := 0; i < n; i++ {
		mix(names(i))
	}
	if n == 0 {
		h ^= 0xfe
	}
	return h
}

// lookup finds the statement for op, table and field set, preparing it on
// first use. Exactly one of fields and values gives the names.
func (s *session) lookup(op opKind, table string, fields []string, values []db.Field) *stmt {
	n := len(fields)
	all := fields == nil
	if values != nil {
		n = len(values)
		all = false
	}
	name := func(i int) string {
		if values != nil {
			return values[i].Name
		}
		return fields[i]
	}
	match := func(st *stmt) bool {
		if st.table != table || len(st.fields) != n || (st.fields == nil) != all {
			return false
		}
		for i := 0; i < n; i++ {
			if st.fields[i] != name(i) {
				return false
			}
		}
		return true
	}
	if st := s.last[op]; st != nil && match(st) {
		return st
	}
	h := hashFields(table, name, n)
	if all {
		h = ^h
	}
	for _, st := range s.cache[op][h] {
		if match(st) {
			s.last[op] = st
			return st
		}
	}
	var names []string
	if !all {
		names = make([]string, n)
		for i := range names {
			names[i] = strings.Clone(name(i))
		}
	}
	st := s.prepare(op, strings.Clone(table), names)
	s.cache[op][h] = append(s.cache[op][h], st)
	s.last[op] = st
	return st
}

// prepare builds a statement. The driver prepares it on the server on
// first execution and keeps the prepared id for every later one.
func (s *session) prepare(op opKind, table string, fields []string) *stmt {
	cfg := s.d.cfg
	st := &stmt{op: op, table: table, fields: fields}
	target := cfg.keyspace + "." + table
	var sb strings.Builder
	cl := cfg.writeCL
	switch op {
	case opRead, opScan:
		cl = cfg.readCL
		sb.WriteString("SELECT ")
		if fields == nil {
			sb.WriteString("*")
		} else {
			if op == opScan {
				sb.WriteString(keyColumn)
				sb.WriteString(",")
			}
			sb.WriteString(strings.Join(fields, ","))
		}
		sb.WriteString(" FROM ")
		sb.WriteString(target)
		if op == opRead {
			sb.WriteString(" WHERE " + keyColumn + " = ? LIMIT 1")
			st.args = []any{&st.key}
		} else {
			sb.WriteString(" WHERE token(" + keyColumn + ") >= token(?) LIMIT ?")
			st.args = []any{&st.key, &st.limit}
		}
	case opUpdate:
		st.vals = make([]bytesArg, len(fields))
		sb.WriteString("UPDATE " + target + " SET ")
		for i, f := range fields {
			if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString(f + " = ?")
			st.args = append(st.args, &st.vals[i])
		}
		sb.WriteString(" WHERE " + keyColumn + " = ?")
		st.args = append(st.args, &st.key)
	case opInsert:
		st.vals = make([]bytesArg, len(fields))
		sb.WriteString("INSERT INTO " + target + " (" + keyColumn)
		st.args = append(st.args, &st.key)
		for i, f := range fields {
			sb.WriteString("," + f)
			st.args = append(st.args, &st.vals[i])
		}
		sb.WriteString(") VALUES (?" + strings.Repeat(",?", len(fields)) + ")")
	case opDelete:
		sb.WriteString("DELETE FROM " + target + " WHERE " + keyColumn + " = ?")
		st.args = []any{&st.key}
	}
	cql := sb.String()
	st.wire.CQL = cql
	st.cl = cl
	st.q = s.d.session.Query(cql, st.args...).Consistency(cl)
	// Every statement is safe to send again: reads, and writes of given
	// values (no conditions, no counters). The driver retries only those
	// marked so, by the session's policy.
	st.q.Idempotent(true)
	if s.retry != nil {
		st.q.RetryPolicy(s.retry)
	}
	if s.d.tracer != nil {
		st.q.Trace(s.d.tracer)
	}
	if cfg.debug {
		fmt.Fprintf(s.d.out, "cassandra: prepared %s\n", cql)
	}
	return st
}

// bindKey stores key for the next execution and routes by it.
func (s *session) bindKey(st *stmt, key string) {
	st.key.s = key
	if s.d.cfg.tokenAware {
		// The driver copies the routing key; this saves it from looking up
		// the statement's partition key and marshalling the key again.
		st.q.RoutingKey(st.key.bytes())
	}
}

func (a *strArg) bytes() []byte { return keyBytes(a.s) }

func (s *session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	if err := ctx.Err(); err != nil {
		return fail(opRead, err)
	}
	st := s.lookup(opRead, table, fields, nil)
	if s.lean != nil {
		return s.leanRead(ctx, st, table, key, out)
	}
	s.bindKey(st, key)
	iter := st.q.IterContext(ctx)
	base := len(out.Fields)
	found := iter.Scan(s.destFor(iter.Columns(), out, false)...)
	if !found {
		out.Fields = out.Fields[:base]
	}
	err := iter.Close()
	st.key.s = ""
	return s.readEnd(ctx, out, base, found, err)
}

// readEnd is a read's outcome once the driver is done with it: out keeps
// its first base fields only unless the key was found.
func (s *session) readEnd(ctx context.Context, out *db.Record, base int, found bool, err error) error {
	if err != nil {
		out.Fields = out.Fields[:base]
		return s.fail(ctx, opRead, err)
	}
	s.backoff.Reset()
	if !found {
		return db.ErrNotFound
	}
	return nil
}

// destFor grows rec by one field per returned column except the key and
// returns the scan destinations: the Values of those fields, and rec.Key
// (or a scratch buffer) for the key column.
func (s *session) destFor(cols []gocql.ColumnInfo, rec *db.Record, wantKey bool) []any {
	base := len(rec.Fields)
	n := 0
	for i := range cols {
		if cols[i].Name != keyColumn {
			n++
		}
	}
	if need := base + n; need <= cap(rec.Fields) {
		rec.Fields = rec.Fields[:need]
	} else {
		rec.Fields = append(rec.Fields, make([]db.Field, need-base)...)
	}
	dest := s.dest[:0]
	j := base
	for i := range cols {
		if cols[i].Name == keyColumn {
			if wantKey {
				dest = append(dest, &rec.Key)
			} else {
				dest = append(dest, &s.skip)
			}
			continue
		}
		f := &rec.Fields[j]
		f.Name = cols[i].Name
		dest = append(dest, &f.Value)
		j++
	}
	s.dest = dest
	return dest
}

func (s *session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) error {
	if err := ctx.Err(); err != nil {
		return fail(opScan, err)
	}
	if count <= 0 {
		// Cassandra refuses LIMIT 0; the answer, no rows, is known anyway.
		return nil
	}
	st := s.lookup(opScan, table, fields, nil)
	s.bindKey(st, startKey)
	st.limit.v = count
	if count > st.page {
		// One page holds the whole result: no page is fetched after the
		// call returns, when the bound values are no longer ours.
		st.page = max(count, 5000)
		st.q.PageSize(st.page)
	}
	iter := st.q.IterContext(ctx)
	cols := iter.Columns()
	sc := iter.Scanner()
	var err error
	for sc.Next() {
		rec := out.Next()
		if err = sc.Scan(s.destFor(cols, rec, true)...); err != nil {
			break
		}
	}
	if cerr := sc.Err(); err == nil {
		err = cerr
	}
	st.key.s = ""
	if err != nil {
		return s.fail(ctx, opScan, err)
	}
	s.backoff.Reset()
	return nil
}

func (s *session) Update(ctx context.Context, table, key string, values []db.Field) error {
	return s.write(ctx, opUpdate, table, key, values)
}

func (s *session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	return s.write(ctx, opInsert, table, key, values)
}

func (s *session) write(ctx context.Context, op opKind, table, key string, values []db.Field) error {
	if err := ctx.Err(); err != nil {
		return fail(op, err)
	}
	if values == nil {
		values = []db.Field{}
	}
	st := s.lookup(op, table, nil, values)
	if s.lean != nil {
		vals := s.vals[:0]
		if op == opInsert {
			vals = append(vals, keyBytes(key))
		}
		for i := range values {
			vals = append(vals, nonNil(values[i].Value))
		}
		if op == opUpdate {
			vals = append(vals, keyBytes(key))
		}
		s.vals = vals
		unsure, err := s.leanExec(ctx, st, table, key, vals)
		clear(s.vals)
		if err != nil {
			return s.failWrite(ctx, op, err, unsure)
		}
		s.backoff.Reset()
		return nil
	}
	s.bindKey(st, key)
	for i := range values {
		st.vals[i].b = values[i].Value
	}
	retried := s.retried
	err := st.q.ExecContext(ctx)
	st.key.s = ""
	for i := range st.vals {
		st.vals[i].b = nil
	}
	if err != nil {
		// An earlier try may have been applied: the driver does not say.
		return s.failWrite(ctx, op, err, driverUnsure(err) || s.retried != retried)
	}
	s.backoff.Reset()
	return nil
}

func (s *session) Delete(ctx context.Context, table, key string) error {
	if err := ctx.Err(); err != nil {
		return fail(opDelete, err)
	}
	st := s.lookup(opDelete, table, nil, []db.Field{})
	if s.lean != nil {
		s.vals = append(s.vals[:0], keyBytes(key))
		unsure, err := s.leanExec(ctx, st, table, key, s.vals)
		clear(s.vals)
		if err != nil {
			return s.failWrite(ctx, opDelete, err, unsure)
		}
		s.backoff.Reset()
		return nil
	}
	s.bindKey(st, key)
	retried := s.retried
	err := st.q.ExecContext(ctx)
	st.key.s = ""
	if err != nil {
		return s.failWrite(ctx, opDelete, err, driverUnsure(err) || s.retried != retried)
	}
	s.backoff.Reset()
	return nil
}

// Retries implements db.RetryCounter: the retries of the session's
// operations on another node, on either path.
func (s *session) Retries() int64 { return s.retried }

// driverRetry is the driver's path's retry policy (the driver's public
// RetryPolicy): an idempotent statement that failed as cqlwire.Retryable
// says goes to the next node of the host selection policy's plan (the
// partition's other replicas first when token-aware), up to max retries
// after cqlwire.RetryDelay each. The driver asks Attempt, then
// GetRetryType, from the goroutine running the statement: the session's,
// as no driver speculation is set.
type driverRetry struct {
	max     int
	n       *int64 // the session's retried
	ok      bool   // Attempt's answer
	attempt int    // tries made
	ctx     context.Context
}

func (p *driverRetry) Attempt(q gocql.RetryableQuery) bool {
	p.attempt, p.ctx = q.Attempts(), q.Context()
	p.ok = p.attempt <= p.max
	return p.ok
}

func (p *driverRetry) GetRetryType(err error) gocql.RetryType {
	ctx := p.ctx
	p.ctx = nil
	if !p.ok || !cqlwire.Retryable(err, true) || ctx == nil || ctx.Err() != nil {
		return gocql.Rethrow
	}
	if d := cqlwire.RetryDelay(p.attempt); d > 0 && !within.Sleep(ctx, d) {
		return gocql.Rethrow
	}
	*p.n++
	return gocql.RetryNextHost
}

// Close has nothing to flush: every write is sent when it is made.
func (s *session) Close(context.Context) error {
	for i := range s.cache {
		s.cache[i] = nil
		s.last[i] = nil
	}
	return nil
}

// fail is fail, after a backoff when the error says that no node could take
// the operation (see package backoff); the end of the run (ctx) cuts it
// short.
func (s *session) fail(ctx context.Context, op opKind, err error) error {
	if backoff.NoCQLNode(err) && ctx.Err() == nil {
		s.backoff.Wait(ctx)
	}
	return fail(op, err)
}

// failWrite is fail for a write, marked as of unknown outcome
// (db.OutcomeUnknown) when unsure.
func (s *session) failWrite(ctx context.Context, op opKind, err error, unsure bool) error {
	err = s.fail(ctx, op, err)
	if unsure {
		return db.OutcomeUnknown(err)
	}
	return err
}

// fail wraps an operation's error with its status.
func fail(op opKind, err error) error {
	return db.WithStatus(classify(err), fmt.Errorf("cassandra: %s: %w", opNames[op], err))
}

// classify maps driver and server errors to the closest status: a node
// that is down, overloaded or too slow is SERVICE_UNAVAILABLE, a rejected
// statement BAD_REQUEST, missing permissions FORBIDDEN.
func classify(err error) db.Status {
	var re gocql.RequestError
	if errors.As(err, &re) {
		switch re.Code() {
		case gocql.ErrCodeUnavailable, gocql.ErrCodeOverloaded, gocql.ErrCodeBootstrapping,
			gocql.ErrCodeReadTimeout, gocql.ErrCodeWriteTimeout, gocql.ErrCodeTruncate:
			return db.ServiceUnavailable
		case gocql.ErrCodeUnauthorized, gocql.ErrCodeCredentials:
			return db.Forbidden
		case gocql.ErrCodeSyntax, gocql.ErrCodeInvalid, gocql.ErrCodeConfig, gocql.ErrCodeAlreadyExists:
			return db.BadRequest
		}
		return db.Error
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, gocql.ErrNoConnections),
		errors.Is(err, gocql.ErrTimeoutNoResponse),
		errors.Is(err, gocql.ErrConnectionClosed),
		errors.Is(err, gocql.ErrNoStreams),
		errors.Is(err, gocql.ErrUnavailable),
		errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE):
		return db.ServiceUnavailable
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return db.ServiceUnavailable
	}
	return db.Error
}

// leanExec runs st with vals on a replica of key, retrying a failure
// that another node may not have (cqlwire.Retryable: every statement of
// this binding is idempotent) on another replica, up to
// cassandra.retries times, waiting cqlwire.RetryDelay before each. The
// answer is the caller's (s.lean.Rows). unsure says whether a write may
// have been applied although err says it failed: a try was in flight
// when it failed, or the answer said so.
func (s *session) leanExec(ctx context.Context, st *stmt, table, key string, vals [][]byte) (unsure bool, err error) {
	rk := keyBytes(key)
	s.lean.NewOperation()
	for retry := 0; ; retry++ {
		var sent, won int64
		sent, won, err = s.lean.Exec(ctx, table, rk, &st.wire, st.cl, vals, true)
		if sent > 0 {
			s.d.specSent.Add(sent)
			s.d.specWon.Add(won)
		}
		unsure = unsure || (err != nil && wireUnsure(err))
		if err == nil || retry >= s.d.cfg.retries || ctx.Err() != nil || !cqlwire.Retryable(err, true) {
			return unsure, err
		}
		if d := cqlwire.RetryDelay(retry + 1); d > 0 && !within.Sleep(ctx, d) {
			return unsure, err
		}
		if cqlwire.NoAnswer(err) && s.lean.OnlyReplica(table, rk) {
			// The only node did not answer in time: it would not now.
			return unsure, err
		}
		s.retried++
	}
}

func (s *session) leanRead(ctx context.Context, st *stmt, table, key string, out *db.Record) error {
	s.vals = append(s.vals[:0], keyBytes(key))
	_, err := s.leanExec(ctx, st, table, key, s.vals)
	s.vals[0] = nil
	if err != nil {
		return s.fail(ctx, opRead, err)
	}
	found := false
	base := len(out.Fields)
	s.row, err = s.lean.Rows(func(cols []string, vals [][]byte) bool {
		for i, v := range vals {
			if cols[i] != keyColumn {
				out.Add(cols[i], v)
			}
		}
		found = true
		return false
	}, s.row)
	clear(s.row)
	return s.readEnd(ctx, out, base, found, err)
}

// keyBytes is key's bytes, not copied: the request is written from them
// before the call returns.
func keyBytes(key string) []byte {
	if len(key) == 0 {
		return empty
	}
	return unsafe.Slice(unsafe.StringData(key), len(key))
}

// nonNil binds an empty value as empty, not null.
func nonNil(b []byte) []byte {
	if b == nil {
		return empty
	}
	return b
}
