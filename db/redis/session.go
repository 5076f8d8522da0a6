package redis

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"unsafe"

	"github.com/redis/rueidis"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/backoff"
	"github.com/goycsb/ycsb/internal/javahash"
)

// session is one worker's state: scratch buffers and its backoff. The
// client and its connections are the DB's, shared.
type session struct {
	d       *redisDB
	c       rueidis.Client
	cfg     *config
	backoff backoff.Backoff
	key     []byte // go-ycsb's "table/key"
	score   []byte // the reference's index score, as text
	names   []string
	cmds    []rueidis.Completed
}

func newSession(d *redisDB) *session {
	return &session{d: d, c: d.client, cfg: d.cfg}
}

// The requests go out under a context that is never cancelled: a request
// abandoned while queued would be written later, with the caller's buffers
// (which it may reuse once the call returns) changed under it. A request
// ends with its answer or with its connection, which the client closes
// when the server has not answered for redis.timeout; an operation
// checks the caller's context before it starts and between retries.
var bg = context.Background()

// bytesOf is s's bytes, without a copy; Record.Add copies them.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// recordKey is where the record of key lives in the session's layout.
// go-ycsb's key is built in the session's buffer: the client is done
// with it when the request returns (see bg).
func (s *session) recordKey(table, key string) string {
	if s.cfg.layout == layoutReference {
		return key
	}
	s.key = append(append(append(s.key[:0], table...), '/'), key...)
	return rueidis.BinaryString(s.key)
}

// indexScore is the reference's score of key in _indices: Java's
// String.hashCode, an int written as a double's integer value.
func (s *session) indexScore(key string) string {
	s.score = strconv.AppendInt(s.score[:0], int64(javahash.String(key)), 10)
	return rueidis.BinaryString(s.score)
}

func (s *session) Read(ctx context.Context, table, key string, fields []string, out *db.Record) error {
	return s.retried(ctx, "read", key, false, func() error { return s.read(table, key, fields, out) })
}

// read is one attempt of Read; a missing key is db.ErrNotFound.
func (s *session) read(table, key string, fields []string, out *db.Record) error {
	rk := s.recordKey(table, key)
	if s.cfg.layout == layoutGoYCSB && s.cfg.datatype == datatypeString {
		return s.readString(rk, fields, out)
	}
	var cmd rueidis.Completed
	if fields == nil {
		cmd = s.c.B().Hgetall().Key(rk).Build()
	} else {
		cmd = s.c.B().Hmget().Key(rk).Field(fields...).Build()
	}
	return appendHash(s.c.Do(bg, cmd), fields, out)
}

// appendHash appends the reply of HGETALL (fields nil: name, value, ...)
// or of HMGET (the values of fields, nil for a missing field) to out. No
// field at all is a missing key.
func appendHash(res rueidis.RedisResult, fields []string, out *db.Record) error {
	vals, err := res.ToArray()
	if err != nil {
		return err
	}
	n := out.Len()
	if fields == nil {
		for i := 0; i+1 < len(vals); i += 2 {
			name, err1 := vals[i].ToString()
			v, err2 := vals[i+1].ToString()
			if err1 != nil || err2 != nil {
				return fmt.Errorf("HGETALL reply: field %d is not a string: %w", i/2, db.ErrUnexpectedState)
			}
			out.Add(name, bytesOf(v))
		}
	} else {
		for i := range vals {
			if i >= len(fields) || vals[i].IsNil() {
				continue
			}
			v, err := vals[i].ToString()
			if err != nil {
				return fmt.Errorf("HMGET reply: field %s is not a string: %w", fields[i], db.ErrUnexpectedState)
			}
			out.Add(fields[i], bytesOf(v))
		}
	}
	if out.Len() == n {
		return db.ErrNotFound
	}
	return nil
}

func (s *session) Scan(ctx context.Context, table, startKey string, count int, fields []string, out *db.Rows) error {
	if s.cfg.layout != layoutReference {
		return fmt.Errorf("redis: %s=%s keeps no index to scan by: %w", propLayout, s.cfg.layout, db.ErrNotImplemented)
	}
	if count <= 0 {
		return ctx.Err()
	}
	return s.retried(ctx, "scan", startKey, false, func() error { return s.scan(startKey, count, fields, out) })
}

// scan is one attempt of Scan, as the reference does it: the keys of
// _indices from the start key's score up, then each one's record (sent
// together). A key deleted in between is a row without fields, as the
// reference returns it.
func (s *session) scan(startKey string, count int, fields []string, out *db.Rows) error {
	keys, err := s.c.Do(bg, s.c.B().Zrangebyscore().Key(indexKey).Min(s.indexScore(startKey)).Max("+inf").
		Limit(0, int64(count)).Build()).ToArray()
	if err != nil {
		return err
	}
	s.names = s.names[:0]
	s.cmds = s.cmds[:0]
	for i := range keys {
		k, err := keys[i].ToString()
		if err != nil {
			return fmt.Errorf("ZRANGEBYSCORE reply: member %d is not a string: %w", i, db.ErrUnexpectedState)
		}
		s.names = append(s.names, k)
		if fields == nil {
			s.cmds = append(s.cmds, s.c.B().Hgetall().Key(k).Build())
		} else {
			s.cmds = append(s.cmds, s.c.B().Hmget().Key(k).Field(fields...).Build())
		}
	}
	if len(s.cmds) == 0 {
		return nil
	}
	results := s.c.DoMulti(bg, s.cmds...)
	for _, res := range results { // all or nothing: an attempt that fails adds no row
		if err := res.Error(); err != nil {
			return err
		}
	}
	for i, res := range results {
		r := out.Next()
		r.SetKey(bytesOf(s.names[i]))
		if err := appendHash(res, fields, r); err != nil && err != db.ErrNotFound {
			return err
		}
	}
	return nil
}

func (s *session) Update(ctx context.Context, table, key string, values []db.Field) error {
	return s.retried(ctx, "update", key, true, func() error { return s.write(table, key, values, false) })
}

func (s *session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	return s.retried(ctx, "insert", key, true, func() error { return s.write(table, key, values, true) })
}

// write is one attempt of an insert or an update: HSET of the fields and,
// for an insert in the reference's layout, ZADD of the key to _indices
// (both sent at once; the reference sends HMSET then ZADD). Both are
// idempotent: an attempt repeated after a failure leaves what one leaves.
func (s *session) write(table, key string, values []db.Field, insert bool) error {
	rk := s.recordKey(table, key)
	if s.cfg.layout == layoutGoYCSB && s.cfg.datatype == datatypeString {
		return s.writeString(rk, values)
	}
	fv := s.c.B().Hset().Key(rk).FieldValue()
	for i := range values {
		fv = fv.FieldValue(values[i].Name, rueidis.BinaryString(values[i].Value))
	}
	hset := fv.Build()
	if !insert || s.cfg.layout != layoutReference {
		return s.c.Do(bg, hset).Error()
	}
	zadd := s.c.B().Zadd().Key(indexKey).ScoreMember().ScoreMember(float64(javahash.String(key)), key).Build()
	s.cmds = append(s.cmds[:0], hset, zadd)
	for _, res := range s.c.DoMulti(bg, s.cmds...) {
		if err := res.Error(); err != nil {
			return err
		}
	}
	return nil
}

func (s *session) Delete(ctx context.Context, table, key string) error {
	return s.retried(ctx, "delete", key, true, func() error { return s.delete(table, key) })
}

// delete is one attempt of Delete: DEL of the record and, in the
// reference's layout, ZREM of the key from _indices. Neither removing
// anything is a missing key (the reference's ERROR, our NOT_FOUND).
func (s *session) delete(table, key string) error {
	rk := s.recordKey(table, key)
	del := s.c.B().Del().Key(rk).Build()
	if s.cfg.layout != layoutReference {
		n, err := s.c.Do(bg, del).AsInt64()
		if err == nil && n == 0 {
			return db.ErrNotFound
		}
		return err
	}
	zrem := s.c.B().Zrem().Key(indexKey).Member(key).Build()
	s.cmds = append(s.cmds[:0], del, zrem)
	var removed int64
	for _, res := range s.c.DoMulti(bg, s.cmds...) {
		n, err := res.AsInt64()
		if err != nil {
			return err
		}
		removed += n
	}
	if removed == 0 {
		return db.ErrNotFound
	}
	return nil
}

// readString reads go-ycsb's string datatype: one JSON object of the
// fields, each value base64 (Go's encoding of []byte).
func (s *session) readString(rk string, fields []string, out *db.Record) error {
	v, err := s.c.Do(bg, s.c.B().Get().Key(rk).Build()).ToString()
	if rueidis.IsRedisNil(err) {
		return db.ErrNotFound
	}
	if err != nil {
		return err
	}
	var m map[string][]byte
	if err := json.Unmarshal(bytesOf(v), &m); err != nil {
		return fmt.Errorf("value of %s is not go-ycsb's JSON record: %w", rk, db.WithStatus(db.UnexpectedState, err))
	}
	if fields == nil {
		for name, val := range m {
			out.Add(name, val)
		}
		return nil
	}
	for _, f := range fields {
		if val, ok := m[f]; ok {
			out.Add(f, val)
		}
	}
	return nil
}

// writeString writes go-ycsb's string datatype. As go-ycsb does, a write
// of every field is a SET; one of some fields reads the record, merges
// and writes it back (not atomic: a concurrent update of the same key
// between the two may be lost, as in go-ycsb).
func (s *session) writeString(rk string, values []db.Field) error {
	m := make(map[string][]byte, s.cfg.fieldCount)
	if len(values) < s.cfg.fieldCount {
		v, err := s.c.Do(bg, s.c.B().Get().Key(rk).Build()).ToString()
		switch {
		case rueidis.IsRedisNil(err):
		case err != nil:
			return err
		default:
			if err := json.Unmarshal(bytesOf(v), &m); err != nil {
				return fmt.Errorf("value of %s is not go-ycsb's JSON record: %w", rk, db.WithStatus(db.UnexpectedState, err))
			}
		}
	}
	for i := range values {
		m[values[i].Name] = values[i].Value
	}
	enc, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.c.Do(bg, s.c.B().Set().Key(rk).Value(rueidis.BinaryString(enc)).Build()).Error()
}

// retried runs attempt until again decides against another, and returns
// result's error for op on key. A read (write false) is never of unknown
// outcome, and its end by ctx is ctx's error as it is; a write's is
// named with op and key, of unknown outcome if an attempt may have been
// applied.
func (s *session) retried(ctx context.Context, op, key string, write bool, attempt func() error) error {
	for n, unsure := 0, false; ; n++ {
		if err := ctx.Err(); err != nil {
			if !write {
				return err
			}
			return s.result(op, key, err, unsure)
		}
		err := attempt()
		if s.again(ctx, n, err, &unsure) {
			continue
		}
		return s.result(op, key, err, write && unsure)
	}
}

// again decides after an attempt: true to try again (a failure that may
// pass, while retries are left; it waits its backoff first). It notes in
// unsure whether the failed attempt may have been applied.
func (s *session) again(ctx context.Context, attempt int, err error, unsure *bool) bool {
	if err == nil || err == db.ErrNotFound {
		s.backoff.Reset()
		return false
	}
	k := classify(err)
	if k.mayHaveApplied {
		*unsure = true
	}
	if !k.retry || attempt >= s.cfg.retries || ctx.Err() != nil {
		return false
	}
	s.backoff.Wait(ctx)
	return ctx.Err() == nil
}

// result is an operation's error as the run counts it: nil, NOT_FOUND,
// or the failure named with its command and key, of unknown outcome for a
// write any attempt of which may have been applied.
func (s *session) result(op, key string, err error, unsure bool) error {
	if err == nil || err == db.ErrNotFound {
		return err
	}
	err = fmt.Errorf("redis: %s %s: %w", op, key, err)
	if unsure {
		return db.OutcomeUnknown(err)
	}
	return err
}

func (s *session) Close(context.Context) error { return nil }
