package workload

import (
	"context"
	"io"
	"math"
	"time"

	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/props"
)

// Closed sets of the CoreWorkload properties.
type (
	// InsertOrder is insertorder: hashed key numbers, or in order.
	InsertOrder string
	// FieldLengthDistribution is fieldlengthdistribution.
	FieldLengthDistribution string
	// RequestDistribution is requestdistribution: how keys are chosen.
	RequestDistribution string
	// ScanLengthDistribution is scanlengthdistribution.
	ScanLengthDistribution string
)

const (
	Hashed  InsertOrder = "hashed"
	Ordered InsertOrder = "ordered"

	ConstantLength  FieldLengthDistribution = "constant"
	UniformLength   FieldLengthDistribution = "uniform"
	ZipfianLength   FieldLengthDistribution = "zipfian"
	HistogramLength FieldLengthDistribution = "histogram"

	Uniform     RequestDistribution = "uniform"
	Zipfian     RequestDistribution = "zipfian"
	Latest      RequestDistribution = "latest"
	Hotspot     RequestDistribution = "hotspot"
	Sequential  RequestDistribution = "sequential"
	Exponential RequestDistribution = "exponential"

	UniformScan ScanLengthDistribution = "uniform"
	ZipfianScan ScanLengthDistribution = "zipfian"
)

// Config is the CoreWorkload's properties, read and checked once (the
// reference's CoreWorkload.init at 0.17.0; docs/compatibility.md, "Keys,
// fields and values"): everything New needs, so that a bad value is found
// before anything is built, opened or written.
type Config struct {
	Table          string
	RecordCount    int64 // math.MaxInt32 when 0 in a run: the reference's "no record count"
	OperationCount int64
	InsertStart    int64
	InsertCount    int64
	InsertOrder    InsertOrder
	ZeroPadding    int

	FieldCount           int64
	FieldNamePrefix      string
	FieldLength          int64
	MinFieldLength       int64
	FieldLengthDist      FieldLengthDistribution
	FieldLengthHistogram string // its file, with HistogramLength

	ReadAllFields       bool
	ReadAllFieldsByName bool
	WriteAllFields      bool
	DataIntegrity       bool

	Mix                   Mix
	RequestDist           RequestDistribution
	ZipfianConstant       float64
	HotspotDataFraction   float64
	HotspotOpnFraction    float64
	ExponentialPercentile float64
	ExponentialFrac       float64

	MinScanLength  int64
	MaxScanLength  int64
	ScanLengthDist ScanLengthDistribution

	InsertionRetryLimit    int
	InsertionRetryInterval time.Duration // core_workload_insertion_retry_interval, given in seconds
	InsertionKeepGoing     bool

	// Kind is the workload property's workload.
	Kind *Kind
	// Economy is the closed economy's configuration (workload=
	// site.ycsb.workloads.ClosedEconomyWorkload); nil for the CoreWorkload.
	Economy *Economy

	// Clients is this client's place among several (client.count): a load
	// inserts its slice of RecordCount, and run-phase inserts take key
	// numbers no other client takes. The zero value is a lone client.
	Clients partition.Clients
}

// Bounds on sizes no benchmark reaches, checked before anything is
// allocated: past them a run would overflow its key numbers or run out of
// memory instead of failing with a message.
const (
	MaxCount       = 1e15    // recordcount, insertstart, insertcount, operationcount
	MaxFieldCount  = 100_000 // fields a record
	MaxRecordBytes = 1 << 30 // fieldcount × fieldlength: one record's values
)

// ParseConfig reads the CoreWorkload properties. transactions says whether
// the run phase will use them (the operation mix is only checked then).
func ParseConfig(p *props.Properties, transactions bool) (*Config, error) {
	return ParseConfigFor(p, transactions, partition.Clients{})
}

// ParseConfigFor is ParseConfig for one client of several (client.count,
// parsed by the caller): recordcount and operationcount are the totals of
// all clients, a load inserts the client's slice of recordcount, and the
// zipfian chooser expects the inserts of the client's share of
// operationcount.
func ParseConfigFor(p *props.Properties, transactions bool, cl partition.Clients) (*Config, error) {
	kind, err := kindOf(p)
	if err != nil {
		return nil, err
	}
	r := props.NewReader(p)
	c := &Config{Kind: kind, Clients: cl}
	c.Table = r.String("table", "usertable")
	if c.Table == "" {
		r.Fail(props.Invalid("table", "", "a table name"))
	}
	c.RecordCount = r.Int64("recordcount", 0, props.NonNegative)
	if c.RecordCount == 0 && r.Err() == nil {
		// A load with no count and no time limit never ends (the reference
		// loads until killed): refuse it.
		limit := r.Duration("maxexecutiontime", time.Second, 0, 0, props.MaxDuration)
		if r.Err() == nil && !transactions && !r.Has("insertcount") && limit == 0 {
			r.Errorf("recordcount", "missing or 0: a load needs the number of records to insert (set recordcount, or bound the load with insertcount or maxexecutiontime)")
		}
		c.RecordCount = math.MaxInt32
	}
	if c.RecordCount > MaxCount {
		r.Errorf("recordcount", "%d is too large: at most %d (key numbers and their generators need room to grow)", c.RecordCount, int64(MaxCount))
	}
	c.FieldCount = r.Int64("fieldcount", 10, props.NonNegative, props.Range("at least 1", func(n int64) bool { return n >= 1 }))
	if c.FieldCount > MaxFieldCount {
		r.Errorf("fieldcount", "%d is too large: at most %d fields a record", c.FieldCount, MaxFieldCount)
	}
	c.FieldNamePrefix = r.String("fieldnameprefix", "field")
	c.readFieldLength(r)
	c.ReadAllFields = r.Bool("readallfields", true)
	c.ReadAllFieldsByName = r.Bool("readallfieldsbyname", false)
	c.WriteAllFields = r.Bool("writeallfields", false)
	c.DataIntegrity = r.Bool("dataintegrity", false)
	if c.DataIntegrity && c.FieldLengthDist != ConstantLength {
		r.Fail(props.Invalid("fieldlengthdistribution", r.String("fieldlengthdistribution", ""), "constant when dataintegrity=true"))
	}
	if cl.Split() && !transactions {
		c.clientSlice(r)
	} else {
		c.readInsertRange(r)
	}
	c.InsertOrder = props.OneOf(r, "insertorder", Hashed, Hashed, Ordered)
	c.ZeroPadding = r.Int("zeropadding", 1, props.NonNegative)
	c.InsertionRetryLimit = r.Int("core_workload_insertion_retry_limit", 0, props.NonNegative)
	c.InsertionRetryInterval = r.Duration("core_workload_insertion_retry_interval", time.Second, 3*time.Second, 0, props.MaxDuration)
	c.InsertionKeepGoing = r.Bool("core_workload_insertion_keep_going_on_error", false)
	c.ZipfianConstant = r.Float64("zipfianconstant", 0.99, props.Range("a number above 0, below 10 and not 1",
		func(f float64) bool { return f > 0 && f != 1 && f < 10 }))
	c.readMix(r, transactions)
	c.readKeyChooser(r)
	c.readScanLength(r)
	if kind.Configure != nil && r.Err() == nil {
		kind.Configure(c, r, transactions)
	}
	// Every workload's properties are accepted, so that one file serves
	// several without a warning.
	p.Accept(coreProperties...)
	for _, k := range kinds {
		p.Accept(k.Properties...)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// Workload builds the workload c describes, of its Kind. Messages the
// reference prints during a run (insert retries) go to stderr.
func (c *Config) Workload(ctx context.Context, stderr io.Writer) (Workload, error) {
	return c.Kind.Build(ctx, c, stderr)
}

// coreProperties are all the properties ParseConfig understands. Those a
// run does not read (operationcount in a load, the hotspot fractions with
// another requestdistribution) are accepted, so that one workload file
// serves both phases and every distribution without a warning.
var coreProperties = []string{
	"table", "recordcount", "operationcount", "insertstart", "insertcount", "insertorder", "zeropadding",
	"fieldcount", "fieldnameprefix", "fieldlength", "minfieldlength", "fieldlengthdistribution", "fieldlengthhistogram",
	"readallfields", "readallfieldsbyname", "writeallfields", "dataintegrity",
	"readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion",
	"requestdistribution", "zipfianconstant", "hotspotdatafraction", "hotspotopnfraction",
	"exponential.percentile", "exponential.frac", "minscanlength", "maxscanlength", "scanlengthdistribution",
	"core_workload_insertion_retry_limit", "core_workload_insertion_retry_interval",
	"core_workload_insertion_keep_going_on_error",
}

// readInsertRange reads insertstart and insertcount: the keys this client
// loads, and in a run the keys it chooses from.
func (c *Config) readInsertRange(r *props.Reader) {
	c.InsertStart = r.Int64("insertstart", 0, props.NonNegative)
	if c.InsertStart > MaxCount {
		r.Errorf("insertstart", "%d is too large: at most %d", c.InsertStart, int64(MaxCount))
	}
	if !r.Has("insertcount") && c.InsertStart > c.RecordCount {
		r.Errorf("insertstart", "insertstart (%d) exceeds recordcount (%d): recordcount is the total number of records of all clients", c.InsertStart, c.RecordCount)
	}
	c.InsertCount = r.Int64("insertcount", c.RecordCount-c.InsertStart, props.NonNegative)
	if c.InsertCount > MaxCount {
		r.Errorf("insertcount", "%d is too large: at most %d", c.InsertCount, int64(MaxCount))
	}
	if r.Err() == nil && c.InsertStart+c.InsertCount > c.RecordCount {
		r.Errorf("insertcount", "insertstart (%d) + insertcount (%d) must not exceed recordcount (%d)", c.InsertStart, c.InsertCount, c.RecordCount)
	}
}

// clientSlice makes a load's insertstart and insertcount the client's
// slice of recordcount. The user's own values would contradict it, so they
// are refused rather than overridden.
func (c *Config) clientSlice(r *props.Reader) {
	cl := c.Clients
	for _, name := range []string{"insertstart", "insertcount"} {
		if r.Has(name) {
			r.Errorf(name, "cannot be combined with client.count=%d: each client's insertstart and insertcount are its slice of recordcount, the total of all clients (leave %s out)", cl.Count, name)
			return
		}
	}
	if r.Err() != nil {
		return
	}
	if c.RecordCount == math.MaxInt32 && r.Int64("recordcount", 0) == 0 {
		r.Errorf("recordcount", "missing or 0: client.count=%d splits recordcount, the records of all clients, among the clients", cl.Count)
		return
	}
	c.InsertStart, c.InsertCount = cl.Slice(c.RecordCount)
	if c.InsertCount == 0 {
		r.Errorf("client.count", "%d clients for %d records: every client needs at least one record (lower client.count or raise recordcount)", cl.Count, c.RecordCount)
	}
}

func (c *Config) readFieldLength(r *props.Reader) {
	c.FieldLength = r.Int64("fieldlength", 100, props.NonNegative)
	if n := max(c.FieldCount, 1); c.FieldLength > MaxRecordBytes/n {
		r.Errorf("fieldlength", "%d is too large: fieldcount (%d) × fieldlength must stay within %d bytes a record", c.FieldLength, n, int64(MaxRecordBytes))
	}
	c.MinFieldLength = r.Int64("minfieldlength", 1, props.NonNegative)
	c.FieldLengthDist = props.OneOf(r, "fieldlengthdistribution", ConstantLength, ConstantLength, UniformLength, ZipfianLength, HistogramLength)
	if (c.FieldLengthDist == UniformLength || c.FieldLengthDist == ZipfianLength) && c.MinFieldLength > c.FieldLength {
		r.Errorf("minfieldlength", "minfieldlength (%d) must not exceed fieldlength (%d)", c.MinFieldLength, c.FieldLength)
	}
	if c.FieldLengthDist == HistogramLength {
		c.FieldLengthHistogram = r.String("fieldlengthhistogram", "hist.txt")
	}
}

// Fraction is the check of a property that is a share of something.
var Fraction = props.Range("a fraction between 0 and 1", func(f float64) bool { return f >= 0 && f <= 1 })

func (c *Config) readMix(r *props.Reader, transactions bool) {
	c.Mix = ReadMix(r)
	if transactions && c.Mix == (Mix{}) && r.Err() == nil {
		r.Errorf("readproportion", "all operation proportions are zero (readproportion, updateproportion, insertproportion, scanproportion, readmodifywriteproportion): nothing to run")
	}
}

func (c *Config) readKeyChooser(r *props.Reader) {
	c.RequestDist = props.OneOf(r, "requestdistribution", Uniform, Uniform, Zipfian, Latest, Hotspot, Sequential, Exponential)
	if r.Err() != nil {
		return
	}
	lo, hi := c.InsertStart, c.InsertStart+c.InsertCount-1
	if hi < lo && c.RequestDist != Latest && c.RequestDist != Exponential {
		r.Errorf("insertcount", "no keys to choose from: insertcount is 0")
		return
	}
	switch c.RequestDist {
	case Zipfian:
		c.OperationCount = r.Int64("operationcount", 0, props.NonNegative)
		if c.OperationCount > MaxCount {
			r.Errorf("operationcount", "%d is too large: at most %d", c.OperationCount, int64(MaxCount))
		}
		// The chooser leaves room for this client's own inserts.
		c.OperationCount = c.Clients.Share(c.OperationCount)
	case Latest:
		if c.RecordCount < 2 {
			r.Errorf("recordcount", "requestdistribution=latest needs recordcount of at least 2")
		}
	case Hotspot:
		// Checked here, each under its own name: the generator's error
		// cannot say which property its fraction came from.
		c.HotspotDataFraction = r.Float64("hotspotdatafraction", 0.2, Fraction)
		c.HotspotOpnFraction = r.Float64("hotspotopnfraction", 0.8, Fraction)
	case Exponential:
		c.ExponentialPercentile = r.Float64("exponential.percentile", 95,
			props.Range("a number between 0 and 100", func(f float64) bool { return f > 0 && f < 100 }))
		c.ExponentialFrac = r.Float64("exponential.frac", 0.8571428571,
			props.Range("a number above 0", func(f float64) bool { return f > 0 }))
		// The generator's rate, -ln(1-percentile/100)/(recordcount*frac),
		// must be positive: each property can drive it to 0.
		switch {
		case r.Err() != nil:
		case -math.Log(1-c.ExponentialPercentile/100) == 0: // as the generator computes it
			r.Errorf("exponential.percentile", "%g is too small to tell from 0", c.ExponentialPercentile)
		case math.IsInf(float64(c.RecordCount)*c.ExponentialFrac, 0):
			r.Errorf("exponential.frac", "%g times recordcount (%d) is too large", c.ExponentialFrac, c.RecordCount)
		}
	}
}

func (c *Config) readScanLength(r *props.Reader) {
	c.MinScanLength = r.Int64("minscanlength", 1, props.NonNegative)
	c.MaxScanLength = r.Int64("maxscanlength", 1000, props.NonNegative)
	if c.MinScanLength > c.MaxScanLength {
		r.Errorf("minscanlength", "minscanlength (%d) must not exceed maxscanlength (%d)", c.MinScanLength, c.MaxScanLength)
	}
	c.ScanLengthDist = props.OneOf(r, "scanlengthdistribution", UniformScan, UniformScan, ZipfianScan)
}
