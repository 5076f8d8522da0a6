package workload

import (
	"context"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/workload/generator"
)

// Operation kinds chosen by the operation mix, in the reference's order.
const (
	opRead            = MixRead
	opUpdate          = MixUpdate
	opInsert          = MixInsert
	opScan            = MixScan
	opReadModifyWrite = MixReadModifyWrite
)

// CoreWorkload holds the parsed workload and its shared generators.
type CoreWorkload struct {
	Table          string
	RecordCount    int64
	InsertStart    int64
	InsertCount    int64
	FieldNames     []string
	OrderedInserts bool
	ZeroPadding    int
	DataIntegrity  bool

	readAllFields       bool
	readAllFieldsByName bool
	writeAllFields      bool
	fieldLength         int64

	newFieldLength func() generator.Int
	newScanLength  func() generator.Int
	newKeyChooser  func() generator.Int
	// keysShared says that the key chooser's state is shared by the
	// workers (sequential's one cycle): each key a worker draws is taken
	// from all, so none is drawn ahead (see Worker.nextKeynum).
	keysShared   bool
	exponential  *generator.Exponential
	fieldChooser *generator.Uniform
	ops          *generator.Discrete

	keySequence *generator.Counter // load phase
	// transactionInsert numbers this client's run-phase inserts from
	// RecordCount, as the reference's counter does; with several clients
	// insertKeynum maps its numbers to keys no other client inserts. The
	// insert limit and "latest" work on its numbers, so they follow this
	// client's own inserts.
	transactionInsert *generator.AcknowledgedCounter
	clients           partition.Clients

	retryLimit    int
	retryInterval time.Duration
	keepGoing     bool

	// economy is the closed economy's configuration; nil for the
	// CoreWorkload.
	economy *Economy
	// workers are every Worker the economy made, for their operation
	// counts.
	workersMu sync.Mutex
	workers   []*Worker

	stderr io.Writer
	stop   atomic.Bool
}

// The CoreWorkload is the first Kind registered (before economy.go's):
// kindOf's default.
func init() {
	Register(&Kind{
		Name:    "core",
		Classes: []string{"site.ycsb.workloads.CoreWorkload", "com.yahoo.ycsb.workloads.CoreWorkload"},
		Build: func(ctx context.Context, c *Config, stderr io.Writer) (Workload, error) {
			return Build(ctx, c, stderr)
		},
	})
}

// Stop asks every worker to finish its current operation and return.
func (w *CoreWorkload) Stop() { w.stop.Store(true) }

// Resume clears Stop, once every worker has returned, for another run of
// the same workload (a capacity search's next step).
func (w *CoreWorkload) Resume() { w.stop.Store(false) }

// Stopped reports whether Stop was called.
func (w *CoreWorkload) Stopped() bool { return w.stop.Load() }

// StopFlag is the flag Stop sets, for a caller that polls it per operation.
func (w *CoreWorkload) StopFlag() *atomic.Bool { return &w.stop }

// New parses the CoreWorkload properties (ParseConfig) and builds the
// workload. Messages the reference prints during a run (insert retries) go
// to stderr.
func New(p *props.Properties, transactions bool, stderr io.Writer) (*CoreWorkload, error) {
	c, err := ParseConfig(p, transactions)
	if err != nil {
		return nil, err
	}
	return Build(context.Background(), c, stderr)
}

// Build builds the workload c describes: its generators, and the field
// length histogram's file when there is one (read until ctx ends).
func Build(ctx context.Context, c *Config, stderr io.Writer) (*CoreWorkload, error) {
	w := &CoreWorkload{
		Table:               c.Table,
		RecordCount:         c.RecordCount,
		InsertStart:         c.InsertStart,
		InsertCount:         c.InsertCount,
		OrderedInserts:      c.InsertOrder == Ordered,
		ZeroPadding:         c.ZeroPadding,
		DataIntegrity:       c.DataIntegrity,
		readAllFields:       c.ReadAllFields,
		readAllFieldsByName: c.ReadAllFieldsByName,
		writeAllFields:      c.WriteAllFields,
		fieldLength:         c.FieldLength,
		retryLimit:          c.InsertionRetryLimit,
		retryInterval:       c.InsertionRetryInterval,
		keepGoing:           c.InsertionKeepGoing,
		clients:             c.Clients,
		economy:             c.Economy,
		stderr:              stderr,
	}
	fields := c.FieldCount
	if c.Economy != nil {
		fields = 1 // an account's record is its balance
	}
	for i := int64(0); i < fields; i++ {
		w.FieldNames = append(w.FieldNames, c.FieldNamePrefix+strconv.FormatInt(i, 10))
	}
	if err := w.buildFieldLength(ctx, c); err != nil {
		return nil, err
	}
	w.fieldChooser = generator.NewUniform(0, int64(len(w.FieldNames))-1)
	w.keySequence = generator.NewCounter(w.InsertStart)
	w.transactionInsert = generator.NewAcknowledgedCounter(w.RecordCount)
	w.ops = generator.NewDiscrete()
	for op, v := range c.Mix {
		w.ops.Add(v, op)
	}
	if err := w.buildKeyChooser(c); err != nil {
		return nil, err
	}
	w.buildScanLength(c)
	return w, nil
}

// Clients is this client's place among several (client.count).
func (w *CoreWorkload) Clients() partition.Clients { return w.clients }

// insertKeynum is the key number of the run-phase insert counter's number
// k: k itself for a lone client and for loaded records.
func (w *CoreWorkload) insertKeynum(k int64) int64 { return w.clients.InsertKey(w.RecordCount, k) }

func (w *CoreWorkload) buildFieldLength(ctx context.Context, c *Config) error {
	switch c.FieldLengthDist {
	case ConstantLength:
		g := generator.Constant{V: c.FieldLength}
		w.newFieldLength = func() generator.Int { return g }
	case UniformLength:
		u := generator.NewUniform(c.MinFieldLength, c.FieldLength)
		w.newFieldLength = func() generator.Int { return u }
	case ZipfianLength:
		z := generator.NewZipfian(c.MinFieldLength, c.FieldLength, 0.99)
		w.newFieldLength = func() generator.Int { return z.Clone() }
	case HistogramLength:
		h, err := generator.LoadHistogram(ctx, c.FieldLengthHistogram)
		if err != nil {
			return props.Errorf("fieldlengthhistogram", "%v", err)
		}
		w.newFieldLength = func() generator.Int { return h }
	}
	return nil
}

func (w *CoreWorkload) buildKeyChooser(c *Config) error {
	lo, hi := w.InsertStart, w.InsertStart+w.InsertCount-1
	switch c.RequestDist {
	case Uniform:
		u := generator.NewUniform(lo, hi)
		w.newKeyChooser = func() generator.Int { return u }
	case Sequential:
		s := generator.NewSequential(lo, hi)
		w.newKeyChooser = func() generator.Int { return s }
		w.keysShared = true
	case Zipfian:
		// The reference's "fudge factor": room for keys inserted during the run.
		expectedNewKeys := int64(float64(c.OperationCount) * c.Mix[opInsert] * 2.0)
		z := generator.NewScrambledZipfian(lo, hi+1+expectedNewKeys, c.ZipfianConstant)
		w.newKeyChooser = func() generator.Int { return z }
	case Latest:
		l := generator.NewSkewedLatest(w.transactionInsert, c.ZipfianConstant)
		w.newKeyChooser = func() generator.Int { return l.Clone() }
	case Hotspot:
		h, err := generator.NewHotspot(lo, hi, c.HotspotDataFraction, c.HotspotOpnFraction)
		if err != nil {
			return props.Errorf("hotspotdatafraction", "%v", err)
		}
		w.newKeyChooser = func() generator.Int { return h }
	case Exponential:
		w.exponential = generator.NewExponential(c.ExponentialPercentile, float64(w.RecordCount)*c.ExponentialFrac)
	}
	return nil
}

func (w *CoreWorkload) buildScanLength(c *Config) {
	if c.ScanLengthDist == UniformScan {
		u := generator.NewUniform(c.MinScanLength, c.MaxScanLength)
		w.newScanLength = func() generator.Int { return u }
		return
	}
	z := generator.NewZipfian(c.MinScanLength, c.MaxScanLength, 0.99)
	w.newScanLength = func() generator.Int { return z.Clone() }
}
