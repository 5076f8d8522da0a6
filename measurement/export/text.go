package export

import (
	"bufio"
	"io"
)

// text is TextMeasurementsExporter: one line "[<metric>], <measurement>,
// <value>" per row. Like Java's BufferedWriter it writes when its buffer
// fills and at Close, so a short report reaches w in one write at the end.
type text struct {
	bw      *bufio.Writer
	scratch []byte
	closed  bool
	err     error // from Close, returned again by later calls
}

func newText(w io.Writer) Exporter {
	return &text{bw: bufio.NewWriterSize(w, 8192)}
}

func (e *text) Write(r Row) error {
	if e.closed {
		return errClosed
	}
	b := append(e.scratch[:0], '[')
	b = append(b, r.Metric...)
	b = append(b, "], "...)
	b = append(b, r.Name...)
	b = append(b, ", "...)
	b = r.Value.append(b)
	b = append(b, '\n')
	e.scratch = b
	_, err := e.bw.Write(b)
	return err
}

func (e *text) Close() error {
	if e.closed {
		return e.err
	}
	e.closed = true
	e.err = e.bw.Flush()
	return e.err
}
