// Package export holds the report's rows, (metric, measurement, value), and
// writes them in the formats of the reference's measurement exporters
// (site.ycsb.measurements.exporter.TextMeasurementsExporter,
// JSONMeasurementsExporter and JSONArrayMeasurementsExporter at 0.17.0),
// byte for byte, so that tools written for Java YCSB's output read ours.
//
// The exporters form a closed set kept in one table; New looks a name up in
// it. Lines end in "\n" where Java writes the platform line separator, which
// is the same on the Unix systems the reference's output is usually taken on.
package export

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/goycsb/ycsb/props"
)

// Exporter writes report rows in one format. It is not safe for concurrent
// use.
type Exporter interface {
	// Write adds one row. An error is sticky: later calls return it too.
	Write(r Row) error
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

// WriteAll writes rows to w with the exporter registered under name.
func WriteAll(w io.Writer, name string, rows []Row) error {
	ex, err := New(name, w)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := ex.Write(r); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	if err := ex.Close(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
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
