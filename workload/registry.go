package workload

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/session"
)

// Workload is a built workload as a run drives it: one Transactor per
// worker, and the stop the workers poll. The CoreWorkload is one; a
// workload that checks the database after its run is also a Validator.
type Workload interface {
	// NewTransactor returns one worker's operations, recorded through s,
	// drawing from a random source seeded with seed.
	NewTransactor(s *session.Session, seed uint64) Transactor
	// Stop asks every worker to finish its current operation and return.
	Stop()
	// Resume clears Stop for another run of the same workload.
	Resume()
	// StopFlag is the flag Stop sets, polled per operation.
	StopFlag() *atomic.Bool
}

// Transactor is one worker's operations: a transaction of the run phase,
// or an insert of the load phase. Each returns false when the worker is
// done.
type Transactor interface {
	DoTransaction(ctx context.Context) bool
	DoInsert(ctx context.Context) bool
}

// Validator is an optional Workload capability: an invariant over the
// database, counted before the run and checked after it (the closed
// economy's balances).
type Validator interface {
	// Count takes the tally the invariant is about, now.
	Count(ctx context.Context, database db.DB) (Tally, error)
	// Validate checks the invariant once the workers have returned,
	// against start (from Count; nil when it was not counted).
	Validate(ctx context.Context, database db.DB, start *Start) *Validation
	// ValidationMethod is how Count and Validate will read database.
	ValidationMethod(database db.DB) string
}

// Kind is one workload the workload property names: how its properties
// are read and how it is built. A new workload is one Kind registered in
// an init function of this package.
type Kind struct {
	// Name is ours, the short value of workload= (core, closedeconomy).
	Name string
	// Classes are the Java class names the reference and its forks accept
	// for it, the first the one error messages suggest.
	Classes []string
	// Properties are the properties it reads beyond the CoreWorkload's.
	Properties []string
	// Configure reads them into c once the CoreWorkload's are read
	// without error; transactions says whether the run phase is run. Nil
	// when it has none.
	Configure func(c *Config, r *props.Reader, transactions bool)
	// Build builds the workload c describes (Build's messages go to
	// stderr).
	Build func(ctx context.Context, c *Config, stderr io.Writer) (Workload, error)
}

// kinds are the registered workloads, in the order of registration.
var kinds []*Kind

// Register adds a workload. It panics when one of k's names is taken: two
// workloads behind one value of the workload property is a programming
// error.
func Register(k *Kind) {
	for _, n := range k.names() {
		if lookup(n) != nil {
			panic(fmt.Sprintf("workload: %s registered twice", n))
		}
	}
	kinds = append(kinds, k)
}

// Kinds are the registered workloads.
func Kinds() []*Kind { return kinds }

func (k *Kind) names() []string { return append([]string{k.Name}, k.Classes...) }

// lookup is the workload named value; nil when none is.
func lookup(value string) *Kind {
	for _, k := range kinds {
		for _, n := range k.names() {
			if value == n {
				return k
			}
		}
	}
	return nil
}

func init() {
	Register(&Kind{
		Name:    "core",
		Classes: []string{"site.ycsb.workloads.CoreWorkload", "com.yahoo.ycsb.workloads.CoreWorkload"},
		Build: func(ctx context.Context, c *Config, stderr io.Writer) (Workload, error) {
			return Build(ctx, c, stderr)
		},
	})
	Register(&Kind{
		Name:       "closedeconomy",
		Classes:    closedEconomyClasses(),
		Properties: economyProperties,
		Configure:  (*Config).readEconomy,
		Build: func(ctx context.Context, c *Config, stderr io.Writer) (Workload, error) {
			w, err := Build(ctx, c, stderr)
			if err != nil {
				return nil, err
			}
			return &ClosedEconomyWorkload{w}, nil
		},
	})
}

// closedEconomyClasses are ClosedEconomyClasses without ours (the
// Kind's Name), which RunsTransactions reads whole.
func closedEconomyClasses() []string {
	var out []string
	for _, c := range ClosedEconomyClasses {
		if c != "closedeconomy" {
			out = append(out, c)
		}
	}
	return out
}

// ParseKind reads the workload property (with a note of surrounding
// spaces).
func ParseKind(p *props.Properties) (*Kind, error) {
	wl, ok := p.Word("workload")
	return parseKind(wl, ok)
}

// kindOf is ParseKind for a second reading, without its note; a missing
// workload, which the runner refuses, is the CoreWorkload.
func kindOf(p *props.Properties) (*Kind, error) {
	wl, ok := p.Get("workload")
	if !ok {
		return kinds[0], nil
	}
	return parseKind(strings.TrimSpace(wl), ok)
}

func parseKind(wl string, ok bool) (*Kind, error) {
	if !ok {
		return kinds[0], props.Errorf("workload", "missing: give a workload file with -P (for example -P workloads/workloada) or -p workload=%s", kinds[0].Classes[0])
	}
	if k := lookup(wl); k != nil {
		return k, nil
	}
	var want []string
	for _, k := range kinds {
		want = append(want, k.Classes[0])
	}
	return kinds[0], props.Invalid("workload", wl, strings.Join(want, " or "))
}
