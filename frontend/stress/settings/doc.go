// Package settings is the command-line grammar of the cassandra-stress
// compatible mode: `ycsb stress write n=1M -rate threads=50 -node h1,h2`,
// or the binary invoked as cassandra-stress.
//
// Parse turns argv into typed Settings, with the defaults of the original
// tool (Apache Cassandra's tools/stress, as kept by scylladb/cassandra-stress;
// the comments name its files under src/java/org/apache/cassandra/stress/settings).
// The package only parses: sampling distributions, connecting and running are
// done elsewhere.
//
// The grammar, as in the original: the command comes first, then its own
// name=value options, then groups introduced by a word starting with '-'
// (-rate, -col, -pop, ...), each followed by its sub-options. Group names and
// option names are case-insensitive. Before splitting, the words are joined
// and re-split on spaces after removing spaces around ',', '=', '(' and ')',
// so "replication(factor = 3)" and "ratio(read=1, write=2)" are one word each.
package settings
