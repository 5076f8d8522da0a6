package settings

// The sub-options of each group, after the original's Settings*.java option
// declarations. The descriptions are ours.

var commonCommandOpts = []opt{
	{name: "n=", arg: "N", desc: "number of operations to perform (suffixes k, m, b)"},
	{name: "duration=", arg: "N[s|m|h]", desc: "run for this long"},
	{name: "err<", arg: "0.F", def: "0.02", desc: "run until the standard error of the mean op rate is below this fraction"},
	{name: "n>", arg: "N", def: "30", desc: "with err<: take at least this many measurements"},
	{name: "n<", arg: "N", def: "200", desc: "with err<: take at most this many measurements"},
	{name: "no-warmup", kind: optFlag, desc: "skip the warm-up"},
	{name: "truncate=", arg: "never|once|always", def: "never", desc: "truncate the table never, once before any work, or before each thread-count step"},
	{name: "cl=", arg: "LEVEL", def: "LOCAL_ONE", desc: "consistency level: ONE TWO THREE QUORUM LOCAL_QUORUM EACH_QUORUM ALL ANY LOCAL_ONE SERIAL LOCAL_SERIAL"},
	{name: "serial-cl=", arg: "SERIAL|LOCAL_SERIAL", def: "SERIAL", desc: "serial consistency level"},
}

var stopForms = []string{"[err<?] [n>?] [n<?]", "n=?", "duration=?"}

var predefinedOpts = append(append([]opt{}, commonCommandOpts...),
	opt{name: "keysize=", arg: "N", def: "10", desc: "partition key size in bytes"},
	opt{name: "add=", arg: "DIST(?)", def: "FIXED(1)", desc: "distribution of counter increments"},
)

var mixedOpts = append(append([]opt{}, predefinedOpts...),
	opt{name: "ratio", kind: optMulti, arg: "read=?,write=?,counter_write=?,counter_read=?", def: "read=1,write=1", desc: "relative weights of the operations, e.g. ratio(read=3,write=1)"},
	opt{name: "clustering=", arg: "DIST(?)", def: "GAUSSIAN(1..10)", desc: "length of runs of one kind of operation"},
)

var userOpts = append(append([]opt{}, commonCommandOpts...),
	opt{name: "profile=", arg: "FILE[,FILE]", desc: "YAML profile(s) defining the schema, the insert and the queries (required)"},
	opt{name: "ops", kind: optMulti, arg: "insert=?,QUERY=?", desc: "relative weights of insert and the profile's queries; with several profiles name them specname.query (required)"},
	opt{name: "clustering=", arg: "DIST(?)", def: "GAUSSIAN(1..10)", desc: "length of runs of one kind of operation"},
)

var (
	rateGroup = &group{
		name:  "-rate",
		desc:  "thread count and rate limit, or a thread count that ramps up (the default)",
		forms: []string{"threads=? [throttle=?] [fixed=?]", "[threads>=?] [threads<=?] [auto]", "capacity [start=?] [growth=?] [resolution=?] [step=?] [cooldown=?] [threads>=?] [threads<=?]"},
		opts: []opt{
			{name: "threads=", arg: "N", desc: "run this many clients"},
			{name: "throttle=", arg: "N/s", desc: "at most N operations per second across all clients, no schedule"},
			{name: "fixed=", arg: "N/s", desc: "N operations per second across all clients on a fixed schedule; latency counts from the intended start"},
			{name: "threads>=", arg: "N", def: "4", desc: "ramp: start with this many clients"},
			{name: "threads<=", arg: "N", def: "1000", desc: "ramp: run at most this many clients"},
			{name: "auto", kind: optFlag, desc: "ramp: stop once throughput stops improving (otherwise every step up to threads<= runs)"},
			{name: "capacity", kind: optFlag, desc: "ours: search for the highest fixed= rate that meets -slo: steps at rising rates, then bisection; threads from threads>= up to threads<= as the rate needs"},
			{name: "start=", arg: "N/s", def: "1000/s", desc: "capacity: the first step's rate"},
			{name: "growth=", arg: "X", def: "2", desc: "capacity: the rate's factor from step to step until one fails"},
			{name: "resolution=", arg: "N%", def: "5%", desc: "capacity: stop once the bracket is this narrow"},
			{name: "step=", arg: "N[s|m]", def: "10s", desc: "capacity: each step's measured time (longer when its percentiles need more operations), after 2s of warm-up"},
			{name: "cooldown=", arg: "N[s|m]", def: "2s", desc: "capacity: idle time before each step but the first (0: back to back); a step that does not pass runs again to confirm it"},
		},
		notes: []string{
			"Default: threads=200 for write and counter_write with n=, otherwise auto with threads>=4 threads<=1000.",
			"Quote threads>=N and threads<=N in a shell: unquoted, threads>=16 redirects the output to a file named =16.",
		},
	}
	popGroup = &group{
		name:  "-pop",
		desc:  "how partition keys (seeds) are chosen, and the order of rows within a partition",
		forms: []string{"seq=? [no-wrap] [read-lookback=?] [contents=?]", "[dist=?] [contents=?]"},
		opts: []opt{
			{name: "seq=", arg: "MIN..MAX", def: "1..N", desc: "visit every seed in sequence (default for write and counter_write; N is n=, or 1000000)"},
			{name: "no-wrap", kind: optFlag, desc: "with seq=: stop once every seed has been visited"},
			{name: "read-lookback=", arg: "DIST(?)", desc: "with seq=: pick read seeds among the recently written ones"},
			{name: "dist=", arg: "DIST(?)", def: "GAUSSIAN(1..N)", desc: "draw seeds from this distribution (default for the other commands)"},
			{name: "contents=", arg: "sorted|shuffled", desc: "order of rows within a partition; consistent but arbitrary if not given"},
		},
	}
	colGroup = &group{
		name:  "-col",
		desc:  "columns of the predefined commands: count, size, names",
		forms: []string{"names=? [slice] [super=?] [comparator=?] [timestamp=?] [size=?]", "[n=?] [slice] [super=?] [comparator=?] [timestamp=?] [size=?]"},
		opts: []opt{
			{name: "names=", arg: "A,B,...", desc: "explicit column names"},
			{name: "n=", arg: "DIST(?)", def: "FIXED(5)", desc: "cells per operation; columns are named C0, C1, ..."},
			{name: "size=", arg: "DIST(?)", def: "FIXED(34)", desc: "cell size in bytes"},
			{name: "slice", kind: optFlag, desc: "reads are SELECT *, which (key and columns) never validates, as in the original: add -errors skip-read-validation"},
			{name: "super=", arg: "N", def: "0", desc: "number of super columns"},
			{name: "comparator=", arg: "AsciiType|UTF8Type|TimeUUIDType", def: "AsciiType", desc: "column name type"},
			{name: "timestamp=", arg: "N", desc: "write every cell with this timestamp"},
		},
	}
	insertGroup = &group{
		name:  "-insert",
		desc:  "how inserts of a user profile are split and batched (predefined commands: row-population-ratio= only)",
		forms: []string{"[revisit=?] [visits=?] [partitions=?] [batchtype=?] [select-ratio=?] [row-population-ratio=?]"},
		opts: []opt{
			{name: "revisit=", arg: "DIST(?)", def: "UNIFORM(1..1M)", desc: "how partially written partitions are revisited; also bounds how many are kept"},
			{name: "visits=", arg: "DIST(?)", def: "FIXED(1)", desc: "split each partition into this many inserts"},
			{name: "partitions=", arg: "DIST(?)", desc: "partitions updated by one batch"},
			{name: "batchtype=", arg: "logged|unlogged|counter", desc: "batch statement type; not batching if not given"},
			{name: "select-ratio=", arg: "DIST(?)/N", desc: "share of the generated rows of a partition to write"},
			{name: "row-population-ratio=", arg: "DIST(?)/N", def: "FIXED(1)/1", desc: "share of each row's columns to populate"},
		},
	}
	schemaGroup = &group{
		name:  "-schema",
		desc:  "keyspace, replication, compaction and compression of the predefined tables",
		forms: []string{"[replication(?)] [storage(?)] [keyspace=?] [compaction(?)] [compression=?]"},
		opts: []opt{
			{name: "replication", kind: optMulti, arg: "strategy=?,factor=?,KEY=?", desc: "replication strategy (default NetworkTopologyStrategy), factor (default 1) and other options such as a datacenter's factor"},
			{name: "storage", kind: optMulti, arg: "type=LOCAL|S3,endpoint=?,bucket=?", desc: "keyspace storage options (ScyllaDB)"},
			{name: "keyspace=", arg: "NAME", def: "keyspace1", desc: "keyspace name"},
			{name: "compaction", kind: optMulti, arg: "strategy=?,KEY=?", desc: "compaction strategy and its options"},
			{name: "compression=", arg: "CLASS", desc: "sstable compression; none if not given"},
		},
	}
	modeGroup = &group{
		name:  "-mode",
		desc:  "protocol and connection options",
		forms: []string{"native cql3 [prepared|unprepared] [compression=?] [protocolVersion=?] [user=?] [password=?] [auth-provider=?] [maxPending=?] [connectionsPerHost=?] [requestTimeout=?] [speculativeDelay=?]"},
		opts: []opt{
			{name: "native", kind: optFlag, desc: "the native protocol (the default)"},
			{name: "4x", kind: optFlag, desc: "the original's driver-4 mode: the same native client, protocol version negotiated"},
			{name: "cql3", kind: optFlag, desc: "CQL 3 (required with native)"},
			{name: "prepared", kind: optFlag, desc: "use prepared statements (the default)"},
			{name: "unprepared", kind: optFlag, desc: "use unprepared statements"},
			{name: "compression=", arg: "none|lz4|snappy", def: "none", desc: "protocol compression"},
			{name: "protocolVersion=", arg: "2|3|4", desc: "native protocol version; 4 if not given (the original's Java driver 3), negotiated with 4x"},
			{name: "user=", arg: "NAME", desc: "user name"},
			{name: "password=", arg: "SECRET", desc: "password"},
			{name: "auth-provider=", arg: "CLASS", desc: "authentication provider class"},
			{name: "maxPending=", arg: "N", desc: "maximum pending requests per connection"},
			{name: "connectionsPerHost=", arg: "N", def: "8", desc: "connections per host"},
			{name: "requestTimeout=", arg: "MS", def: "12000", desc: "request timeout in milliseconds"},
			{name: "speculativeDelay=", arg: "MS", def: "0", desc: "ours: after MS milliseconds without an answer, send the same idempotent request to another replica (0: never)"},
			{name: "port=", arg: "N", desc: "accepted and ignored, as by the original; use -port native="},
			{name: "thrift", kind: optFlag, desc: "not supported"},
			{name: "simplenative", kind: optFlag, desc: "not supported"},
			{name: "smart", kind: optFlag, desc: "not supported (thrift only)"},
		},
	}
	nodeGroup = &group{
		name:  "-node",
		desc:  "the nodes to connect to",
		forms: []string{"[HOST,HOST,...] [file=?] [whitelist] [datacenter=?] [rack=?] [loadbalance=?] [remote-dc=?]"},
		opts: []opt{
			{name: "", kind: optList, arg: "HOST,HOST,...", def: "localhost", desc: "comma-separated nodes"},
			{name: "file=", arg: "FILE", desc: "read the nodes from a file, one per line"},
			{name: "whitelist", kind: optFlag, desc: "talk only to the nodes given"},
			{name: "datacenter=", arg: "DC", desc: "local datacenter for the DC-aware policy"},
			{name: "rack=", arg: "RACK", desc: "local rack for the rack-aware policy"},
			{name: "loadbalance=", arg: "round-robin|dc-aware|rack-aware", desc: "load balancing policy"},
			{name: "remote-dc=", arg: "N", desc: "hosts per remote datacenter used for failover (dc-aware)"},
		},
	}
	portGroup = &group{
		name:  "-port",
		desc:  "ports to connect to",
		forms: []string{"[native=?] [thrift=?] [jmx=?]"},
		opts: []opt{
			{name: "native=", arg: "N", def: "9042", desc: "native protocol port"},
			{name: "thrift=", arg: "N", def: "9160", desc: "thrift port; accepted but unused"},
			{name: "jmx=", arg: "N", def: "7199", desc: "JMX port, for GC statistics; accepted but unused"},
		},
	}
	logGroup = &group{
		name:  "-log",
		desc:  "where progress goes and how often",
		forms: []string{"[level=?] [no-summary] [file=?] [hdrfile=?] [json=?] [interval=?] [no-settings] [print-statements-on-error]"},
		opts: []opt{
			{name: "level=", arg: "minimal|normal|verbose", def: "normal", desc: "logging level"},
			{name: "no-summary", kind: optFlag, desc: "do not print the results at the end"},
			{name: "no-settings", kind: optFlag, desc: "do not print the settings at the start"},
			{name: "file=", arg: "FILE", desc: "also write the output to this file"},
			{name: "hdrfile=", arg: "FILE", desc: "write HdrHistogram interval logs to this file"},
			{name: "json=", arg: "FILE", desc: "write the results as JSON to this file (not in the original)"},
			{name: "interval=", arg: "N[ms|s]", def: "1s", desc: "report progress this often (a bare number is seconds)"},
			{name: "print-statements-on-error", kind: optFlag, desc: "print failing CQL statements"},
		},
	}
	graphGroup = &group{
		name:  "-graph",
		desc:  "write the metrics as an HTML chart",
		forms: []string{"file=? [revision=?] [title=?] [op=?]"},
		opts: []opt{
			{name: "file=", arg: "FILE", desc: "HTML file to create or add to (required)"},
			{name: "revision=", arg: "NAME", def: "unknown", desc: "name of this run's series"},
			{name: "title=", arg: "TEXT", desc: "chart title"},
			{name: "op=", arg: "NAME", desc: "name of the operation (the command by default)"},
		},
	}
	errorsGroup = &group{
		name:  "-errors",
		desc:  "what to do when an operation fails",
		forms: []string{"[retries=?] [ignore] [fail-fast] [skip-read-validation] [skip-unsupported-columns] [delay-policy=?] [min-delay-ms=?] [max-delay-ms=?]"},
		opts: []opt{
			{name: "retries=", arg: "N", def: "9", desc: "retry a failed operation this many times; one that still fails ends the run"},
			{name: "ignore", kind: optFlag, desc: "count failed operations and go on"},
			{name: "fail-fast", kind: optFlag, desc: "stop at the first failed thread when running for a duration (here: as without it)"},
			{name: "skip-read-validation", kind: optFlag, desc: "do not validate what reads return"},
			{name: "skip-unsupported-columns", kind: optFlag, desc: "user profiles: skip columns whose type cannot be generated"},
			{name: "delay-policy=", arg: "constant|linear|exponential", def: "constant", desc: "delay before a retry"},
			{name: "min-delay-ms=", arg: "N", def: "0", desc: "minimum retry delay (must be above 0 with exponential)"},
			{name: "max-delay-ms=", arg: "N", def: "20000", desc: "maximum retry delay"},
		},
	}
	transportGroup = &group{
		name:  "-transport",
		desc:  "TLS options",
		forms: []string{"[truststore=?] [truststore-password=?] [keystore=?] [keystore-password=?] [ssl-protocol=?] [ssl-alg=?] [store-type=?] [ssl-ciphers=?] [hostname-verification=?] [factory=?]"},
		opts: []opt{
			{name: "truststore=", arg: "FILE", desc: "truststore (JKS, PKCS12 or PEM); giving it turns TLS on"},
			{name: "truststore-password=", arg: "SECRET", desc: "truststore password"},
			{name: "keystore=", arg: "FILE", desc: "keystore (JKS, PKCS12 or PEM key and chain), for a client certificate"},
			{name: "keystore-password=", arg: "SECRET", desc: "keystore password"},
			{name: "ssl-protocol=", arg: "TLS|TLSv1.2|TLSv1.3", def: "TLS", desc: "TLS version (TLS: 1.2 or 1.3)"},
			{name: "ssl-alg=", arg: "SunX509|NewSunX509|PKIX", def: "SunX509", desc: "the JVM's key manager algorithm; no effect here"},
			{name: "store-type=", arg: "JKS|PKCS12|PEM", def: "JKS", desc: "keystore format (the files are read by content)"},
			{name: "ssl-ciphers=", arg: "A,B,...", def: defaultCiphers, desc: "cipher suites (IANA names)"},
			{name: "hostname-verification=", arg: "true|false", def: "false", desc: "verify the node's name or IP (its chain always is)"},
			{name: "factory=", arg: "CLASS", def: defaultFactory, desc: "thrift transport factory; accepted but unused"},
		},
	}
	tokenRangeGroup = &group{
		name:  "-tokenrange",
		desc:  "token range queries of a user profile",
		forms: []string{"[wrap] [split-factor=?]"},
		opts: []opt{
			{name: "wrap", kind: optFlag, desc: "reuse token ranges so that the run can end"},
			{name: "split-factor=", arg: "N", def: "1", desc: "split every token range into this many"},
		},
	}
	sloGroup = &group{
		name:  "-slo",
		desc:  "service level objectives the run is judged against (not in the original)",
		forms: []string{"OBJECTIVES [abort]"},
		opts: []opt{
			{name: "OBJECTIVES", kind: optList, arg: "OP.pNN<=TIME,...", desc: "e.g. \"write.p99<=5ms, read.max<=1s, errors<=0.1%, throughput>=10000\": OP is an operation of the run or ALL, TIME in us, ms or s; exit code 3 when one fails"},
			{name: "abort", kind: optFlag, desc: "stop the run once an objective has failed beyond doubt"},
		},
	}
)

const (
	defaultCiphers = "TLS_AES_256_GCM_SHA384,TLS_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
	defaultFactory = "org.apache.cassandra.thrift.TFramedTransportFactory"
)

// groupOrder is the order of the groups in help (the original's CliOption).
var groupOrder = []*group{popGroup, insertGroup, colGroup, rateGroup, modeGroup, errorsGroup, schemaGroup,
	nodeGroup, logGroup, transportGroup, portGroup, graphGroup, tokenRangeGroup, sloGroup}

func lookupGroup(name string) *group {
	for _, g := range groupOrder {
		if g.name == name {
			return g
		}
	}
	return nil
}
