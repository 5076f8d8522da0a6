package export

import (
	"bufio"
	"io"
	"math"
)

// jsonExporter is JSONMeasurementsExporter and JSONArrayMeasurementsExporter:
// each row is an object {"metric", "measurement", "value"} laid out by
// Jackson 1.9's DefaultPrettyPrinter:
//
//	{
//	  "metric" : "OVERALL",
//	  "measurement" : "RunTime(ms)",
//	  "value" : 2471
//	}
//
// The json form puts one space between objects, so its output is a stream of
// JSON texts, not one document; jsonarray wraps them as "[ {…}, {…} ]", or
// "[ ]" when empty. Neither ends with a newline, as in Java.
//
// Like Jackson with its defaults, NaN and infinities become the strings
// "NaN", "Infinity" and "-Infinity", strings escape only '"', '\\' and
// control characters (as \b \t \n \f \r or \u00XX with upper-case hex), and
// other bytes, UTF-8 included, are copied unchanged.
type jsonExporter struct {
	bw      *bufio.Writer
	array   bool
	n       int // objects written
	scratch []byte
	closed  bool
	err     error // from Close, returned again by later calls
}

func newJSON(w io.Writer) Exporter {
	return &jsonExporter{bw: bufio.NewWriterSize(w, 8192)}
}

func newJSONArray(w io.Writer) Exporter {
	e := &jsonExporter{bw: bufio.NewWriterSize(w, 8192), array: true}
	// Java writes the '[' in the constructor, to its buffer; so do we.
	e.bw.WriteByte('[')
	return e
}

func (e *jsonExporter) Write(r Row) error {
	if e.closed {
		return errClosed
	}
	b := e.scratch[:0]
	switch {
	case e.array && e.n == 0:
		b = append(b, ' ') // beforeArrayValues
	case e.array:
		b = append(b, ", "...) // writeArrayValueSeparator
	case e.n > 0:
		b = append(b, ' ') // writeRootValueSeparator
	}
	b = append(b, "{\n  \"metric\" : "...)
	b = appendJSONString(b, r.Metric)
	b = append(b, ",\n  \"measurement\" : "...)
	b = appendJSONString(b, r.Name)
	b = append(b, ",\n  \"value\" : "...)
	v := r.Value
	if v.IsText {
		b = appendJSONString(b, v.Text)
	} else if v.Float && (math.IsNaN(v.F) || math.IsInf(v.F, 0)) {
		b = append(b, '"') // QUOTE_NON_NUMERIC_NUMBERS; the text needs no escaping
		b = v.append(b)
		b = append(b, '"')
	} else {
		b = v.append(b)
	}
	b = append(b, "\n}"...)
	e.scratch = b
	e.n++
	_, err := e.bw.Write(b)
	return err
}

func (e *jsonExporter) Close() error {
	if e.closed {
		return e.err
	}
	e.closed = true
	if e.array {
		e.bw.WriteString(" ]") // writeEndArray: one space whether empty or not
	}
	e.err = e.bw.Flush()
	return e.err
}

// appendJSONString appends s quoted the way Jackson 1.9's generator does.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\f':
			b = append(b, '\\', 'f')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
