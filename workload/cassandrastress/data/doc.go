// Package data is the data model of cassandra-stress's predefined commands
// (write, read, mixed, counter_write, counter_read), as the original
// (Apache Cassandra's tools/stress, kept in scylladb/cassandra-stress)
// generates it: the schema it creates, the key and column bytes of each
// population index, and its distributions.
//
// A keyspace written by either tool reads back validated by the other, so
// everything that decides bytes is reproduced bit for bit:
//
//   - Keys (AppendKey): the original's HexBytes generator
//     (generate/values/HexBytes.java) seeded with index^salt, drawing from
//     uniform(1..100B) on java.util.Random through commons-math3 3.2's
//     UniformRealDistribution. The salt is Cassandra's (not quite standard)
//     murmur3 of "randomstrkey".
//   - Values (Columns.AppendValue): generate/values/Bytes.java. The key's
//     bytes fold into a seed (KeySeed); per column, that seed ^ the column's
//     salt reseeds uniform(1..100B), whose draw reseeds the size
//     distribution and (complemented) FasterRandom, an xorshift reseeded
//     through java.util.Random every 32 longs, whose longs fill the cell.
//   - Sizes from -col size= (Seeded): FIXED, UNIFORM, GAUSSIAN (Java's
//     polar nextGaussian with fdlibm's log, as StrictMath), EXP
//     (commons-math3's Ahrens-Dieter sampler, not inversion) and SEQ are
//     exact. A ~ size crashes the original (it sizes its buffer by the
//     inverted maximum, which is the minimum); here it works. EXTREME matched in every golden vector but uses
//     commons-math3's FastMath pow/log in the original, so a last-bit
//     difference cannot be ruled out. QEXTREME sizes are not reproducible:
//     the original draws the offset inside a bucket from an unseeded Random.
//
// Which population index an operation touches is random in the original too:
// -pop dist= is one commons-math distribution on an unseeded, shared
// JDKRandomGenerator. There the samplers (Dist.Next, Ratio.Next) are only
// statistically equivalent: the same formulas for bounds and parameters
// (mean, stdev, the EXP mean and Weibull scale that put max-min at the
// quantile 1-sqrt(1/(max-min))), the same truncation and clamping, drawn
// from the caller's math/rand/v2 generator (NormFloat64 and ExpFloat64 in
// place of Java's algorithms). SEQ is exact: one atomic counter shared by all
// workers, as the original's AtomicLong.
//
// Everything on the hot path appends into caller buffers or Row's own, and
// allocates nothing per operation.
package data
