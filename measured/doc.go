// Package measured measures a binding's calls: its Session wraps one
// worker's db.Session and records every call (Read, Scan, Update, Insert,
// Delete, read-modify-writes and transactions) into that worker's
// measurement.Recorder, under YCSB's operations and statuses, like the
// reference's DBWrapper. It counts the failed, inserted, lost and
// unknown-outcome operations a run reports, and turns a binding's panic
// into an ERROR for that operation. The workloads call a binding through
// it; package run makes one per worker.
package measured
