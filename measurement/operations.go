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

// takeOperations returns the operations counted since the last call. It is
// called by the Collector only, right after it swapped the generation: an
// operation that ends between the two lands in one interval or the next,
// never in both or none.
func (r *Recorder) takeOperations() int64 {
	n := r.ops.Load()
	d := n - r.harvested
	r.harvested = n
	return d
}
