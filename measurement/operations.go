package measurement

// Operation counts one finished operation of the owning worker's loop (a
// transaction or a load insert), the unit of [OVERALL] and of every
// interval's operation count. It takes no lock: an atomic add on the
// worker's own Recorder, which the Collector reads once per harvest.
// Warm-up operations are not counted.
func (r *Recorder) Operation() {
	if r.warm {
		return
	}
	r.ops.Add(1)
}

// FailedOperation counts one finished operation of the owning worker's
// loop that failed, as the engine judges it (run/worker.go: a
// transaction during which the session's Failed grew, a load insert that
// did not insert): an operation, and one of the interval's Failed. Like
// Operation it takes no lock.
func (r *Recorder) FailedOperation() {
	if r.warm {
		return
	}
	// The operation first: the Collector takes the failures before the
	// operations, so no interval holds a failure without its operation.
	r.ops.Add(1)
	r.failed.Add(1)
}

// FailedEarlier counts n earlier operations of the owning worker found to
// have failed after they were counted: buffered writes whose batch was
// lost (db.LostBatchError), which a run's result no longer counts as
// succeeded.
func (r *Recorder) FailedEarlier(n int64) {
	if r.warm {
		return
	}
	r.failed.Add(n)
}

// takeOperations returns the operations, and the failed ones, counted
// since the last call. It is called by the Collector only, right after it
// swapped the generation: an operation that ends between the two lands in
// one interval or the next, never in both or none.
func (r *Recorder) takeOperations() (ops, failed int64) {
	f := r.failed.Load()
	n := r.ops.Load()
	ops, failed = n-r.harvested, f-r.harvestedFailed
	r.harvested, r.harvestedFailed = n, f
	return ops, failed
}
