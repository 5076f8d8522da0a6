package settings

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/goycsb/ycsb/measurement/slo"
)

// Command is the first word of the command line.
type Command int

// The commands of the original's Command.java. Legacy is not offered.
const (
	CmdRead Command = iota
	CmdWrite
	CmdMixed
	CmdCounterWrite
	CmdCounterRead
	CmdUser
	CmdHelp
	CmdPrint
	CmdVersion
)

var commandNames = [...]string{"read", "write", "mixed", "counter_write", "counter_read", "user", "help", "print", "version"}

func (c Command) String() string {
	if int(c) < len(commandNames) {
		return commandNames[c]
	}
	return fmt.Sprintf("Command(%d)", int(c))
}

// Updates says whether the command writes (the original's Command.updates).
func (c Command) Updates() bool {
	return c == CmdWrite || c == CmdMixed || c == CmdCounterWrite || c == CmdUser
}

// Predefined says whether the command uses the built-in standard1/counter1
// tables, so that -col, keysize= and add= apply.
func (c Command) Predefined() bool { return c <= CmdCounterRead && c != CmdUser }

// commandAliases: each name, its form without '_', and the extra name
// (insert, counter_add, counter_get) with and without '_', as Command.java.
var commandAliases = map[string]Command{
	"read": CmdRead, "write": CmdWrite, "insert": CmdWrite, "mixed": CmdMixed,
	"counter_write": CmdCounterWrite, "counterwrite": CmdCounterWrite, "counter_add": CmdCounterWrite, "counteradd": CmdCounterWrite,
	"counter_read": CmdCounterRead, "counterread": CmdCounterRead, "counter_get": CmdCounterRead, "counterget": CmdCounterRead,
	"user": CmdUser, "help": CmdHelp, "-?": CmdHelp, "print": CmdPrint, "version": CmdVersion,
}

// ConsistencyLevel is a CQL consistency level.
type ConsistencyLevel int

// The levels the original's cl= accepts (SettingsCommand.java).
const (
	LocalOne ConsistencyLevel = iota
	One
	Two
	Three
	Quorum
	LocalQuorum
	EachQuorum
	All
	Any
	Serial
	LocalSerial
)

var clNames = [...]string{"LOCAL_ONE", "ONE", "TWO", "THREE", "QUORUM", "LOCAL_QUORUM", "EACH_QUORUM", "ALL", "ANY", "SERIAL", "LOCAL_SERIAL"}

func (c ConsistencyLevel) String() string {
	if int(c) < len(clNames) {
		return clNames[c]
	}
	return fmt.Sprintf("ConsistencyLevel(%d)", int(c))
}

// ParseConsistencyLevel parses a level case-insensitively.
func ParseConsistencyLevel(s string) (ConsistencyLevel, bool) {
	for i, n := range clNames {
		if strings.EqualFold(s, n) {
			return ConsistencyLevel(i), true
		}
	}
	return 0, false
}

// Truncate says when to truncate the tables before running.
type Truncate int

// The values of truncate=.
const (
	TruncateNever  Truncate = iota
	TruncateOnce            // once, before any work
	TruncateAlways          // before each thread-count step
)

func (t Truncate) String() string {
	return [...]string{"NEVER", "ONCE", "ALWAYS"}[t]
}

// StopKind says what ends a run.
type StopKind int

// The three mutually exclusive stop rules.
const (
	// StopUncertainty runs until the standard error of the mean op rate falls
	// below a target (err<0.02 n>30 n<200, the default).
	StopUncertainty StopKind = iota
	StopCount                // n=
	StopDuration             // duration=
)

// CommandSettings are the options that follow the command word.
type CommandSettings struct {
	Type Command
	Stop StopKind

	Count    int64         // n=, when Stop is StopCount
	Duration time.Duration // duration=, when Stop is StopDuration

	// err<, n>, n<: when Stop is StopUncertainty.
	TargetUncertainty float64
	MinMeasurements   int
	MaxMeasurements   int

	NoWarmup bool
	Truncate Truncate
	CL       ConsistencyLevel // default LOCAL_ONE
	SerialCL ConsistencyLevel // SERIAL or LOCAL_SERIAL; default SERIAL

	// Predefined commands (read, write, mixed, counter_*).
	KeySize int  // keysize=, bytes; default 10
	Add     Dist // add=, counter increments; default FIXED(1)

	// mixed: ratio(read=,write=,counter_write=,counter_read=), default
	// read=1,write=1, in the order read, write, counter_write, counter_read.
	Ratios []CommandRatio
	// user: ops(name=weight,...) in the order typed.
	Ops []OpRatio
	// mixed and user: clustering=, how long runs of one kind of operation
	// are; default GAUSSIAN(1..10).
	Clustering Dist
	// user: profile=a.yaml[,b.yaml].
	Profiles []string
}

// CommandRatio is one weight of mixed's ratio(...).
type CommandRatio struct {
	Command Command
	Weight  float64
}

// OpRatio is one weight of user's ops(...): insert, a query name from the
// profile, or specname.query with several profiles.
type OpRatio struct {
	Op     string
	Weight float64
}

// RateSettings is -rate.
type RateSettings struct {
	// Threads is the fixed client count (threads=); 0 means the thread count
	// ramps from MinThreads to MaxThreads.
	Threads int
	// OpsPerSecond limits the rate across all clients (throttle= or fixed=);
	// 0 means unlimited. Fixed says it came from fixed=: operations have an
	// implied schedule and latency is measured from the intended start.
	OpsPerSecond int
	Fixed        bool

	// Ramp (Threads == 0): threads>= and threads<=, and auto: stop ramping
	// once throughput stops improving. Without auto every step up to
	// MaxThreads runs.
	MinThreads, MaxThreads int
	Auto                   bool

	// Capacity (ours): search for the highest rate that meets -slo, with
	// threads from MinThreads up to MaxThreads.
	Capacity *CapacitySettings
}

// CapacitySettings are -rate capacity's.
type CapacitySettings struct {
	Start, Growth, Resolution float64
	Step                      time.Duration
	// Cooldown is the idle time before each step but the first.
	Cooldown time.Duration
}

// Ramp says the thread count ramps rather than being fixed.
func (r RateSettings) Ramp() bool { return r.Threads == 0 && r.Capacity == nil }

// PopOrder is -pop contents=.
type PopOrder int

// The orders of rows within a partition.
const (
	OrderArbitrary PopOrder = iota // consistent but arbitrary (the default)
	OrderSorted
	OrderShuffled
)

func (o PopOrder) String() string { return [...]string{"ARBITRARY", "SORTED", "SHUFFLED"}[o] }

// PopulationSettings is -pop: how partition keys (seeds) are chosen.
type PopulationSettings struct {
	// Dist, when set, draws seeds from a distribution (dist=).
	Dist *Dist
	// Otherwise seeds run in sequence from SeqMin to SeqMax (seq=), wrapping
	// unless no-wrap; ReadLookback, when set, picks read seeds among the
	// recently written ones.
	SeqMin, SeqMax int64
	Wrap           bool
	ReadLookback   *Dist

	Order PopOrder
}

// BatchType is -insert batchtype=.
type BatchType int

// The batch statement types; BatchNone means not batching.
const (
	BatchNone BatchType = iota
	BatchLogged
	BatchUnlogged
	BatchCounter
)

func (b BatchType) String() string { return [...]string{"", "LOGGED", "UNLOGGED", "COUNTER"}[b] }

// InsertSettings is -insert, for splitting and batching partition updates.
type InsertSettings struct {
	Revisit            Dist // revisit=, default UNIFORM(1..1000000)
	Visits             Dist // visits=, default FIXED(1)
	Partitions         *Dist
	BatchType          BatchType
	SelectRatio        *RatioDist
	RowPopulationRatio RatioDist // row-population-ratio=, default FIXED(1)/1
	// Given names the options given (e.g. "visits="), in order.
	Given []string
}

// ColumnSettings is -col, for the predefined commands.
type ColumnSettings struct {
	// Names are explicit column names (names=); when empty there are
	// Count.Max columns named C0, C1, ...
	Names      []string
	Count      Dist   // n=, cells per operation; default FIXED(5)
	Size       Dist   // size=, bytes per cell; default FIXED(34)
	Comparator string // AsciiType, UTF8Type or TimeUUIDType
	Timestamp  *int64 // timestamp=: all cells written with this timestamp
	Slice      bool
	Super      int
}

// ColumnNames are the column names in the order the original stores them:
// byte-wise sorted, so C0, C1, C10, C11, ..., C2.
func (c ColumnSettings) ColumnNames() []string {
	var names []string
	if len(c.Names) > 0 {
		names = append(names, c.Names...)
	} else {
		for i := int64(0); i < c.Count.Max; i++ {
			names = append(names, fmt.Sprintf("C%d", i))
		}
	}
	sort.Strings(names)
	return names
}

// KV is one key=value pair of replication(...) or compaction(...), in the
// order given.
type KV struct{ Key, Value string }

// SchemaSettings is -schema, for the predefined commands.
type SchemaSettings struct {
	Keyspace            string // default keyspace1
	ReplicationStrategy string // full class name; default NetworkTopologyStrategy
	ReplicationOptions  []KV   // with replication_factor as the original adds it
	Compression         string // sstable compression class; "" for the default
	CompactionStrategy  string
	CompactionOptions   []KV
	StorageOptions      []KV // storage(type=,endpoint=,bucket=), a Scylla extension
}

// API is the client the original would use.
type API int

// The APIs a -mode line can select that this tool accepts.
const (
	APINative  API = iota // native cql3: the CQL driver
	APINative4            // 4x cql3: the original's Java driver 4 path
)

func (a API) String() string { return [...]string{"JAVA_DRIVER_NATIVE", "JAVA_DRIVER4_NATIVE"}[a] }

// Compression is the native protocol compression.
type Compression int

// The values of -mode compression=.
const (
	CompressionNone Compression = iota
	CompressionLZ4
	CompressionSnappy
)

func (c Compression) String() string { return [...]string{"NONE", "LZ4", "SNAPPY"}[c] }

// ModeSettings is -mode.
type ModeSettings struct {
	API API
	// Prepared is false with unprepared: the operations' statements are
	// sent as QUERYs with their text (predefined commands, protocol v4).
	Prepared bool
	// ProtocolVersion is 2, 3 or 4; 0 lets the driver negotiate.
	ProtocolVersion    int
	Compression        Compression
	User, Password     string
	AuthProvider       string
	MaxPending         int // per connection; 0 leaves the driver's default
	ConnectionsPerHost int // default 8
	RequestTimeout     time.Duration
	// SpeculativeDelay is ours (speculativeDelay=, milliseconds): an
	// idempotent request unanswered after it goes to another replica too;
	// 0 sends none, as the original.
	SpeculativeDelay time.Duration
}

// Protocol is the protocol version the driver is told: protocolVersion=,
// else what the original's client speaks.
func (m *ModeSettings) Protocol() int {
	switch {
	case m.ProtocolVersion > 0:
		return m.ProtocolVersion
	case m.API == APINative4 && m.Compression != CompressionSnappy:
		// The original's Java driver 4 negotiates the highest version
		// (v5 with Cassandra 4.0 and later); v5 has no snappy.
		return 0
	}
	// The original's default client, Java driver 3, speaks up to v4
	// (JavaDriverClient; the node reports it in system_views.clients):
	// v5's framing costs both sides work the original does not do.
	return 4
}

// LoadBalance is -node loadbalance=.
type LoadBalance int

// The load balancing policies; LoadBalanceAuto leaves the driver's default.
const (
	LoadBalanceAuto LoadBalance = iota
	LoadBalanceRoundRobin
	LoadBalanceDCAware
	LoadBalanceRackAware
)

func (l LoadBalance) String() string {
	return [...]string{"auto", "round-robin", "dc-aware", "rack-aware"}[l]
}

// NodeSettings is -node.
type NodeSettings struct {
	// Nodes are the hosts given on the command line (default localhost).
	// With file= Nodes is empty and File names a file of one host per line,
	// which the caller reads (ReadNodeFile).
	Nodes         []string
	File          string
	WhiteList     bool
	Datacenter    string
	Rack          string
	LoadBalance   LoadBalance
	RemoteDCHosts int // remote-dc=: hosts per remote DC for failover; 0 disables
}

// PortSettings is -port. Thrift and JMX are kept for the settings dump; this
// tool uses neither.
type PortSettings struct {
	Native, Thrift, JMX int
}

// LogLevel is -log level=.
type LogLevel int

// The log levels.
const (
	LevelNormal LogLevel = iota
	LevelMinimal
	LevelVerbose
)

func (l LogLevel) String() string { return [...]string{"NORMAL", "MINIMAL", "VERBOSE"}[l] }

// LogSettings is -log.
type LogSettings struct {
	File     string // file=: a copy of the console output
	HDRFile  string // hdrfile=: HdrHistogram interval log
	JSONFile string // json=: our extension, the results as JSON
	Interval time.Duration
	Level    LogLevel

	NoSummary              bool
	NoSettings             bool
	PrintStatementsOnError bool
}

// GraphSettings is -graph.
type GraphSettings struct {
	File     string // the HTML file; "" when -graph is not given
	Revision string // default "unknown"
	Title    string // "" when not given
	Op       string // default the command in upper case
}

// DelayPolicy is -errors delay-policy=.
type DelayPolicy int

// The retry delay policies.
const (
	DelayConstant DelayPolicy = iota
	DelayLinear
	DelayExponential
)

func (d DelayPolicy) String() string { return [...]string{"constant", "linear", "exponential"}[d] }

// ErrorSettings is -errors.
type ErrorSettings struct {
	Retries                int // retries=: default 9, so 10 tries
	Ignore                 bool
	FailFast               bool
	SkipReadValidation     bool
	SkipUnsupportedColumns bool
	DelayPolicy            DelayPolicy
	MinDelay, MaxDelay     time.Duration
}

// Tries is the number of attempts per operation (the original's tries).
func (e ErrorSettings) Tries() int { return max(1, e.Retries+1) }

// NextDelay is the wait before the retry after the try'th attempt
// (counting from 0) failed on an overloaded coordinator, as the original's
// SettingsErrors.nextDelay computes it; u in [0,1) draws its jitter of
// ×0.75 to ×1.25.
func (e ErrorSettings) NextDelay(try int, u float64) time.Duration {
	minMS, maxMS := e.MinDelay.Milliseconds(), e.MaxDelay.Milliseconds()
	d := minMS
	switch e.DelayPolicy {
	case DelayLinear:
		d += int64(float64(maxMS-minMS) * float64(try) / float64(e.Tries()))
	case DelayExponential:
		if try >= 62 || d > maxMS>>try {
			d = maxMS // saturated; Java's long would overflow here
		} else {
			d <<= try
		}
	}
	d = int64(float64(d) * (0.75 + 0.5*u))
	d = min(max(d, minMS), maxMS)
	return time.Duration(d) * time.Millisecond
}

// TransportSettings is -transport: TLS material, kept as given.
type TransportSettings struct {
	Factory              string
	TrustStore           string
	TrustStorePassword   string
	KeyStore             string
	KeyStorePassword     string
	SSLProtocol          string // default TLS
	SSLAlgorithm         string // default SunX509
	StoreType            string // default JKS
	Ciphers              []string
	HostnameVerification bool
}

// TokenRangeSettings is -tokenrange, for the token_range_queries of a user
// profile.
type TokenRangeSettings struct {
	Wrap        bool
	SplitFactor int
}

// Settings is a parsed command line. For help, print and version only
// Command.Type and HelpTopic or PrintDist are set.
type Settings struct {
	Command    CommandSettings
	Rate       RateSettings
	Population PopulationSettings
	Insert     InsertSettings
	Columns    ColumnSettings
	Errors     ErrorSettings
	Log        LogSettings
	Mode       ModeSettings
	Node       NodeSettings
	Schema     SchemaSettings
	Transport  TransportSettings
	Port       PortSettings
	Graph      GraphSettings
	TokenRange TokenRangeSettings
	SLO        SLOSettings

	HelpTopic string // help: "", a command or an option such as -rate
	PrintDist Dist   // print dist=

	// typed are the words as typed, by group and option name (see Typed).
	typed map[string]string
}

// SLOSettings is -slo, ours: the objectives the run is judged against.
type SLOSettings struct {
	Text       string // as given, the words joined by commas
	Objectives []slo.Objective
	Abort      bool // stop once one has failed beyond doubt
}

// Typed is the word that gave the option name of group ("-col", "size="; a
// command's options under the command, e.g. "write", "keysize="), as the
// user typed it, or "" when it was not given. Messages about the option
// quote it. A secret's word is masked.
func (s *Settings) Typed(group, name string) string {
	return maskWord(group, s.typed[group+" "+name])
}

// Option is the option name of group as typed (see Typed), or, when it
// was not given, group and name with the value in force: the way a
// message names an option.
func (s *Settings) Option(group, name, value string) string {
	if w := s.Typed(group, name); w != "" {
		if s.Command.Type.String() == group {
			return w
		}
		return group + " " + w
	}
	if s.Command.Type.String() == group {
		return name + value
	}
	return group + " " + name + value
}

// Note is something the user should know about an accepted command line,
// e.g. that an option has no effect here.
type Note struct {
	Option string // the word it is about
	Text   string
}

func (n Note) String() string { return n.Option + ": " + n.Text }

// Error is a rejected command line. Its message is one line naming the word
// that is wrong and what was expected there.
type Error struct {
	Group  string // "-rate", ... or the command for its options; "" for the line
	Word   string // the word as typed; may be empty
	Reason string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Group)
	if e.Word != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(show(maskWord(e.Group, e.Word)))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return strings.ReplaceAll(b.String(), "\n", " ")
}
