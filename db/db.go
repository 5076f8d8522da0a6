package db

import (
	"context"
	"io"

	"github.com/goycsb/ycsb/props"
)

// Driver opens a binding. Open validates the binding's properties and
// connects; an error here is reported before the run starts (exit code 2),
// as it is: it names the property at fault (props errors) or starts with the
// binding's own prefix ("cassandra: connect to ..."). out is the run's
// standard output, for bindings that print (basic's verbose mode, the
// reference's start-up lines); never nil.
type Driver interface {
	Open(ctx context.Context, p *props.Properties, out io.Writer) (DB, error)
}

// DriverFunc adapts a function to Driver.
type DriverFunc func(ctx context.Context, p *props.Properties, out io.Writer) (DB, error)

// Open calls f.
func (f DriverFunc) Open(ctx context.Context, p *props.Properties, out io.Writer) (DB, error) {
	return f(ctx, p, out)
}

// Checker is an optional Driver capability: Check validates the binding's
// properties as Open does, with the same errors, but connects to nothing
// and creates or reads no file: the run may be on another machine (ycsb
// kube checks the configuration of its pods).
type Checker interface {
	Check(p *props.Properties) error
}

// Check validates p with d's Check when d is a Checker; nil otherwise.
func Check(d Driver, p *props.Properties) error {
	if c, ok := d.(Checker); ok {
		return c.Check(p)
	}
	return nil
}

// CheckedDriver is a Driver from an open and a check function.
type CheckedDriver struct {
	OpenFunc  DriverFunc
	CheckFunc func(p *props.Properties) error
}

// Open calls OpenFunc.
func (d CheckedDriver) Open(ctx context.Context, p *props.Properties, out io.Writer) (DB, error) {
	return d.OpenFunc(ctx, p, out)
}

// Check calls CheckFunc.
func (d CheckedDriver) Check(p *props.Properties) error { return d.CheckFunc(p) }

// DB is an opened binding, shared by all workers.
type DB interface {
	// Session returns the state of one worker; worker is in [0, workers).
	Session(ctx context.Context, worker, workers int) (Session, error)
	// Close releases the DB after every session is closed.
	Close() error
}

// Session is one worker's connection to the database. Not safe for
// concurrent use. Every method honours ctx cancellation.
type Session interface {
	// Read appends the requested fields of key to out (all fields when
	// fields is nil). A missing key is ErrNotFound.
	Read(ctx context.Context, table, key string, fields []string, out *Record) error
	// Scan appends up to count records, starting at startKey in the
	// binding's key order, to out.
	Scan(ctx context.Context, table, startKey string, count int, fields []string, out *Rows) error
	// Update sets the given fields of key, keeping the others.
	Update(ctx context.Context, table, key string, values []Field) error
	// Insert writes a new record.
	Insert(ctx context.Context, table, key string, values []Field) error
	// Delete removes key.
	Delete(ctx context.Context, table, key string) error
	// Close flushes anything buffered (a batch is never dropped) and releases
	// the session. The run measures it as CLEANUP.
	Close(ctx context.Context) error
}

// Remote is an optional DB capability: its operations wait on a server
// over the network, so a worker does little between long waits and the
// run sizes the client's processors to its load (run.Plan.AdaptProcs).
type Remote interface {
	WaitsOnServer()
}

// StatsReporter is an optional DB capability: extra report sections after the
// run (engine statistics). Each row is rendered as `[Section], Name, Value`.
type StatsReporter interface {
	Stats() []Stat
}

// Settler is an optional DB capability: after the measured phase and before
// its report, Settle brings the store to a steady state (an embedded engine
// with engine.settle waits until it has no compaction debt), so that the next
// phase starts from it. Its time is in none of the phase's figures; the
// binding reports it in its Stats. An error (it gave up) is a note, not a
// failed phase.
type Settler interface {
	Settle(ctx context.Context) error
}

// Stat is one extra report row. Value is an int64 or a float64.
type Stat struct {
	Section string
	Name    string
	Value   any
}
