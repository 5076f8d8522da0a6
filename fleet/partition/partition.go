// Package partition splits one benchmark among several client processes
// (client.count, client.index), so that N machines together do what one
// would: each client's slice of the records to load, its share of the
// operations and of the target rate, the key numbers of its run-phase
// inserts, and its random seed. docs/clients.md describes the scheme.
package partition

import (
	"fmt"
)

// IndexEnv is the variable client.index=auto reads: a Kubernetes Indexed
// Job sets it to each pod's completion index.
const IndexEnv = "JOB_COMPLETION_INDEX"

// MaxCount bounds client.count, so that run-phase insert key numbers
// (recordcount + index + k·count, see Clients.InsertKey) stay far within an
// int64 for every count the workload accepts (workload.MaxCount).
const MaxCount = 1000

// Clients is one client's place among Count: the zero value is a lone
// client, the reference's behaviour.
type Clients struct {
	Count int // 0 without client.count
	Index int // 0 to Count-1
}

// Split reports whether client.count was given, even as 1.
func (c Clients) Split() bool { return c.Count > 0 }

func (c Clients) n() int64 { return int64(max(c.Count, 1)) }

// Slice returns this client's part of the numbers 0..total-1: the slices of
// the Count clients are disjoint, cover them all, and differ in length by
// at most one (the first total%Count clients take one more).
func (c Clients) Slice(total int64) (start, count int64) {
	n, i := c.n(), int64(c.Index)
	q, r := total/n, total%n
	return i*q + min(i, r), c.Share(total)
}

// Share returns this client's share of total (operationcount, target): the
// shares of the Count clients sum to total exactly.
func (c Clients) Share(total int64) int64 {
	n, i := c.n(), int64(c.Index)
	s := total / n
	if i < total%n {
		s++
	}
	return s
}

// InsertKey maps the k-th key number of this client's run-phase insert
// counter, which starts at base (recordcount) as the reference's does, to
// a key number no other client inserts: base + Index + (k-base)·Count.
// Numbers below base (the loaded records) are every client's and map to
// themselves. With a lone client it is the identity.
func (c Clients) InsertKey(base, k int64) int64 {
	if k < base || c.Count <= 1 {
		return k
	}
	return base + int64(c.Index) + (k-base)*int64(c.Count)
}

// Seed returns the seed of this client's workers from a base seed: clients
// started with the same base (a fixed seed, or the same nanosecond) still
// draw different operations and keys.
func (c Clients) Seed(base uint64) uint64 {
	// An odd multiplier spreads consecutive indexes over the whole range.
	return base + uint64(c.Index)*0xbf58476d1ce4e5b9
}

// String is how the start-up lines and reports name the client: "2/3".
func (c Clients) String() string {
	if !c.Split() {
		return ""
	}
	return fmt.Sprintf("%d/%d", c.Index, c.Count)
}
