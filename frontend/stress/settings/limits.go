package settings

import "math"

// The bounds of what the command line and the profiles accept. Each is
// checked while parsing (or, for what needs the table's column types, once
// they are known and before anything is created), so that a size the run
// cannot carry is one line and exit 2, not an out-of-memory crash or a
// loop in the middle of a run. docs/stress.md lists them.
const (
	// MaxFrameBytes is the largest native-protocol frame Cassandra accepts
	// by default in any version (3.x's native_transport_max_frame_size_in_mb
	// is 256; 4.0 and later default to 16 MiB, and refuse more themselves).
	// One statement travels in one frame: a value, the row of a predefined
	// command (its key and every cell) and the batch of a profile's insert
	// are each at most this many bytes.
	MaxFrameBytes = 256 << 20

	// MaxKeyBytes bounds keysize=: Cassandra refuses a partition key of
	// more than 65535 bytes ("Key length of N is longer than maximum of
	// 65535").
	MaxKeyBytes = 65535

	// MaxColumns bounds -col n= (and the count of names=).
	MaxColumns = 1 << 20

	// MaxBatchStatements bounds the rows of one insert that is a batch:
	// the native protocol's BATCH message counts its statements in a
	// [short], and the original's driver refuses more ("Batch statement
	// cannot contain more than 65535 statements"). -insert partitions= and
	// a profile's insert partitions: are bounded by it too, each partition
	// being at least one row.
	MaxBatchStatements = 65535

	// MaxPartitionRows bounds the rows of one partition of a profile (the
	// product of its clustering columns' cluster: maxima): the original
	// counts a partition's rows in a Java int (Seed.position, and 1 + the
	// rows for an insert of the whole partition), which wraps past it.
	MaxPartitionRows = math.MaxInt32 - 1

	// MaxClusterValues bounds a cluster: distribution: a clustering level's
	// values are generated and kept for each partition visited (the
	// original keeps them in a queue too), with some 64 bytes of
	// bookkeeping each, within MaxFrameBytes.
	MaxClusterValues = MaxFrameBytes / 64

	// MaxPartitionLevelBytes bounds what one partition's clustering levels
	// hold (each level's values and their bookkeeping).
	MaxPartitionLevelBytes = MaxFrameBytes

	// MaxDistValue bounds the minimum and maximum of every distribution,
	// and n=, which is the default population's maximum: 10^18 (1000000000b)
	// in absolute value, so that max-min+1 always fits a 64-bit integer
	// (the original's longs overflow past it, and a sequence's length
	// wraps to 0).
	MaxDistValue = 1_000_000_000_000_000_000

	// MaxQuantas bounds QEXTREME's quantas: its bounds are kept in memory.
	MaxQuantas = 1 << 20

	// MaxThreads bounds -rate threads=, threads>= and threads<=: the
	// run's limit on workers (each holds its session, recorders and
	// buffers).
	MaxThreads = 100_000

	// MaxInt is the bound of the options the original parses as a Java
	// int (Integer.parseInt): retries=, n>, n<, super=, remote-dc=,
	// connectionsPerHost=, requestTimeout= (milliseconds), the rates of
	// throttle= and fixed=, split-factor=, and a profile's page_size.
	MaxInt = math.MaxInt32

	// MaxPending bounds -mode maxPending=: the original's driver takes at
	// most 32768 requests per connection with protocol v3 and later (a
	// connection's stream ids), 128 with v2.
	MaxPending = 32768

	// MaxDelayMS bounds -errors min-delay-ms= and max-delay-ms=: the
	// longest wait a Go time.Duration holds (about 292 years).
	MaxDelayMS = math.MaxInt64 / 1_000_000

	// MaxTokenRanges bounds the token ranges of -tokenrange: the ring's
	// ranges times split-factor=, each kept in memory and read by at least
	// one query.
	MaxTokenRanges = 1 << 20
)
