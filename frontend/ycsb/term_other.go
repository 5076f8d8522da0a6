//go:build !linux

package ycsb

import "io"

// terminal reports no terminal outside Linux: the progress line is then
// only shown with progress=true.
func terminal(io.Writer) int { return -1 }

func termWidth(int) int { return 0 }
