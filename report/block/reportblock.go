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
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
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
func split(line string) (source, text string) {
	if m := prefix.FindStringSubmatch(line); m != nil {
		source, line = m[1], line[len(m[0]):]
	}
	if ts, rest, ok := strings.Cut(line, " "); ok && len(ts) >= 20 && ts[4] == '-' {
		if _, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			line = rest
		}
	}
	return source, strings.TrimRight(line, "\r")
}

// maxLine bounds one line: a report with many measurements and wide
// histograms is a few MB at most.
const maxLine = 256 << 20

// Read returns the blocks in r, in the order their End lines come. The
// lines of several sources may be interleaved (kubectl logs -f --prefix);
// other lines are skipped. A block without its End, or with no document
// or two, is an error naming its Begin line.
func Read(r io.Reader) ([]Block, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	open := map[string]*Block{}
	var out []Block
	n := 0
	for sc.Scan() {
		n++
		src, text := split(sc.Text())
		b := open[src]
		switch {
		case text == Begin:
			if b != nil {
				return nil, fmt.Errorf("line %d: a report block begins before the one at line %d ends%s", n, b.Line, from(src))
			}
			open[src] = &Block{Source: src, Line: n}
		case b == nil:
		case text == End:
			if b.Doc == nil {
				return nil, fmt.Errorf("line %d: the report block%s has no report", b.Line, from(src))
			}
			out = append(out, *b)
			delete(open, src)
		case strings.HasPrefix(text, "{"):
			if b.Doc != nil {
				return nil, fmt.Errorf("line %d: the report block%s has two reports", b.Line, from(src))
			}
			b.Doc = []byte(text)
		}
		// Any other line inside a block is the client's stderr, interleaved.
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", n+1, err)
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
