//go:build !unix

package ycsbtest

// lockAddrs takes no lock where there is no flock: a test's own cluster then
// relies on busy alone to find addresses no other test uses.
func lockAddrs(string) (unlock func(), ok bool) { return func() {}, true }
