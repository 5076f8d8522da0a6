// Package reportblock frames a JSON report as a delimited block of lines,
// so that a client with no shared file system (a Kubernetes pod) can hand
// its report back on stdout, and ycsb merge can pick the reports out of
// the clients' logs (kubectl logs, with or without --prefix and
// --timestamps). The report.json=- property writes one; ycsb merge reads
// them.
//
// A block is three lines: Begin, the report as one line of compact JSON,
// End. One line, because a container's stdout and stderr are interleaved
// line by line in its log: a status line written to stderr may fall
// between the block's lines, but never inside the document.
package reportblock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"time"
)

// The delimiters, each alone on its line.
const (
	Begin = "--- ycsb report begin ---"
	End   = "--- ycsb report end ---"
)

// Write writes doc, a JSON document, as a block.
func Write(w io.Writer, doc []byte) error {
	var b bytes.Buffer
	b.WriteString(Begin + "\n")
	if err := json.Compact(&b, doc); err != nil {
		return fmt.Errorf("report block: %w", err)
	}
	b.WriteString("\n" + End + "\n")
	_, err := w.Write(b.Bytes())
	return err
}

// Block is one report found in a log.
type Block struct {
	// Source is the pod and container from kubectl logs --prefix
	// ("pod/ycsb-run-0-x7k2q/ycsb"), or "" when the lines had no prefix.
	Source string
	// Line is the line number of the Begin line, from 1.
	Line int
	Doc  []byte
}

// prefix is kubectl logs --prefix: "[pod/NAME/CONTAINER] ".
var prefix = regexp.MustCompile(`^\[([^\]\s]+)\] `)

// split returns a log line's source and its text without the prefix and
// the kubectl logs --timestamps time.
func split(line []byte) (source string, text []byte) {
	if m := prefix.FindSubmatchIndex(line); m != nil {
		source, line = string(line[m[2]:m[3]]), line[m[1]:]
	}
	if ts, rest, ok := bytes.Cut(line, []byte(" ")); ok && len(ts) >= 20 && len(ts) <= maxTimestamp && ts[4] == '-' {
		if _, err := time.Parse(time.RFC3339Nano, string(ts)); err == nil {
			line = rest
		}
	}
	return source, bytes.TrimRight(line, "\r")
}

// maxTimestamp is the longest kubectl logs --timestamps time (RFC 3339
// with nanoseconds and a zone offset).
const maxTimestamp = len("2006-01-02T15:04:05.999999999-07:00")

// Read returns the blocks in log, in the order their End lines come; their
// documents are slices of log. The lines of several sources may be
// interleaved (kubectl logs -f --prefix); other lines are skipped, read
// where they lie whatever their length (the log's size is its reader's
// cap). A block without its End, or with no document or two, is an error
// naming its Begin line.
func Read(log []byte) ([]Block, error) {
	open := map[string]*Block{}
	var out []Block
	n := 0
	for line := range bytes.Lines(log) {
		n++
		src, text := split(bytes.TrimSuffix(line, []byte("\n")))
		b := open[src]
		switch {
		case string(text) == Begin:
			if b != nil {
				return nil, fmt.Errorf("line %d: a report block begins before the one at line %d ends%s", n, b.Line, from(src))
			}
			open[src] = &Block{Source: src, Line: n}
		case b == nil:
		case string(text) == End:
			if b.Doc == nil {
				return nil, fmt.Errorf("line %d: the report block%s has no report", b.Line, from(src))
			}
			out = append(out, *b)
			delete(open, src)
		case bytes.HasPrefix(text, []byte("{")):
			if b.Doc != nil {
				return nil, fmt.Errorf("line %d: the report block%s has two reports", b.Line, from(src))
			}
			b.Doc = text
		}
		// Any other line inside a block is the client's stderr, interleaved.
	}
	var first *Block
	for _, b := range open {
		if first == nil || b.Line < first.Line {
			first = b
		}
	}
	if first != nil {
		return nil, fmt.Errorf("line %d: the report block%s is truncated (no %q line)", first.Line, from(first.Source), End)
	}
	return out, nil
}

func from(src string) string {
	if src == "" {
		return ""
	}
	return " of " + src
}
