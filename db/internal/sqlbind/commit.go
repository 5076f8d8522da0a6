package sqlbind

import "github.com/goycsb/ycsb/db"

// Under jdbc.autocommit=false a session's writes run in a transaction per
// connection, committed every db.batchsize writes. An insert left in the
// open transaction is BATCHED_OK, not the reference's OK: it is done only
// once its COMMIT is, lost when the transaction is rolled back or its
// COMMIT fails, of unknown outcome when the COMMIT's is.

// Writes counts a session's writes since its last commit.
type Writes struct{ n int }

// Due counts one write and says whether it commits now: every batchSize
// writes, every write when batchSize ≤ 0.
func (w *Writes) Due(batchSize int) bool {
	w.n++
	return batchSize <= 0 || w.n%batchSize == 0
}

// Commits gathers the COMMITs of a session's connections.
type Commits struct {
	lost              int
	first             error
	unsure, committed bool
}

// Add records one connection's COMMIT, err nil when it went through;
// uncommitted is how many inserts its transaction acknowledged as
// BATCHED_OK, lost when it failed.
func (c *Commits) Add(uncommitted int, err error) {
	if err == nil {
		c.committed = true
		return
	}
	c.lost += uncommitted
	c.unsure = c.unsure || db.IsOutcomeUnknown(err)
	if c.first == nil {
		c.first = err
	}
}

// Result is the acknowledged inserts of the transactions whose COMMIT
// failed, and the first failure: of unknown outcome when one COMMIT's was
// (its transaction may be in the table) or when another went through (the
// row of the write that asked for the commit may be in it).
func (c *Commits) Result() (lost int, err error) {
	if c.first != nil && (c.unsure || c.committed) {
		return c.lost, db.OutcomeUnknown(c.first)
	}
	return c.lost, c.first
}

// CloseError is a session's Close's error: err, that of sending its
// buffered inserts, and cerr, that of its last COMMIT (already wrapped).
// One error stands for every row lost, so it is of unknown outcome if
// the COMMIT's was.
func CloseError(err, cerr error) error {
	switch {
	case cerr == nil:
		return err
	case err == nil:
		return cerr
	case db.IsOutcomeUnknown(cerr):
		return db.OutcomeUnknown(err)
	}
	return err
}
