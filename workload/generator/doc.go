// Package generator implements YCSB's number generators (key choosers,
// operation chooser, field-length and scan-length distributions) following
// the Java reference algorithms, including their documented quirks.
//
// There is no package-level state: every draw takes the caller's
// *rand.Rand, normally one per worker goroutine, and no draw takes a lock.
//
// Sharing between workers:
//
//   - Shareable, read-only after construction: Constant, Uniform,
//     ScrambledZipfian, Hotspot, Exponential, Histogram, and Discrete once
//     all Add calls are done.
//   - Shareable, atomics only: Counter, AcknowledgedCounter, Sequential.
//   - Per worker: Zipfian and SkewedLatest, because NextN extends zeta in
//     place when the item count grows. Build one and Clone it per worker to
//     avoid recomputing zeta.
//
// Constructors without an error result panic on arguments for which the
// distribution is undefined (for example NewUniform with lo > hi); callers
// validate user input before constructing.
package generator
