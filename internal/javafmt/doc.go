// Package javafmt prints numbers the way the reference Java YCSB and
// cassandra-stress do, so that our report and status lines are
// byte-identical to their output and the parsers and spreadsheets written
// for them keep working.
//
// Each function names the Java routine it copies:
//
//   - Double: java.lang.Double.toString as JDK 19 and later print it
//     (docs/compatibility.md, "Text report"), used by the text and JSON
//     exporters.
//   - Float: java.lang.Float.toString, likewise; with Double, the values
//     the stress mode's read validation prints (workload/cassandrastress/data JavaValue).
//   - Fixed, FixedGrouped and Grouped: String.format's "%.Nf", "%,.Nf" and
//     "%,d" in an English locale (the stress mode's report and settings,
//     the progress line).
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
