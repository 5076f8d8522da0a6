package measurement

import (
	"fmt"
	"io"
	"sync"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/internal/secret"
)

// MaxCauses is how many distinct error causes a run shows.
const MaxCauses = 20

// Causes shows why operations failed: each distinct cause (operation,
// status and the driver's message, with digits taken as alike so that key
// numbers do not make every message new) once, as it first happens, and
// how often each came back at the end. Only failed operations reach it, so
// it may lock.
type Causes struct {
	ops     *Ops
	mu      sync.Mutex
	say     func(string)
	seen    map[string]*cause
	order   []*cause
	dropped int64 // failures of causes beyond MaxCauses
	first   string
}

type cause struct {
	line  string
	count int64
}

// NewCauses returns Causes of the operations of ops that print their
// first lines with say.
func NewCauses(ops *Ops, say func(string)) *Causes {
	return &Causes{ops: ops, say: say, seen: map[string]*cause{}}
}

// SetSay changes where first occurrences go (the progress line's writer).
func (c *Causes) SetSay(say func(string)) {
	c.mu.Lock()
	c.say = say
	c.mu.Unlock()
}

// Add records one failed operation.
func (c *Causes) Add(op Op, st status.Status, err error) {
	msg := secret.InText(err.Error())
	name := c.ops.Name(op)
	key := name + " " + st.String() + " " + digitsAlike(msg)
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.seen[key]; k != nil {
		k.count++
		return
	}
	line := name + " " + st.String() + ": " + msg
	if c.first == "" {
		c.first = line
	}
	if len(c.order) >= MaxCauses {
		c.dropped++
		return
	}
	k := &cause{line: line, count: 1}
	c.seen[key] = k
	c.order = append(c.order, k)
	c.say(line)
}

// First returns the first failure's line, or "".
func (c *Causes) First() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.first
}

// WriteSummary writes how often each cause happened, when any did.
func (c *Causes) WriteSummary(w io.Writer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range c.order {
		fmt.Fprintf(w, "%d failed: %s\n", k.count, k.line)
	}
	if c.dropped > 0 {
		fmt.Fprintf(w, "%d failed with further causes not shown (only the first %d causes are)\n", c.dropped, MaxCauses)
	}
}

// digitsAlike replaces every run of digits with one '#'.
func digitsAlike(s string) string {
	b := make([]byte, 0, len(s))
	inDigits := false
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			if !inDigits {
				b = append(b, '#')
			}
			inDigits = true
			continue
		}
		inDigits = false
		b = append(b, s[i])
	}
	return string(b)
}
