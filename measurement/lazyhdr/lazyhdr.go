// Package lazyhdr is an HdrHistogram for recording whose counts are
// allocated in chunks, on the first value recorded into each chunk.
//
// A dense hdrhistogram.Histogram with the reference's one-hour range and 3
// significant digits holds 23,552 counts (184 KiB) from the start. Every
// worker keeps one per operation it measures, twice (the set it records into
// and the spare the Collector swaps in), so a run of thousands of threads
// spent most of its memory on counts that stay zero: latencies of one
// operation fill a few narrow ranges. Here an empty histogram is a table of
// chunk pointers (a few hundred bytes) and each range in use costs one chunk.
//
// The bucket geometry is hdrhistogram.New's, index for index, so MergeInto a
// dense histogram of the same arguments gives exactly the counts recording
// the same values into it would have: percentiles, encodings and logs are
// unchanged. Recording is an index computation, one chunk load and a nil
// check that fails only the first time a chunk is touched.
package lazyhdr

import (
	"fmt"
	"math"
	"math/bits"
	"sync"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// chunkBits sets the chunk size: 128 counts (1 KiB). Smaller chunks waste
// less on sparse ranges but make the pointer table longer (184 entries for
// the one-hour range at 3 digits); this keeps both near 1 KiB.
const (
	chunkBits = 7
	chunkLen  = 1 << chunkBits
	chunkMask = chunkLen - 1
)

type chunk [chunkLen]int64

// Histogram records values into lazily allocated chunks of counts. Not safe
// for concurrent use.
type Histogram struct {
	chunks []*chunk // nil until a value falls into the chunk's range
	total  int64

	// Geometry, as hdrhistogram.New computes it for the same arguments.
	unitMagnitude     uint8
	halfCountMag      uint8 // log2 of half the sub-bucket count
	subBucketMask     int64
	countsLen         int32
	lowest, highest   int64
	significantDigits int
}

// New returns an empty histogram with the geometry of hdrhistogram.New(lowest,
// highest, digits). digits is 1 to 5 and lowest at least 1 (New would clamp
// them; here they are a caller's bug).
func New(lowest, highest int64, digits int) *Histogram {
	if lowest < 1 || digits < 1 || digits > 5 || highest < 2*lowest {
		panic(fmt.Sprintf("lazyhdr: invalid geometry lowest=%d highest=%d digits=%d", lowest, highest, digits))
	}
	// The reference HdrHistogram's arithmetic (hdrhistogram-go's
	// newExactGeometry): enough sub-buckets for single-unit resolution up
	// to 2×10^digits, then as many doubling buckets as cover highest.
	largestSingleUnit := 2 * int64(math.Pow10(digits))
	subBucketCountMag := int(math.Ceil(math.Log2(float64(largestSingleUnit))))
	halfCountMag := max(subBucketCountMag, 1) - 1
	unitMagnitude := int(math.Floor(math.Log2(float64(lowest))))
	subBucketCount := int64(1) << (halfCountMag + 1)

	smallestUntrackable := subBucketCount << unitMagnitude
	buckets := int64(1)
	for smallestUntrackable <= highest {
		if smallestUntrackable > math.MaxInt64/2 {
			buckets++
			break
		}
		smallestUntrackable <<= 1
		buckets++
	}
	countsLen := (buckets + 1) * (subBucketCount / 2)
	return &Histogram{
		chunks:            make([]*chunk, (countsLen+chunkMask)>>chunkBits),
		unitMagnitude:     uint8(unitMagnitude),
		halfCountMag:      uint8(halfCountMag),
		subBucketMask:     (subBucketCount - 1) << unitMagnitude,
		countsLen:         int32(countsLen),
		lowest:            lowest,
		highest:           highest,
		significantDigits: digits,
	}
}

// index is hdrhistogram's countsIndexFor: the bucket is the power of two
// above the sub-bucket range, the sub-bucket the value shifted down to it.
func (h *Histogram) index(v int64) int {
	bucket := 64 - bits.LeadingZeros64(uint64(v|h.subBucketMask)) - int(h.unitMagnitude) - int(h.halfCountMag) - 1
	sub := int(v >> (uint(bucket) + uint(h.unitMagnitude)))
	return (bucket+1)<<h.halfCountMag + sub - 1<<h.halfCountMag
}

// value is the lowest value counted at index i (hdrhistogram's
// valueFromIndex of i's bucket and sub-bucket).
func (h *Histogram) value(i int) int64 {
	bucket := max(i>>h.halfCountMag-1, 0)
	sub := i - bucket<<h.halfCountMag
	return int64(sub) << (uint(bucket) + uint(h.unitMagnitude))
}

// RecordValue counts one occurrence of v. Values the dense histogram would
// reject (negative, or past its last bucket) are rejected the same way.
func (h *Histogram) RecordValue(v int64) error {
	if v < 0 {
		return fmt.Errorf("lazyhdr: value %d is negative and cannot be recorded", v)
	}
	i := h.index(v)
	if uint(i) >= uint(h.countsLen) {
		return fmt.Errorf("lazyhdr: value %d is too large to be recorded", v)
	}
	c := h.chunks[i>>chunkBits]
	if c == nil {
		c = h.allocate(i)
	}
	c[i&chunkMask]++
	h.total++
	return nil
}

// idleChunks holds zeroed chunks that Reset took from histograms whose
// values moved elsewhere, for any histogram to take on its next first touch
// of a range. sync.Pool keeps them per P: no lock shared by the workers.
var idleChunks sync.Pool

// allocate is out of line so that RecordValue stays small: it runs once per
// chunk while the histogram's values keep falling in that range (Reset
// keeps the chunks that were used).
//
//go:noinline
func (h *Histogram) allocate(i int) *chunk {
	c, _ := idleChunks.Get().(*chunk)
	if c == nil {
		c = new(chunk)
	}
	h.chunks[i>>chunkBits] = c
	return c
}

// TotalCount returns the number of values recorded.
func (h *Histogram) TotalCount() int64 { return h.total }

// Reset zeroes the counts. It keeps the chunks that held values, since a
// histogram reused interval after interval mostly records into the same
// ranges again, and releases the ones that stayed empty since the previous
// Reset. A worker of a run with thousands of threads records a few values
// per interval over a wide range; were every chunk it ever touched kept, its
// histograms would grow to the whole range over a long run.
func (h *Histogram) Reset() {
	for i, c := range h.chunks {
		switch {
		case c == nil:
		case *c == chunk{}:
			h.chunks[i] = nil
			idleChunks.Put(c)
		default:
			*c = chunk{}
		}
	}
	h.total = 0
}

// MergeInto adds h's counts to d, as d.Merge would from a dense histogram
// holding the same values, and returns the count d dropped: none when d was
// made by hdrhistogram.New with h's arguments.
func (h *Histogram) MergeInto(d *hdrhistogram.Histogram) (dropped int64) {
	if h.total == 0 {
		return 0
	}
	for ci, c := range h.chunks {
		if c == nil {
			continue
		}
		for j, n := range c {
			if n == 0 {
				continue
			}
			if d.RecordValues(h.value(ci<<chunkBits+j), n) != nil {
				dropped += n
			}
		}
	}
	return dropped
}

// Dense returns a new hdrhistogram.Histogram with h's geometry and counts.
func (h *Histogram) Dense() *hdrhistogram.Histogram {
	d := hdrhistogram.New(h.lowest, h.highest, h.significantDigits)
	if h.MergeInto(d) != 0 {
		panic("lazyhdr: a histogram of the same geometry dropped values")
	}
	return d
}

// ChunksInUse returns how many chunks of counts have been allocated.
func (h *Histogram) ChunksInUse() int {
	n := 0
	for _, c := range h.chunks {
		if c != nil {
			n++
		}
	}
	return n
}
