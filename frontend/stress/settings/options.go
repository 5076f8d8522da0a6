package settings

import (
	"fmt"
	"strings"
)

// optKind says how a sub-option is written.
type optKind int

const (
	optValue optKind = iota // name=value (or name>=value ...): the name is a prefix
	optFlag                 // a bare word such as no-warmup
	optMulti                // name(k=v,...)
	optList                 // -node's bare host list: any word no other option takes
)

// opt declares one sub-option: how it is matched, and its help line.
type opt struct {
	name string
	kind optKind
	arg  string // what follows the name in help, e.g. "N" or "DIST(?)"
	def  string // the default shown in help; "" for none
	desc string
}

func (o opt) display() string {
	switch o.kind {
	case optMulti:
		return o.name + "(" + o.arg + ")"
	case optList:
		return o.arg
	}
	return o.name + o.arg
}

// group declares a -group (or the options of a command): its sub-options,
// and the alternative forms shown by help.
type group struct {
	name  string
	desc  string
	forms []string
	opts  []opt
	notes []string // extra lines at the end of help
}

// words is the result of matching a group's parameters: the value of each
// option given, by option name, and the word that gave it.
type words struct {
	group string
	val   map[string]string
	word  map[string]string
	order []string
}

func (w *words) has(name string) bool { _, ok := w.val[name]; return ok }

// get returns the value and whether the option was given.
func (w *words) get(name string) (string, bool) { v, ok := w.val[name]; return v, ok }

func (w *words) errf(name, format string, args ...any) error {
	return &Error{Group: w.group, Word: w.word[name], Reason: fmt.Sprintf(format, args...)}
}

// match assigns each parameter to an option of g. As in the original, an
// option name is a case-insensitive prefix of the word (the longest
// declared name wins), a flag must be the whole word, and an option may be
// given once.
func (g *group) match(groupName string, params []string) (*words, error) {
	w := &words{group: groupName, val: map[string]string{}, word: map[string]string{}}
	for i, p := range params {
		if i > 0 && secretArg(params[i-1]) {
			// the word may be the rest of a password the shell split
			if err := g.matchOne(w, groupName, p); err != nil {
				return nil, afterSecretError(groupName, params[i-1])
			}
			continue
		}
		if err := g.matchOne(w, groupName, p); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// matchOne assigns the parameter p to an option of g.
func (g *group) matchOne(w *words, groupName, p string) error {
	lp := strings.ToLower(p)
	var best *opt
	var val string
	for i := range g.opts {
		o := &g.opts[i]
		ln := strings.ToLower(o.name)
		switch o.kind {
		case optMulti:
			if strings.HasPrefix(lp, ln+"(") {
				if !strings.HasSuffix(p, ")") {
					return &Error{Group: groupName, Word: p, Reason: "missing ')' at the end of " + o.name + "(...)"}
				}
				best, val = o, p[len(ln)+1:len(p)-1]
			}
		case optValue, optFlag:
			if strings.HasPrefix(lp, ln) && (best == nil || len(ln) > len(best.name)) {
				best, val = o, p[len(ln):]
			}
		}
		if best != nil && best.kind == optMulti {
			break
		}
	}
	if best == nil {
		for i := range g.opts {
			if g.opts[i].kind == optList && !strings.Contains(p, "=") {
				best, val = &g.opts[i], p
			}
		}
	}
	if best == nil {
		return &Error{Group: groupName, Word: p, Reason: "unknown sub-option; expected " + g.expected()}
	}
	if best.kind == optFlag && val != "" {
		return &Error{Group: groupName, Word: p, Reason: best.name + " takes no value"}
	}
	if _, dup := w.val[best.name]; dup {
		if best.kind == optList {
			return &Error{Group: groupName, Word: p, Reason: "give the nodes as one comma-separated list, e.g. 10.0.0.1,10.0.0.2"}
		}
		return &Error{Group: groupName, Word: p, Reason: best.display() + " is given more than once"}
	}
	w.val[best.name] = val
	w.word[best.name] = p
	w.order = append(w.order, best.name)
	return nil
}

// match is g.match, keeping the words as typed for Settings.Typed.
func (s *Settings) match(g *group, groupName string, params []string) (*words, error) {
	w, err := g.match(groupName, params)
	if err != nil {
		return nil, err
	}
	if s.typed == nil {
		s.typed = map[string]string{}
	}
	for name, word := range w.word {
		s.typed[groupName+" "+name] = word
	}
	return w, nil
}

// expected lists the sub-options for an error message.
func (g *group) expected() string {
	var names []string
	for _, o := range g.opts {
		names = append(names, o.display())
	}
	return "one of " + strings.Join(names, " ")
}

// splitInner splits the inside of name(...) on commas into key=value
// pairs, rejecting empty items as the original's OptionMulti does.
func splitInner(groupName, word, inner string) ([]KV, error) {
	var kvs []KV
	if inner == "" {
		return nil, nil
	}
	for _, item := range strings.Split(inner, ",") {
		k, v, ok := strings.Cut(item, "=")
		if !ok || k == "" || v == "" || strings.Contains(v, "=") {
			return nil, &Error{Group: groupName, Word: word, Reason: fmt.Sprintf("%s is not key=value", show(maskWord("", item)))}
		}
		for _, kv := range kvs {
			if strings.EqualFold(kv.Key, k) {
				return nil, &Error{Group: groupName, Word: word, Reason: k + " is given more than once"}
			}
		}
		kvs = append(kvs, KV{k, v})
	}
	return kvs, nil
}
