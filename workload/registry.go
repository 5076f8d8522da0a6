package workload

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/goycsb/ycsb/props"
)

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

// ParseKind reads the workload property (with a note of surrounding
// spaces).
func ParseKind(p *props.Properties) (*Kind, error) {
	wl, ok := p.Word("workload")
	return parseKind(wl, ok)
}

// kindOf is ParseKind for a second reading, without its note; a missing
// workload, which the front end refuses, is the CoreWorkload.
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
