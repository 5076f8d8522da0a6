package db

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

var registry struct {
	mu      sync.RWMutex
	drivers map[string]*entry // by every name and alias
	primary []string
}

type entry struct {
	name    string
	driver  Driver
	summary string
	kind    Kind
}

// Kind is where a binding's database does its work, as its registration
// says: it decides what a client's CPU figures mean and whether clients on
// several machines can share the database.
type Kind uint8

const (
	// Server: the database runs apart from the client, which reaches it
	// over the network (basic, which has none, counts as one: all it
	// measures is the client).
	Server Kind = iota
	// Embedded: the engine runs inside the benchmark's own process, on
	// the process's CPU, with its data in a local directory: another
	// client process would have a store of its own.
	Embedded
)

func (k Kind) String() string {
	return [...]string{"server", "embedded"}[k]
}

// Register makes a driver available under name and its aliases (for example
// the reference's Java class name, so `-db site.ycsb.BasicDB` keeps working).
// It panics on a nil driver or a name taken twice, as database/sql does:
// both are programming errors caught by any test.
func Register(name, summary string, d Driver, aliases ...string) {
	register(Server, name, summary, d, aliases)
}

// RegisterEmbedded is Register for an embedded engine (Embedded).
func RegisterEmbedded(name, summary string, d Driver, aliases ...string) {
	register(Embedded, name, summary, d, aliases)
}

func register(kind Kind, name, summary string, d Driver, aliases []string) {
	if d == nil {
		panic("db: Register driver is nil")
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.drivers == nil {
		registry.drivers = map[string]*entry{}
	}
	e := &entry{name: name, driver: d, summary: summary, kind: kind}
	for _, n := range append([]string{name}, aliases...) {
		if _, dup := registry.drivers[n]; dup {
			panic("db: Register called twice for " + n)
		}
		registry.drivers[n] = e
	}
	registry.primary = append(registry.primary, name)
}

// retired are binding names of the reference that no longer exist, with the
// binding that replaced them. They are refused with that name rather than
// run under another binding, whose properties and schema differ.
var retired = map[string]string{
	"cassandra-7":  "cassandra-cql",
	"cassandra-8":  "cassandra-cql",
	"cassandra-10": "cassandra-cql",
}

// Lookup returns the driver registered under name or alias, with its primary
// name. The error lists the known bindings.
func Lookup(name string) (Driver, string, error) {
	registry.mu.RLock()
	e, ok := registry.drivers[name]
	registry.mu.RUnlock()
	if !ok {
		if by, ok := retired[name]; ok {
			return nil, "", fmt.Errorf("binding %q was one of the reference's Thrift-based bindings, no longer part of YCSB: use %s", name, by)
		}
		return nil, "", fmt.Errorf("unknown binding %q (known: %s)", name, strings.Join(Drivers(), ", "))
	}
	return e.driver, e.name, nil
}

// KindOf is the kind of the binding registered under name or alias;
// Server for a name that is not registered (Lookup reports it).
func KindOf(name string) Kind {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	if e, ok := registry.drivers[name]; ok {
		return e.kind
	}
	return Server
}

// Drivers returns the primary names of the registered bindings, sorted.
func Drivers() []string {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	out := append([]string(nil), registry.primary...)
	sort.Strings(out)
	return out
}

// Info describes a registered binding for usage text.
type Info struct {
	Name    string
	Summary string
	Aliases []string
}

// Infos returns every registered binding with its aliases, sorted by name.
func Infos() []Info {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	byName := map[string]*Info{}
	for alias, e := range registry.drivers {
		in := byName[e.name]
		if in == nil {
			in = &Info{Name: e.name, Summary: e.summary}
			byName[e.name] = in
		}
		if alias != e.name {
			in.Aliases = append(in.Aliases, alias)
		}
	}
	out := make([]Info, 0, len(byName))
	for _, in := range byName {
		sort.Strings(in.Aliases)
		out = append(out, *in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
