package sqlbind

import (
	"context"

	"github.com/goycsb/ycsb/db"
)

// Batch holds inserts copied out of the caller's buffers: every value of
// every row (key first) end to end in arena, ends[i] closing value i.
type Batch struct {
	Table  string
	Fields []string
	Rows   int
	arena  []byte
	ends   []int
}

// Fits says whether a row of table with values' fields joins the batch
// (same table, same fields in the same order).
func (b *Batch) Fits(table string, values []db.Field) bool {
	if table != b.Table || len(values) != len(b.Fields) {
		return false
	}
	for i := range values {
		if values[i].Name != b.Fields[i] {
			return false
		}
	}
	return true
}

// Add copies one row into the batch.
func (b *Batch) Add(table, key string, values []db.Field) {
	if b.Rows == 0 {
		b.Table = table
		b.Fields = b.Fields[:0]
		for i := range values {
			b.Fields = append(b.Fields, values[i].Name)
		}
	}
	b.arena = append(b.arena, key...)
	b.ends = append(b.ends, len(b.arena))
	for i := range values {
		b.arena = append(b.arena, values[i].Value...)
		b.ends = append(b.ends, len(b.arena))
	}
	b.Rows++
}

// Value is value i: row i/(len(Fields)+1), the key first.
func (b *Batch) Value(i int) []byte {
	start := 0
	if i > 0 {
		start = b.ends[i-1]
	}
	return b.arena[start:b.ends[i]:b.ends[i]]
}

// Bytes is the size of the values of rows [from, to).
func (b *Batch) Bytes(from, to int) int {
	cols := len(b.Fields) + 1
	start := 0
	if from > 0 {
		start = b.ends[from*cols-1]
	}
	return b.ends[to*cols-1] - start
}

// AppendParams appends values [from, to) as parameters.
func (b *Batch) AppendParams(dst [][]byte, from, to int) [][]byte {
	for i := from; i < to; i++ {
		dst = append(dst, b.Value(i))
	}
	return dst
}

// Reset empties the batch and keeps its storage.
func (b *Batch) Reset() {
	b.arena = b.arena[:0]
	b.ends = b.ends[:0]
	b.Rows = 0
}

// OwnFlush is the result of an insert whose row was the last one buffered
// before a flush. When the run was stopped while the batch was being sent,
// the rows stay buffered for Close and the insert is BATCHED_OK. When the
// batch failed, the insert fails with it and the other rows lost had been
// acked.
func OwnFlush(ctx context.Context, lost int, err error) error {
	switch {
	case err == nil:
		return nil
	case lost == 0 && ctx.Err() != nil:
		return db.ErrBatched
	}
	return LostBatch(lost-1, err)
}

// LostBatch is err, telling the measurements that acked buffered writes
// were lost with it.
func LostBatch(acked int, err error) error {
	if acked <= 0 {
		return err
	}
	return &db.LostBatchError{Acked: acked, Err: err}
}

// TruncateRows drops rows appended after the first n (Rows has no method
// for it; Reset plus re-appending keeps the storage).
func TruncateRows(out *db.Rows, n int) {
	if out.Len() == n {
		return
	}
	keep := make([]db.Record, n)
	for i := range keep {
		r := out.At(i)
		keep[i] = db.Record{Key: append([]byte(nil), r.Key...)}
		for _, f := range r.Fields {
			keep[i].Add(f.Name, f.Value)
		}
	}
	out.Reset()
	for i := range keep {
		r := out.Next()
		r.SetKey(keep[i].Key)
		for _, f := range keep[i].Fields {
			r.Add(f.Name, f.Value)
		}
	}
}

// Inserter is a session's side of buffered inserts: one batch per shard.
type Inserter interface {
	Shards() int
	// Batch is shard's batch.
	Batch(shard int) *Batch
	// SendBatch sends shard's batch, committed with it (and with the
	// session's transaction without jdbc.autocommit); after a failure the
	// shard's connection is settled.
	SendBatch(ctx context.Context, shard int) error
	// RetryBatch says whether a send that failed with err on its attempt
	// (0, 1, …) is retried.
	RetryBatch(ctx context.Context, err error, attempt int) bool
	// BatchRolledBack is the inserts acknowledged before the batch that
	// the failure err rolled back with the shard's transaction.
	BatchRolledBack(shard int, err error) int
	// BatchError is err as the session reports a batch's failure.
	BatchError(shard int, err error) error
}

// FlushShard sends shard's batch; lost is how many of its rows did not
// make it (the reference's executeBatch drops a failed batch: it is not
// kept), with the inserts its failure rolled back, and err why. When ctx
// is cancelled (the run stopped while the batch was being sent) the rows
// stay buffered and none is lost: Close sends them with a context of its
// own.
func FlushShard(ctx context.Context, in Inserter, shard int) (lost int, err error) {
	b := in.Batch(shard)
	if b.Rows == 0 {
		return 0, nil
	}
	for attempt := 0; ; attempt++ {
		err := in.SendBatch(ctx, shard)
		if err == nil {
			b.Reset()
			return 0, nil
		}
		if ctx.Err() != nil && !db.IsOutcomeUnknown(err) {
			// Not applied: Close sends the rows again.
			return 0, in.BatchError(shard, err)
		}
		if in.RetryBatch(ctx, err, attempt) {
			continue
		}
		lost = b.Rows + in.BatchRolledBack(shard, err)
		b.Reset()
		return lost, in.BatchError(shard, err)
	}
}

// Buffered is the reference's insert batching (jdbc.batchupdateapi) over a
// session's shards: pending counts the inserts buffered since the last
// flush of every shard (its rowsInBatch).
type Buffered struct{ pending int }

// Insert buffers one row in shard's batch b (BATCHED_OK) and sends the
// batches: every batchSize inserts all of them (that insert returns OK or
// the batch's error), and without batchSize (≤ 0) a shard's every
// FlushEvery rows. A row that does not fit b's table and fields sends b
// first.
func (p *Buffered) Insert(ctx context.Context, in Inserter, shard int, b *Batch, batchSize int, table, key string, values []db.Field) error {
	if b.Rows > 0 && !b.Fits(table, values) {
		// This insert is not in the batch: every row lost was acked.
		if lost, err := FlushShard(ctx, in, shard); err != nil {
			return LostBatch(lost, err)
		}
	}
	b.Add(table, key, values)
	p.pending++
	if batchSize > 0 {
		if p.pending%batchSize == 0 {
			lost, err := p.FlushAll(ctx, in)
			return OwnFlush(ctx, lost, err)
		}
		return db.ErrBatched
	}
	if b.Rows >= FlushEvery {
		lost, err := FlushShard(ctx, in, shard)
		return OwnFlush(ctx, lost, err)
	}
	return db.ErrBatched
}

// FlushAll sends every shard's batch; lost is every shard's lost rows, err
// the first error.
func (p *Buffered) FlushAll(ctx context.Context, in Inserter) (lost int, first error) {
	p.pending = 0
	for i := 0; i < in.Shards(); i++ {
		n, err := FlushShard(ctx, in, i)
		lost += n
		if err != nil && first == nil {
			first = err
		}
	}
	return lost, first
}

// Close sends every shard's batch as FlushAll does, and counts as lost the
// rows still buffered (Close's own time ran out while sending them).
func (p *Buffered) Close(ctx context.Context, in Inserter) (lost int, first error) {
	lost, first = p.FlushAll(ctx, in)
	for i := 0; i < in.Shards(); i++ {
		b := in.Batch(i)
		lost += b.Rows
		b.Reset()
	}
	return lost, first
}
