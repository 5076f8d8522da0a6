// Package export writes the final report rows, (metric, measurement, value),
// in the formats of the reference's measurement exporters (§6.3 and §6.6 of
// the reference), byte for byte, so that tools written for Java YCSB's
// output read ours.
//
// The exporters form a closed set kept in one table; New looks a name up in
// it. Lines end in "\n" where Java writes the platform line separator, which
// is the same on the Unix systems the reference's output is usually taken on.
package export

import (
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/internal/javafmt"
	"github.com/goycsb/ycsb/props"
)

// Value is an int64 or a float64; Java prints the two differently.
type Value struct {
	I     int64
	F     float64
	Float bool
}

// Int returns an integer value, printed as Java prints an int or a long.
func Int(v int64) Value { return Value{I: v} }

// Float returns a floating-point value, printed as Java's Double.toString.
func Float(v float64) Value { return Value{F: v, Float: true} }

// String returns v as the text exporter prints it.
func (v Value) String() string { return string(v.append(nil)) }

func (v Value) append(dst []byte) []byte {
	if v.Float {
		return javafmt.AppendDouble(dst, v.F)
	}
	return strconv.AppendInt(dst, v.I, 10)
}

// Exporter writes report rows in one format. It is not safe for concurrent
// use.
type Exporter interface {
	// Write adds one row. An error is sticky: later calls return it too.
	Write(metric, measurement string, v Value) error
	// Close writes what the format needs at the end and flushes; the writer
	// is not closed (the caller owns it). Write after Close is an error.
	Close() error
}

// exporters is the table New reads. Each row has our short name and the
// reference's class names for the same format, so that an `exporter`
// property copied from a Java YCSB setup keeps working.
var exporters = []struct {
	name    string
	classes []string
	new     func(io.Writer) Exporter
}{
	{"json", javaClasses("JSONMeasurementsExporter"), newJSON},
	{"jsonarray", javaClasses("JSONArrayMeasurementsExporter"), newJSONArray},
	{"text", javaClasses("TextMeasurementsExporter"), newText},
}

// javaClasses gives the class name of a reference exporter under its current
// package and under the one it had before the 0.14 rename.
func javaClasses(class string) []string {
	return []string{
		"site.ycsb.measurements.exporter." + class,
		"com.yahoo.ycsb.measurements.exporter." + class,
	}
}

// New returns the exporter registered under name, writing to w: a short
// name ("text", "json", "jsonarray") or a reference class name such as
// site.ycsb.measurements.exporter.TextMeasurementsExporter (also under the
// old com.yahoo.ycsb prefix). Names are case-sensitive, like Java's class
// names. An unknown name gives a props error naming the property `exporter`,
// which the command line reports as bad input; Java would fall back to the
// text exporter with a stack trace instead.
func New(name string, w io.Writer) (Exporter, error) {
	for _, e := range exporters {
		if name == e.name || slices.Contains(e.classes, name) {
			return e.new(w), nil
		}
	}
	return nil, props.Errorf("exporter", "unknown exporter %q (known: %s, or the reference's class names)",
		name, strings.Join(Names(), ", "))
}

// Names returns the short exporter names, sorted, for usage text.
func Names() []string {
	names := make([]string, len(exporters))
	for i, e := range exporters {
		names[i] = e.name
	}
	slices.Sort(names)
	return names
}

var errClosed = errors.New("export: write after Close")
