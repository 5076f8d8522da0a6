package main

import (
	"strings"
	"testing"
)

// TestInputThatCannotWork: sizes no benchmark can run with are one line
// naming the property, exit 2, before anything is allocated or created
// (they used to panic or run out of memory).
func TestInputThatCannotWork(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	bin, wl := binaryAndWorkload(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"dev zero", []string{"run", "basic", "-P", "/dev/zero"}, "/dev/zero"},
		{"fieldlength", []string{"load", "basic", "-P", wl, "-p", "fieldlength=10000000000"}, "fieldlength"},
		{"fieldcount", []string{"load", "basic", "-P", wl, "-p", "fieldcount=100000000"}, "fieldcount"},
		{"recordcount with zipfian", []string{"run", "basic", "-P", wl, "-p", "recordcount=9223372036854775807"}, "recordcount"},
		{"threads", []string{"run", "basic", "-P", wl, "-threads", "1000000"}, "threadcount"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if msg := wantBadInput(t, bin, c.args...); !strings.Contains(msg, c.want) {
				t.Errorf("stderr does not name %s:\n%s", c.want, msg)
			}
		})
	}
}
