//go:build unix

package ycsbtest

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockAddrs takes an exclusive lock on the file at path without waiting;
// false when another process holds it. The lock ends with unlock, or with
// the process.
func lockAddrs(path string) (unlock func(), ok bool) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false
	}
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true
}
