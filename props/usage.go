package props

import (
	"fmt"
	"sort"
	"strings"
)

// formerNames maps properties of older YCSB versions or bindings, which no
// part of this program reads, to the property that does their job here.
var formerNames = map[string]string{
	"columnfamily": "table", // the reference template's (HBase's) table
}

// Notef records a note for the user about how a value was read, printed
// once setup has worked (see Warnings).
func (p *Properties) Notef(format string, args ...any) {
	p.track.mu.Lock()
	defer p.track.mu.Unlock()
	p.track.notes = append(p.track.notes, fmt.Sprintf(format, args...))
}

// Accept marks names as understood although this run does not read them,
// such as the other phase's properties in a workload file shared by load and
// run, so that Unused does not warn about them.
func (p *Properties) Accept(names ...string) {
	p.track.mu.Lock()
	defer p.track.mu.Unlock()
	for _, n := range names {
		if _, seen := p.track.read[n]; !seen {
			p.track.read[n] = true
		}
	}
}

// Unused returns the names that are set but that nothing has read or
// accepted, in the order they were set.
func (p *Properties) Unused() []string {
	p.track.mu.Lock()
	defer p.track.mu.Unlock()
	var out []string
	for _, k := range p.p.Keys() {
		if _, seen := p.track.read[k]; !seen {
			out = append(out, k)
		}
	}
	return out
}

// Warnings returns the notes made while reading and one line for every
// unused property, with the closest name the run did read, for a run to
// print to stderr once its setup is done (every property has been read by
// then).
func (p *Properties) Warnings() []string {
	unused := p.Unused()
	p.track.mu.Lock()
	defer p.track.mu.Unlock()
	out := make([]string, 0, len(p.track.notes)+len(unused))
	for _, n := range p.track.notes {
		out = append(out, "note: "+n)
	}
	var known []string
	for n, accepted := range p.track.read {
		if !accepted {
			known = append(known, n)
		}
	}
	sort.Strings(known) // ties go to the first name in order
	for _, name := range unused {
		msg := fmt.Sprintf("warning: property %s is not used by this run", name)
		if alt, ok := formerNames[name]; ok {
			msg += fmt.Sprintf(" (here the property is %s)", alt)
		} else if alt := closest(name, known); alt != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", alt)
		}
		out = append(out, msg)
	}
	return out
}

// closest returns the name of known nearest to name in edit distance, if it
// is near enough to be a likely typo: at most a third of name's length.
func closest(name string, known []string) string {
	best, bestD := "", len(name)/3+1
	for _, k := range known {
		if d := editDistance(strings.ToLower(name), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
