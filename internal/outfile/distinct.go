package outfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Output is one output file of a command, for Distinct.
type Output struct {
	// Name is the output as the user gave it, for messages:
	// "report.json=./x.json", "-o x.json", "-log file=x.log".
	Name string
	Path string // "" for an output not asked for
	// Suffix, when set, makes Path a prefix: the output is the files
	// Path<NAME>Suffix (hdrhistogram.output.path's <NAME>.hdr logs).
	Suffix string
}

// Distinct refuses, before anything is written, two outputs of one
// command that name one file, so that no output is lost under another:
// by the same name, through symbolic links (of the file or of its
// directories, also for a file not yet there) or hard links, or as one of
// a prefix's files. A device, a FIFO or one of the process's descriptors
// may be named by several: what is written there is not replaced. The
// error names both outputs.
func Distinct(outs []Output) error {
	type seen struct {
		out   Output
		where place
	}
	var prev []seen
	for _, o := range outs {
		if o.Path == "" {
			continue
		}
		w, ok := placeOf(o)
		if !ok {
			continue // written through
		}
		for _, p := range prev {
			switch {
			case p.out.Suffix != "" && o.Suffix != "":
				if p.where.dir == w.dir && (strings.HasPrefix(p.where.base, w.base) || strings.HasPrefix(w.base, p.where.base)) && p.out.Suffix == o.Suffix {
					return &SharedError{fmt.Sprintf("%s: its files may be those of %s; give each output a file of its own", o.Name, p.out.Name)}
				}
			case p.out.Suffix != "":
				if w.under(p.where, p.out.Suffix) {
					return underPrefix(o, p.out)
				}
			case o.Suffix != "":
				if p.where.under(w, o.Suffix) {
					return underPrefix(p.out, o)
				}
			case w.same(p.where):
				return &SharedError{fmt.Sprintf("%s: the same file as %s; give each output a file of its own", o.Name, p.out.Name)}
			}
		}
		prev = append(prev, seen{o, w})
	}
	return nil
}

func underPrefix(file, prefix Output) error {
	return &SharedError{fmt.Sprintf("%s: may be one of the files of %s (%s<NAME>%s); give each output a file of its own", file.Name, prefix.Name, prefix.Path, prefix.Suffix)}
}

// SharedError is Distinct's error: bad input, on which a command exits
// with code 2.
type SharedError struct{ msg string }

func (e *SharedError) Error() string { return e.msg }

// BadInput marks the error as the user's input (props.IsBadInput).
func (e *SharedError) BadInput() {}

// place is where an output's file is: its directory with every link
// resolved, and its name there (a prefix's part of a name).
type place struct {
	dir, base string
	info      os.FileInfo // the file, when it exists
}

// placeOf resolves o's path as Write would write it; false for an output
// written through (a device, a FIFO, a descriptor), or one whose place
// cannot be found (Check refuses those).
func placeOf(o Output) (place, bool) {
	path := o.Path
	if o.Suffix != "" {
		// The prefix's directory is that of any of its files.
		path += "X"
	}
	t, err := resolve(path)
	if err != nil || t.fd >= 0 || t.info != nil && !t.info.Mode().IsRegular() {
		return place{}, false
	}
	dir, base := filepath.Split(t.path)
	if dir == "" {
		dir = "."
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	if d, err := filepath.Abs(dir); err == nil {
		dir = d
	}
	p := place{dir: dir, base: base}
	if o.Suffix != "" {
		p.base = strings.TrimSuffix(base, "X")
	} else if t.info != nil {
		p.info = t.info
	}
	return p, true
}

// same says whether two outputs' places are one file.
func (p place) same(q place) bool {
	if p.dir == q.dir && p.base == q.base {
		return true
	}
	return p.info != nil && q.info != nil && os.SameFile(p.info, q.info)
}

// under says whether p may be one of the files prefix<NAME>suffix.
func (p place) under(prefix place, suffix string) bool {
	return p.dir == prefix.dir && strings.HasPrefix(p.base, prefix.base) && strings.HasSuffix(p.base, suffix)
}
