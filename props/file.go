package props

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/goycsb/ycsb/internal/infile"
)

// MaxFileSize bounds a -P file. Workload files are a few kilobytes; the
// bound keeps -P /dev/zero or a mistaken data file from filling memory.
const MaxFileSize = infile.MaxText

// LoadFileText reads one -P file: a regular file or a pipe (such as
// -P <(printf 'recordcount=5\n')), at most MaxFileSize bytes of text. A
// named pipe that waits for its writer waits only until ctx ends. It also
// returns the file's text, for a caller that passes the file on (ycsb kube
// puts it in a ConfigMap): a pipe can be read only once.
func LoadFileText(ctx context.Context, path string) (*Properties, []byte, error) {
	text, err := infile.Read(ctx, path, MaxFileSize)
	if err != nil {
		var ie *infile.Error
		if !errors.As(err, &ie) {
			return nil, nil, err
		}
		if errors.Is(err, infile.ErrTooLarge) {
			err = fmt.Errorf("larger than %d MiB: not a workload file", MaxFileSize>>20)
		} else {
			err = ie.Err
		}
		return nil, nil, &Error{Name: path, Err: fmt.Errorf("cannot read properties file: %w", err)}
	}
	p, err := Parse(path, text)
	return p, text, err
}

// checkText refuses what cannot be a properties file: binary data (NUL and
// other control bytes) and lines that are neither UTF-8 nor ISO-8859-1 text.
// java.util.Properties files are ISO-8859-1, in which every byte is a
// character, so a line that is not UTF-8 is accepted as ISO-8859-1 when it
// holds no C1 control characters (0x80-0x9f) and is a comment, a name=value
// or name:value line, or the continuation of the line before. Tab, form
// feed, CR and LF are the only control bytes allowed (the syntax's white
// space and line ends); Parse drops a DOS end-of-file mark (0x1a) first.
func checkText(text []byte) error {
	continued := false
	for n := 1; len(text) > 0; n++ {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		for _, c := range line {
			if c < 0x20 && c != '\t' && c != '\f' && c != '\r' || c == 0x7f {
				if c == 0 {
					return fmt.Errorf("line %d: NUL byte (binary data?)", n)
				}
				return fmt.Errorf("line %d: control byte 0x%02x (binary data?)", n, c)
			}
		}
		comment := !continued && isComment(line)
		if !utf8.Valid(line) && !latin1(line, comment || continued) {
			return fmt.Errorf("line %d is neither UTF-8 nor ISO-8859-1 text (binary data?)", n)
		}
		continued = !comment && endsInBackslash(line)
	}
	return nil
}

// isComment reports whether line is a comment: # or ! after white space.
func isComment(line []byte) bool {
	t := bytes.TrimLeft(line, " \t\f")
	return len(t) > 0 && (t[0] == '#' || t[0] == '!')
}

// latin1 reports whether line reads as ISO-8859-1 text: no C1 controls and,
// unless it is a comment or a continuation, a = or : separator.
func latin1(line []byte, free bool) bool {
	for _, c := range line {
		if c >= 0x80 && c < 0xa0 {
			return false
		}
	}
	return free || bytes.ContainsAny(line, "=:")
}

// endsInBackslash reports whether line ends in an odd number of backslashes,
// which continues it on the next line.
func endsInBackslash(line []byte) bool {
	n := len(line) - len(bytes.TrimRight(line, "\\"))
	return n%2 == 1
}
