package merge

// The report builders of this package's tests, for the tests of merge
// and the gates together (gates_test.go, an external test package).
var (
	Fake        = fake
	RoundTrip   = roundTrip
	Interrupted = interrupted
	Ticked      = ticked
)
