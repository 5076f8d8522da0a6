// Package javafmt prints numbers the way the reference Java YCSB does, so
// that our report and status lines are byte-identical to its output and the
// parsers and spreadsheets written for it keep working.
//
// Each function names the Java routine it copies:
//
//   - Double: java.lang.Double.toString as JDK 19 and later print it
//     (reference §6.3), used by the text and JSON exporters.
//   - Decimal2: new java.text.DecimalFormat("#.##").format(double) in an
//     English locale (§5.7), used by the status line.
//   - Remaining: YCSB's RemainingFormatter, quirks included (§5.7).
//   - Ordinal: the percentile label of OneMeasurementHdrHistogram (§6.4).
//
// The package uses only the standard library and has no state; every
// function is safe for concurrent use.
package javafmt
