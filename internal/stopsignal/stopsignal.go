// Package stopsignal is the one rule for the stop signals (SIGINT,
// SIGTERM) of every command: the first ends the context, so that the run
// stops and still reports the work done; another one within Window of it
// is the same request; one after Window exits at once, without a report.
package stopsignal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Window is how long after the first stop signal another one counts as the
// same request. timeout(1) signals its child and then the child's process
// group, and a supervisor that forwards the terminal's Ctrl-C to a child
// in the same group does likewise: the two arrive within microseconds, a
// few tens of milliseconds apart when the machine is loaded. A person who
// presses Ctrl-C again because the stop takes too long does so after
// seeing it take long, well over half a second later.
const Window = 500 * time.Millisecond

// Signal names the signal that stopped a run, as reports write it.
type Signal string

const (
	SIGINT  Signal = "SIGINT"
	SIGTERM Signal = "SIGTERM"
)

// Known says whether s is a signal this package stops a run for.
func (s Signal) Known() bool { return s == SIGINT || s == SIGTERM }

// nameOf is the name of a stop signal.
func nameOf(sig os.Signal) Signal {
	if sig == syscall.SIGTERM {
		return SIGTERM
	}
	return SIGINT
}

// Cause is the cause (context.Cause) of a context a stop signal ended.
type Cause struct{ Signal Signal }

func (c *Cause) Error() string { return "stopped by " + string(c.Signal) }

// By is the signal that ended ctx, or "" when ctx has not ended or ended
// otherwise (a test's cancel).
func By(ctx context.Context) Signal {
	var c *Cause
	if errors.As(context.Cause(ctx), &c) {
		return c.Signal
	}
	return ""
}

// Request is what a stop signal asks for, by when it came (Counter).
type Request int

const (
	Stop  Request = iota // the first: stop the run and report
	Same                 // within Window of the first: already asked
	Force                // after Window: exit at once
)

// Counter counts stop signals by their arrival, against the first's.
type Counter struct {
	first time.Time
	seen  bool
}

// Note is the request of a signal that arrived at now.
func (c *Counter) Note(now time.Time) Request {
	switch {
	case !c.seen:
		c.first, c.seen = now, true
		return Stop
	case now.Sub(c.first) < Window:
		return Same
	}
	return Force
}

// Watch returns a context that the first SIGINT or SIGTERM ends, with a
// Cause naming it; a second signal within Window is ignored, one after it
// writes a line to stderr and calls exit (which is to end the process).
// Call release once the command is done: the signals are then the
// runtime's again.
func Watch(parent context.Context, stderr io.Writer, exit func()) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var c Counter
		for {
			select {
			case sig := <-sigs:
				switch c.Note(time.Now()) {
				case Stop:
					cancel(&Cause{Signal: nameOf(sig)})
				case Force:
					fmt.Fprintln(stderr, "ycsb: interrupted again: exiting without a report")
					exit()
					return
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
