// Package javafmt prints numbers the way the reference Java YCSB does, so
// that our report and status lines are byte-identical to its output and the
// parsers and spreadsheets written for it keep working.
//
// Each function names the Java routine it copies:
//
//   - Double: java.lang.Double.toString as JDK 19 and later print it
//     (docs/compatibility.md, "Text report"), used by the text and JSON
//     exporters.
//   - Decimal2: new java.text.DecimalFormat("#.##").format(double) in an
//     English locale (docs/compatibility.md, "Status line"), used by the
//     status line.
//   - Remaining: YCSB's RemainingFormatter (StatusThread.java at 0.17.0),
//     quirks included.
//   - Ordinal: the percentile label of OneMeasurementHdrHistogram.java at
//     0.17.0.
//
// The package uses only the standard library and has no state; every
// function is safe for concurrent use.
package javafmt
