// Package props gives typed access to YCSB's Java-style properties, with
// errors that name the property and the expected form.
//
// Properties come from -P files (java.util.Properties syntax, parsed by
// github.com/magiconair/properties with ${} expansion off, as Java has none)
// and from command-line overrides, which always win over files, as in the
// reference's Client.parseArguments (docs/compatibility.md, "Command line
// and properties"). A Properties value is read-only once a run starts and may be
// shared by all workers.
package props

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/goycsb/ycsb/internal/secret"
	"github.com/magiconair/properties"
)

// Error is a bad or missing property value. It always means bad input, so the
// command line turns it into exit code 2.
type Error struct {
	Name     string // property name, or file name for a file that cannot be read
	Value    string // offending value, if any
	Expected string // what was expected, e.g. "an integer"
	Err      error  // optional cause
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Name)
	b.WriteString(": ")
	if e.Expected != "" {
		b.WriteString("expected ")
		b.WriteString(e.Expected)
		if e.Value != "" || e.Err == nil {
			fmt.Fprintf(&b, ", got %q", secret.Value(e.Name, e.Value))
		}
	}
	if e.Err != nil {
		if e.Expected != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error for name with a free-form explanation.
func Errorf(name, format string, args ...any) error {
	return &Error{Name: name, Err: fmt.Errorf(format, args...)}
}

// Invalid returns an *Error saying that name held value where expected was wanted.
func Invalid(name, value, expected string) error {
	return &Error{Name: name, Value: value, Expected: expected}
}

// BadInput marks the errors that mean the input was bad: the command line
// exits with code 2 for them. *Error is one; other packages' errors (a
// usage error, a failed setup) become one with a BadInput method.
type BadInput interface {
	error
	BadInput()
}

// BadInput marks a property error as bad input.
func (e *Error) BadInput() {}

// IsBadInput reports whether err, or an error it wraps, is bad input.
func IsBadInput(err error) bool {
	var bi BadInput
	return errors.As(err, &bi)
}

// Properties is an ordered set of string properties. It records which names
// were read, so that a run can warn about properties nobody used (a typo, a
// property of another binding or of an old YCSB version), and the notes made
// while reading (a value trimmed of white space). Properties are read while a
// run is set up, not per operation, so a mutex is cheap enough and keeps
// concurrent readers race-free.
type Properties struct {
	p     *properties.Properties
	track *tracker // shared with clones
}

type tracker struct {
	mu    sync.Mutex
	read  map[string]bool // names looked up, present or not; true: accepted without a lookup
	notes []string
}

// New returns an empty set.
func New() *Properties {
	p := properties.NewProperties()
	p.DisableExpansion = true
	return wrap(p)
}

func wrap(p *properties.Properties) *Properties {
	return &Properties{p: p, track: &tracker{read: map[string]bool{}}}
}

// get returns the raw value of name and records the read.
func (p *Properties) get(name string) (string, bool) {
	p.track.mu.Lock()
	if _, seen := p.track.read[name]; !seen {
		p.track.read[name] = false
	}
	p.track.mu.Unlock()
	return p.p.Get(name)
}

// FromMap returns a set holding m, for tests and embedding programs.
func FromMap(m map[string]string) *Properties {
	p := New()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p.Set(k, m[k])
	}
	return p
}

// Parse reads java.util.Properties text. name is used in errors.
func Parse(name string, text []byte) (*Properties, error) {
	text = bytes.TrimSuffix(text, []byte{0x1a}) // a DOS end-of-file mark
	// Windows editors start UTF-8 text with a byte-order mark; read as
	// ISO-8859-1 (as Java does) it would become part of the first key.
	text, bom := bytes.CutPrefix(text, []byte("\xef\xbb\xbf"))
	if err := checkText(text); err != nil {
		return nil, &Error{Name: name, Err: fmt.Errorf("not a properties file: %w", err)}
	}
	l := &properties.Loader{Encoding: properties.ISO_8859_1, DisableExpansion: true}
	pp, err := l.LoadBytes(text)
	if err != nil {
		return nil, &Error{Name: name, Err: fmt.Errorf("not a properties file: %w", err)}
	}
	pp.DisableExpansion = true
	p := wrap(pp)
	if bom {
		p.Notef("%s: ignoring the UTF-8 byte-order mark at its start", name)
	}
	return p, nil
}

// Merge copies every property of o into p, o winning, and the notes made
// while o was parsed (a -P file's byte-order mark).
func (p *Properties) Merge(o *Properties) {
	for _, k := range o.p.Keys() {
		v, _ := o.p.Get(k)
		p.Set(k, v)
	}
	if o.track == p.track {
		return
	}
	o.track.mu.Lock()
	notes := append([]string(nil), o.track.notes...)
	o.track.mu.Unlock()
	p.track.mu.Lock()
	p.track.notes = append(p.track.notes, notes...)
	p.track.mu.Unlock()
}

// Clone returns an independent copy. Reads of the copy count as reads of p
// (see Unused): a binding may read its properties from a copy.
func (p *Properties) Clone() *Properties {
	c := New()
	c.Merge(p)
	c.track = p.track
	return c
}

// Set sets name to value.
func (p *Properties) Set(name, value string) {
	// Set only fails on circular references, which cannot occur without expansion.
	_, _, _ = p.p.Set(name, value)
}

// Get returns the raw value and whether it is present.
func (p *Properties) Get(name string) (string, bool) { return p.get(name) }

// Has reports whether name is set.
func (p *Properties) Has(name string) bool {
	_, ok := p.get(name)
	return ok
}

// Keys returns the names in the order they were first set. Listing names
// does not count as reading them.
func (p *Properties) Keys() []string { return p.p.Keys() }

// Map returns a copy of all properties. It does not count as reading them.
func (p *Properties) Map() map[string]string { return p.p.Map() }

// String returns the value of name, or def when absent.
func (p *Properties) String(name, def string) string {
	if v, ok := p.get(name); ok {
		return v
	}
	return def
}

// Word returns the value of name with surrounding white space removed, for
// values from a closed set (class names, distribution names, true/false):
// Java keeps trailing spaces in a value, and "hashed " is an easy mistake to
// make and a hard one to see. A trimmed value is noted (see Notes).
func (p *Properties) Word(name string) (string, bool) {
	v, ok := p.get(name)
	if !ok {
		return v, false
	}
	t := strings.TrimSpace(v)
	if t != v {
		p.Notef("%s: ignoring the %s in %q", name, spaceWhere(v), secret.Value(name, v))
	}
	return t, true
}

// spaceWhere names where v has surrounding white space.
func spaceWhere(v string) string {
	lead := len(v) > len(strings.TrimLeftFunc(v, unicode.IsSpace))
	trail := len(v) > len(strings.TrimRightFunc(v, unicode.IsSpace))
	switch {
	case lead && trail:
		return "leading and trailing space"
	case lead:
		return "leading space"
	case trail:
		return "trailing space"
	}
	return ""
}

// Int64 parses name as a decimal integer. Java's parsers reject surrounding
// space and fractions; so do we, but with an error instead of a crash.
func (p *Properties) Int64(name string, def int64) (int64, error) {
	v, ok := p.get(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		if w := spaceWhere(v); w != "" {
			return def, Invalid(name, v, "an integer without "+w)
		}
		return def, Invalid(name, v, "an integer")
	}
	return n, nil
}

// NonNegInt64 is Int64 that also rejects negative values.
func (p *Properties) NonNegInt64(name string, def int64) (int64, error) {
	return nonNegative(p, name, def)(p.Int64(name, def))
}

// Int parses name as an integer that fits in an int.
func (p *Properties) Int(name string, def int) (int, error) {
	n, err := p.Int64(name, int64(def))
	if err != nil {
		return def, err
	}
	if n > math.MaxInt32 || n < math.MinInt32 {
		v, _ := p.p.Get(name)
		return def, Invalid(name, v, "an integer between -2147483648 and 2147483647")
	}
	return int(n), nil
}

// NonNegInt is Int that also rejects negative values.
func (p *Properties) NonNegInt(name string, def int) (int, error) {
	return nonNegative(p, name, def)(p.Int(name, def))
}

// nonNegative returns a check of an integer getter's result that turns a
// negative value into an error naming the property.
func nonNegative[T int | int64](p *Properties, name string, def T) func(T, error) (T, error) {
	return func(n T, err error) (T, error) {
		if err != nil {
			return n, err
		}
		if n < 0 {
			v, _ := p.p.Get(name)
			return def, Invalid(name, v, "a non-negative integer")
		}
		return n, nil
	}
}

// Float64 parses name as a decimal number. NaN and infinities are refused:
// no YCSB property means anything with them.
func (p *Properties) Float64(name string, def float64) (float64, error) {
	v, ok := p.get(name)
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || strings.ContainsAny(v, "xXpP_") {
		return def, Invalid(name, v, "a number")
	}
	return f, nil
}

// MaxDuration bounds every duration property: no benchmark, timeout or
// interval needs more than a year, and the bound keeps a value far from
// the 292 years where int64 nanoseconds wrap around (a wrapped value used to
// run silently: maxexecutiontime=18446744074 was 291 ms).
const MaxDuration = 366 * 24 * time.Hour

// Duration parses name as a number of unit (fractions allowed), between lo
// and hi (at most MaxDuration), as a duration; def when absent. The error
// states the range in unit, as the user writes the value.
func (p *Properties) Duration(name string, unit, def, lo, hi time.Duration) (time.Duration, error) {
	hi = min(hi, MaxDuration)
	f, err := p.Float64(name, 0)
	if err != nil {
		if v, ok := p.get(name); ok {
			return def, Invalid(name, v, durationRange(unit, lo, hi))
		}
		return def, err
	}
	if !p.Has(name) {
		return def, nil
	}
	ns := f * float64(unit)
	if ns < float64(lo) || ns > float64(hi) {
		v, _ := p.get(name)
		return def, Invalid(name, v, durationRange(unit, lo, hi))
	}
	d := time.Duration(math.Round(ns))
	if d == 0 && ns > 0 {
		d = 1 // a positive value is not 0, which often means "none"
	}
	return d, nil
}

// durationRange words the range of a duration property in its unit.
func durationRange(unit, lo, hi time.Duration) string {
	in := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d)/float64(unit), 'f', -1, 64)
	}
	return fmt.Sprintf("a number of %s between %s and %s", unitName(unit), in(lo), in(hi))
}

// unitName is the plural name of a property's unit.
func unitName(unit time.Duration) string {
	switch unit {
	case time.Nanosecond:
		return "nanoseconds"
	case time.Microsecond:
		return "microseconds"
	case time.Millisecond:
		return "milliseconds"
	case time.Second:
		return "seconds"
	}
	return unit.String() + "s"
}

// Seconds parses name as a number of seconds (fractions allowed) of at
// least min, as a duration (Duration in seconds, up to MaxDuration).
func (p *Properties) Seconds(name string, def, min float64) (time.Duration, error) {
	return p.Duration(name, time.Second, time.Duration(def*float64(time.Second)), time.Duration(min*float64(time.Second)), MaxDuration)
}

// Bool parses name as true or false (any case). Java treats every other word
// as false; a typo there silently changes a benchmark, so we refuse it.
func (p *Properties) Bool(name string, def bool) (bool, error) {
	v, ok := p.Word(name)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return def, Invalid(name, v, "true or false")
}

// OneOf returns the value of name if it is one of allowed, def when absent.
func (p *Properties) OneOf(name, def string, allowed ...string) (string, error) {
	v, ok := p.Word(name)
	if !ok {
		return def, nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return def, Invalid(name, v, "one of "+strings.Join(allowed, ", "))
}

// ParseOverride splits a -p argument at its first '=' like the reference.
func ParseOverride(arg string) (name, value string, err error) {
	i := strings.IndexByte(arg, '=')
	if i <= 0 {
		return "", "", &Error{Name: "-p", Value: arg, Expected: "name=value"}
	}
	return arg[:i], arg[i+1:], nil
}
