// Package workload is the reference's CoreWorkload: which operation to run,
// on which key, with which fields and values.
//
// A CoreWorkload is built once from the properties and shared by all
// workers; its shared state is atomic counters only (the load key sequence,
// the acknowledged run-phase insert counter, the sequential chooser). Each
// worker gets a Worker with its own random source, generators that keep
// state (zipfian zeta caches), and reusable buffers for keys, values and
// results, so a transaction allocates nothing once warmed up.
package workload

import (
	"io"
	"math"
	"strconv"
	"sync/atomic"

	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/workload/generator"
)

// Operation kinds chosen by the operation mix, in the reference's order.
const (
	opRead = iota
	opUpdate
	opInsert
	opScan
	opReadModifyWrite
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
	exponential    *generator.Exponential
	fieldChooser   *generator.Uniform
	ops            *generator.Discrete

	keySequence       *generator.Counter             // load phase
	transactionInsert *generator.AcknowledgedCounter // run phase inserts

	retryLimit    int
	retryInterval int64 // seconds
	keepGoing     bool

	stderr io.Writer
	stop   atomic.Bool
}

// Stop asks every worker to finish its current operation and return.
func (w *CoreWorkload) Stop() { w.stop.Store(true) }

// Stopped reports whether Stop was called.
func (w *CoreWorkload) Stopped() bool { return w.stop.Load() }

// New parses the CoreWorkload properties. transactions says whether the run
// phase will use it (the operation mix is only checked then). Messages the
// reference prints during a run (insert retries) go to stderr.
func New(p *props.Properties, transactions bool, stderr io.Writer) (*CoreWorkload, error) {
	w := &CoreWorkload{stderr: stderr}
	var err error
	w.Table = p.String("table", "usertable")
	if w.Table == "" {
		return nil, props.Invalid("table", "", "a table name")
	}
	if w.RecordCount, err = p.NonNegInt64("recordcount", 0); err != nil {
		return nil, err
	}
	if w.RecordCount == 0 {
		// A load with no count and no time limit never ends (the reference
		// loads until killed): refuse it.
		limit, err := p.NonNegInt64("maxexecutiontime", 0)
		if err != nil {
			return nil, err
		}
		if !transactions && !p.Has("insertcount") && limit == 0 {
			return nil, props.Errorf("recordcount", "missing or 0: a load needs the number of records to insert (set recordcount, or bound the load with insertcount or maxexecutiontime)")
		}
		w.RecordCount = math.MaxInt32 // the reference's reading of "no record count"
	}
	if w.RecordCount > MaxCount {
		return nil, props.Errorf("recordcount", "%d is too large: at most %d (key numbers and their generators need room to grow)", w.RecordCount, int64(MaxCount))
	}
	fieldCount, err := p.NonNegInt64("fieldcount", 10)
	if err != nil {
		return nil, err
	}
	if fieldCount < 1 {
		return nil, props.Invalid("fieldcount", "0", "at least 1")
	}
	if fieldCount > MaxFieldCount {
		return nil, props.Errorf("fieldcount", "%d is too large: at most %d fields a record", fieldCount, MaxFieldCount)
	}
	prefix := p.String("fieldnameprefix", "field")
	for i := int64(0); i < fieldCount; i++ {
		w.FieldNames = append(w.FieldNames, prefix+strconv.FormatInt(i, 10))
	}
	if err := w.parseFieldLength(p); err != nil {
		return nil, err
	}
	if w.readAllFields, err = p.Bool("readallfields", true); err != nil {
		return nil, err
	}
	if w.readAllFieldsByName, err = p.Bool("readallfieldsbyname", false); err != nil {
		return nil, err
	}
	if w.writeAllFields, err = p.Bool("writeallfields", false); err != nil {
		return nil, err
	}
	if w.DataIntegrity, err = p.Bool("dataintegrity", false); err != nil {
		return nil, err
	}
	if w.DataIntegrity && p.String("fieldlengthdistribution", "constant") != "constant" {
		return nil, props.Invalid("fieldlengthdistribution", p.String("fieldlengthdistribution", ""), "constant when dataintegrity=true")
	}
	if w.InsertStart, err = p.NonNegInt64("insertstart", 0); err == nil && w.InsertStart > MaxCount {
		err = props.Errorf("insertstart", "%d is too large: at most %d", w.InsertStart, int64(MaxCount))
	}
	if err != nil {
		return nil, err
	}
	if !p.Has("insertcount") && w.InsertStart > w.RecordCount {
		return nil, props.Errorf("insertstart", "insertstart (%d) exceeds recordcount (%d): recordcount is the total number of records of all clients", w.InsertStart, w.RecordCount)
	}
	if w.InsertCount, err = p.NonNegInt64("insertcount", w.RecordCount-w.InsertStart); err == nil && w.InsertCount > MaxCount {
		err = props.Errorf("insertcount", "%d is too large: at most %d", w.InsertCount, int64(MaxCount))
	}
	if err != nil {
		return nil, err
	}
	if w.InsertStart+w.InsertCount > w.RecordCount {
		return nil, props.Errorf("insertcount", "insertstart (%d) + insertcount (%d) must not exceed recordcount (%d)", w.InsertStart, w.InsertCount, w.RecordCount)
	}
	order, err := p.OneOf("insertorder", "hashed", "hashed", "ordered")
	if err != nil {
		return nil, err
	}
	w.OrderedInserts = order == "ordered"
	if w.ZeroPadding, err = p.NonNegInt("zeropadding", 1); err != nil {
		return nil, err
	}
	if w.retryLimit, err = p.NonNegInt("core_workload_insertion_retry_limit", 0); err != nil {
		return nil, err
	}
	if w.retryInterval, err = p.NonNegInt64("core_workload_insertion_retry_interval", 3); err != nil {
		return nil, err
	}
	if w.keepGoing, err = p.Bool("core_workload_insertion_keep_going_on_error", false); err != nil {
		return nil, err
	}
	w.fieldChooser = generator.NewUniform(0, fieldCount-1)
	w.keySequence = generator.NewCounter(w.InsertStart)
	w.transactionInsert = generator.NewAcknowledgedCounter(w.RecordCount)
	if _, err := w.zipfianConstant(p); err != nil {
		return nil, err
	}
	if err := w.parseOperations(p, transactions); err != nil {
		return nil, err
	}
	if err := w.parseKeyChooser(p); err != nil {
		return nil, err
	}
	if err := w.parseScanLength(p); err != nil {
		return nil, err
	}
	p.Accept(coreProperties...)
	return w, nil
}

// coreProperties are all the properties New understands. Those a run does
// not read (operationcount in a load, the hotspot fractions with another
// requestdistribution) are accepted, so that one workload file serves both
// phases and every distribution without a warning.
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

// Bounds on sizes no benchmark reaches, checked before anything is
// allocated: past them a run would overflow its key numbers or run out of
// memory instead of failing with a message.
const (
	MaxCount       = 1e15    // recordcount, insertstart, insertcount, operationcount
	MaxFieldCount  = 100_000 // fields a record
	MaxRecordBytes = 1 << 30 // fieldcount × fieldlength: one record's values
)

func (w *CoreWorkload) parseFieldLength(p *props.Properties) error {
	var err error
	if w.fieldLength, err = p.NonNegInt64("fieldlength", 100); err != nil {
		return err
	}
	if n := int64(len(w.FieldNames)); w.fieldLength > MaxRecordBytes/n {
		return props.Errorf("fieldlength", "%d is too large: fieldcount (%d) × fieldlength must stay within %d bytes a record", w.fieldLength, n, int64(MaxRecordBytes))
	}
	minLen, err := p.NonNegInt64("minfieldlength", 1)
	if err != nil {
		return err
	}
	dist, err := p.OneOf("fieldlengthdistribution", "constant", "constant", "uniform", "zipfian", "histogram")
	if err != nil {
		return err
	}
	if (dist == "uniform" || dist == "zipfian") && minLen > w.fieldLength {
		return props.Errorf("minfieldlength", "minfieldlength (%d) must not exceed fieldlength (%d)", minLen, w.fieldLength)
	}
	switch dist {
	case "constant":
		c := generator.Constant{V: w.fieldLength}
		w.newFieldLength = func() generator.Int { return c }
	case "uniform":
		u := generator.NewUniform(minLen, w.fieldLength)
		w.newFieldLength = func() generator.Int { return u }
	case "zipfian":
		z := generator.NewZipfian(minLen, w.fieldLength, 0.99)
		w.newFieldLength = func() generator.Int { return z.Clone() }
	case "histogram":
		path := p.String("fieldlengthhistogram", "hist.txt")
		h, err := generator.LoadHistogram(path)
		if err != nil {
			return props.Errorf("fieldlengthhistogram", "%v", err)
		}
		w.newFieldLength = func() generator.Int { return h }
	}
	return nil
}

func (w *CoreWorkload) parseOperations(p *props.Properties, transactions bool) error {
	w.ops = generator.NewDiscrete()
	names := []string{"readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion"}
	defaults := []float64{0.95, 0.05, 0, 0, 0}
	for op, name := range names {
		v, err := p.Float64(name, defaults[op])
		if err != nil {
			return err
		}
		if v < 0 {
			return props.Invalid(name, p.String(name, ""), "a proportion of at least 0")
		}
		w.ops.Add(v, op)
	}
	if transactions && w.ops.Len() == 0 {
		return props.Errorf("readproportion", "all operation proportions are zero (readproportion, updateproportion, insertproportion, scanproportion, readmodifywriteproportion): nothing to run")
	}
	return nil
}

func (w *CoreWorkload) zipfianConstant(p *props.Properties) (float64, error) {
	theta, err := p.Float64("zipfianconstant", 0.99)
	if err != nil {
		return 0, err
	}
	if theta <= 0 || theta == 1 || theta >= 10 {
		return 0, props.Invalid("zipfianconstant", p.String("zipfianconstant", ""), "a number above 0, below 10 and not 1")
	}
	return theta, nil
}

func (w *CoreWorkload) parseKeyChooser(p *props.Properties) error {
	dist, err := p.OneOf("requestdistribution", "uniform", "uniform", "zipfian", "latest", "hotspot", "sequential", "exponential")
	if err != nil {
		return err
	}
	lo, hi := w.InsertStart, w.InsertStart+w.InsertCount-1
	if hi < lo && dist != "latest" && dist != "exponential" {
		return props.Errorf("insertcount", "no keys to choose from: insertcount is 0")
	}
	switch dist {
	case "uniform":
		u := generator.NewUniform(lo, hi)
		w.newKeyChooser = func() generator.Int { return u }
	case "sequential":
		s := generator.NewSequential(lo, hi)
		w.newKeyChooser = func() generator.Int { return s }
	case "zipfian":
		theta, err := w.zipfianConstant(p)
		if err != nil {
			return err
		}
		opCount, err := p.NonNegInt64("operationcount", 0)
		if err != nil {
			return err
		}
		if opCount > MaxCount {
			return props.Errorf("operationcount", "%d is too large: at most %d", opCount, int64(MaxCount))
		}
		insertProportion, _ := p.Float64("insertproportion", 0)
		// The reference's "fudge factor": room for keys inserted during the run.
		expectedNewKeys := int64(float64(opCount) * insertProportion * 2.0)
		z := generator.NewScrambledZipfian(lo, hi+1+expectedNewKeys, theta)
		w.newKeyChooser = func() generator.Int { return z }
	case "latest":
		theta, err := w.zipfianConstant(p)
		if err != nil {
			return err
		}
		if w.RecordCount < 2 {
			return props.Errorf("recordcount", "requestdistribution=latest needs recordcount of at least 2")
		}
		l := generator.NewSkewedLatest(w.transactionInsert, theta)
		w.newKeyChooser = func() generator.Int { return l.Clone() }
	case "hotspot":
		data, err := p.Float64("hotspotdatafraction", 0.2)
		if err != nil {
			return err
		}
		opn, err := p.Float64("hotspotopnfraction", 0.8)
		if err != nil {
			return err
		}
		h, err := generator.NewHotspot(lo, hi, data, opn)
		if err != nil {
			return props.Errorf("hotspotdatafraction", "%v", err)
		}
		w.newKeyChooser = func() generator.Int { return h }
	case "exponential":
		pct, err := p.Float64("exponential.percentile", 95)
		if err != nil {
			return err
		}
		frac, err := p.Float64("exponential.frac", 0.8571428571)
		if err != nil {
			return err
		}
		if pct <= 0 || pct >= 100 {
			return props.Invalid("exponential.percentile", p.String("exponential.percentile", ""), "a number between 0 and 100")
		}
		if frac <= 0 {
			return props.Invalid("exponential.frac", p.String("exponential.frac", ""), "a number above 0")
		}
		w.exponential = generator.NewExponential(pct, float64(w.RecordCount)*frac)
	}
	return nil
}

func (w *CoreWorkload) parseScanLength(p *props.Properties) error {
	minLen, err := p.NonNegInt64("minscanlength", 1)
	if err != nil {
		return err
	}
	maxLen, err := p.NonNegInt64("maxscanlength", 1000)
	if err != nil {
		return err
	}
	if minLen > maxLen {
		return props.Errorf("minscanlength", "minscanlength (%d) must not exceed maxscanlength (%d)", minLen, maxLen)
	}
	dist, err := p.OneOf("scanlengthdistribution", "uniform", "uniform", "zipfian")
	if err != nil {
		return err
	}
	if dist == "uniform" {
		u := generator.NewUniform(minLen, maxLen)
		w.newScanLength = func() generator.Int { return u }
		return nil
	}
	z := generator.NewZipfian(minLen, maxLen, 0.99)
	w.newScanLength = func() generator.Int { return z.Clone() }
	return nil
}
