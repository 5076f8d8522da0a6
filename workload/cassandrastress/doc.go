// Package cassandrastress is the cassandra-stress workload: the
// predefined commands' operations (write, read, counter_write,
// counter_read, mixed: Predefined over a Model), a user profile's
// (UserSetup: its keyspaces and tables made, its statements prepared, its
// inserts, queries, token range reads and validation), and the state a
// run's workers share (RunState: the stop, the first failure, the tries
// and their waits). Its data generators are in data, its profiles in
// profile; it is built from the cassandra-stress command line's typed
// settings (frontend/stress/settings), which the front end
// parses.
//
// A Workload of the contract (package workload), its Transactors run
// their statements on the CQL capability of the session they are given
// (db/cassandra's CQL: a Conn's sessions), and record each operation
// through measured.Session.Finish, so that its counters (OK, failed, the
// causes, the latency) are the session's as every binding's are.
//
// It is not in the workload registry: the registry builds a workload from
// YCSB's properties (workload=, workload.Config), this one from the
// cassandra-stress command line, and it runs on db/cassandra's sessions
// only.
package cassandrastress
