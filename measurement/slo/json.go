package slo

// SLO is the objectives a run (or a merged fleet) was judged against.
type SLO struct {
	// Latency is the latency the objectives read: "intended" (from each
	// operation's intended start, with a target) or "service" (from its
	// actual start).
	Latency string `json:"latency"`
	// Judged is false in a report of one client of several: its share of
	// the work is not judged, the merged report is (ycsb merge).
	Judged bool `json:"judged"`
	// Passed: every objective passed (false when not judged).
	Passed bool `json:"passed"`
	// Aborted is the objective that stopped the run early (slo.abort).
	Aborted    string         `json:"aborted,omitempty"`
	Objectives []SLOObjective `json:"objectives"`
}

// SLOObjective is one objective and what the run measured for it.
type SLOObjective struct {
	Objective  string  `json:"objective"`           // as written, spaces removed
	Operation  string  `json:"operation,omitempty"` // READ, ALL; none for errors and throughput
	Statistic  string  `json:"statistic"`           // p99, p99.9, mean, max, errors, throughput
	Comparison string  `json:"comparison"`          // <=, <, >=, >
	Limit      float64 `json:"limit"`
	Unit       string  `json:"unit"` // us, fraction, ops/s
	// Measured is absent when the run measured nothing the objective
	// reads, or too few operations for its percentile (Why says which).
	Measured *float64 `json:"measured,omitempty"`
	Verdict  string   `json:"verdict"` // PASS, FAIL, NO DATA; "" when not judged
	// Why says why there is no figure ("12 READ operations; a p99 needs
	// at least 1000 operations, 10 beyond it"); absent with one.
	Why string `json:"why,omitempty"`
}
