package props

import (
	"fmt"
	"time"
)

// Reader reads a package's properties into its typed configuration in one
// block: every read returns the value (the default when the property is
// absent or the read failed), the first error is kept for Err, and a Check
// words an out-of-range value from the value as the user wrote it. So a
// configuration is a list of reads and one error check, not a read and an
// if per property.
type Reader struct {
	p   *Properties
	err error
}

// NewReader returns a Reader of p.
func NewReader(p *Properties) *Reader { return &Reader{p: p} }

// Props returns the properties read.
func (r *Reader) Props() *Properties { return r.p }

// Err returns the first error of the reads, or of Fail.
func (r *Reader) Err() error { return r.err }

// Fail keeps err (a check across properties) unless an earlier error is
// kept already.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Check is a range a value must fall in, and how to word it to the user.
type Check[T int64 | float64] struct {
	ok       func(T) bool
	expected string
}

// Range returns a Check that ok accepts, worded as expected ("a number
// between 0 and 100").
func Range[T int64 | float64](expected string, ok func(T) bool) Check[T] {
	return Check[T]{ok: ok, expected: expected}
}

// NonNegative is the check of counts and sizes.
var NonNegative = Range("a non-negative integer", func(n int64) bool { return n >= 0 })

// Positive is the check of counts that cannot be 0.
var Positive = Range("a positive integer", func(n int64) bool { return n > 0 })

// check applies checks to v, read from name; def is returned on failure.
func check[T int64 | float64](r *Reader, name string, v, def T, checks []Check[T]) T {
	for _, c := range checks {
		if !c.ok(v) {
			raw, _ := r.p.get(name)
			r.Fail(Invalid(name, raw, c.expected))
			return def
		}
	}
	return v
}

// read reads name with get, then applies checks to a value that was set.
func read[T int64 | float64](r *Reader, name string, def T, get func(string, T) (T, error), checks []Check[T]) T {
	v, err := get(name, def)
	if err != nil {
		r.Fail(err)
		return def
	}
	if !r.p.Has(name) {
		return v
	}
	return check(r, name, v, def, checks)
}

// Int64 reads name as an integer (Properties.Int64) passing checks.
func (r *Reader) Int64(name string, def int64, checks ...Check[int64]) int64 {
	return read(r, name, def, r.p.Int64, checks)
}

// Int reads name as an integer that fits in an int (Properties.Int) passing
// checks.
func (r *Reader) Int(name string, def int, checks ...Check[int64]) int {
	get := func(name string, def int64) (int64, error) {
		n, err := r.p.Int(name, int(def))
		return int64(n), err
	}
	return int(read(r, name, int64(def), get, checks))
}

// Float64 reads name as a number (Properties.Float64) passing checks.
func (r *Reader) Float64(name string, def float64, checks ...Check[float64]) float64 {
	return read(r, name, def, r.p.Float64, checks)
}

// Bool reads name as true or false (Properties.Bool).
func (r *Reader) Bool(name string, def bool) bool {
	v, err := r.p.Bool(name, def)
	r.Fail(err)
	return v
}

// Seconds reads name as seconds of at least min (Properties.Seconds).
func (r *Reader) Seconds(name string, def, min float64) time.Duration {
	v, err := r.p.Seconds(name, def, min)
	r.Fail(err)
	return v
}

// Duration reads name as a number of unit between lo and hi
// (Properties.Duration).
func (r *Reader) Duration(name string, unit, def, lo, hi time.Duration) time.Duration {
	v, err := r.p.Duration(name, unit, def, lo, hi)
	r.Fail(err)
	return v
}

// String reads name as it is written, def when absent.
func (r *Reader) String(name, def string) string { return r.p.String(name, def) }

// Has reports whether name is set.
func (r *Reader) Has(name string) bool { return r.p.Has(name) }

// OneOf reads name as one of a closed set of values of type T, def when
// absent (Properties.OneOf: surrounding space is trimmed with a note).
func OneOf[T ~string](r *Reader, name string, def T, allowed ...T) T {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	v, err := r.p.OneOf(name, string(def), names...)
	if err != nil {
		r.Fail(err)
		return def
	}
	return T(v)
}

// Errorf keeps a free-form error about name (a check across properties).
func (r *Reader) Errorf(name, format string, args ...any) {
	r.Fail(&Error{Name: name, Err: fmt.Errorf(format, args...)})
}

// Parsed reads name with parse, for values of a form of the caller's (a
// size with a unit, say): a value parse refuses is worded as expected, and
// checks apply to what it returns.
func Parsed[T int64 | float64](r *Reader, name string, def T, parse func(string) (T, bool), expected string, checks ...Check[T]) T {
	raw, ok := r.p.get(name)
	if !ok {
		return def
	}
	v, ok := parse(raw)
	if !ok {
		r.Fail(Invalid(name, raw, expected))
		return def
	}
	return check(r, name, v, def, checks)
}
