// Package cqlwire is a lean request path for prepared statements over the
// CQL native protocol v4 (doc/native_protocol_v4.spec of Apache
// Cassandra): pipelined connections that each serve many requests at once,
// a reader goroutine per connection that hands each response to the
// goroutine waiting for it, frames queued behind a write in progress sent
// together in one system call, and nothing allocated per request. The
// driver (gocql) keeps the rest: the cluster's metadata, the routing, the
// schema statements. Connection set-up here takes the driver's
// authenticators and compressors, so both paths agree on them.
package cqlwire

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Protocol v4 opcodes (section 2.4 of the specification).
const (
	opError         = 0x00
	opStartup       = 0x01
	opReady         = 0x02
	opAuthenticate  = 0x03
	opQuery         = 0x07
	opResult        = 0x08
	opPrepare       = 0x09
	opExecute       = 0x0A
	opAuthChallenge = 0x0E
	opAuthResponse  = 0x0F
	opAuthSuccess   = 0x10
)

const (
	version      = 0x04
	headerSize   = 9
	flagCompress = 0x01
	flagTracing  = 0x02
	flagPayload  = 0x04
	flagWarning  = 0x08

	// maxFrame is the protocol's limit on a frame body (256 MiB).
	maxFrame = 256 << 20
	// maxStreams is the streams of a v4 connection.
	maxStreams = 32768

	resultVoid     = 1
	resultRows     = 2
	resultKeyspace = 3
	resultPrepared = 4
	resultSchema   = 5

	errUnprepared = 0x2500
)

// Consistency levels, as the protocol numbers them.
type Consistency uint16

// ServerError is an ERROR response. It has the methods of the driver's
// RequestError, so that code written for the driver's errors reads it.
type ServerError struct {
	code int
	msg  string
	id   []byte // the statement of an Unprepared error
}

func (e *ServerError) Code() int       { return e.code }
func (e *ServerError) Message() string { return e.msg }

// Error is the server's message, as the driver gives it.
func (e *ServerError) Error() string { return e.msg }

var errShort = errors.New("cqlwire: frame body too short")

// reader reads a frame body.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errShort
	}
	r.b = nil
}

func (r *reader) int() int32 {
	if len(r.b) < 4 {
		r.fail()
		return 0
	}
	v := int32(binary.BigEndian.Uint32(r.b))
	r.b = r.b[4:]
	return v
}

func (r *reader) short() uint16 {
	if len(r.b) < 2 {
		r.fail()
		return 0
	}
	v := binary.BigEndian.Uint16(r.b)
	r.b = r.b[2:]
	return v
}

func (r *reader) take(n int) []byte {
	if n < 0 || len(r.b) < n {
		r.fail()
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// string is a [string]: a short length and UTF-8 bytes.
func (r *reader) string() []byte { return r.take(int(r.short())) }

// shortBytes is [short bytes].
func (r *reader) shortBytes() []byte { return r.take(int(r.short())) }

// bytes is [bytes]: nil for a negative length (null).
func (r *reader) bytes() []byte {
	n := r.int()
	if n < 0 {
		return nil
	}
	return r.take(int(n))
}

// stringList skips a [string list].
func (r *reader) stringList() {
	for n := r.short(); n > 0 && r.err == nil; n-- {
		r.string()
	}
}

// option skips an [option], a column type, with what it nests.
func (r *reader) option(depth int) {
	if depth > 64 {
		r.err = errors.New("cqlwire: column type nested too deep")
		return
	}
	switch id := r.short(); id {
	case 0x0000: // custom
		r.string()
	case 0x0020, 0x0022: // list, set
		r.option(depth + 1)
	case 0x0021: // map
		r.option(depth + 1)
		r.option(depth + 1)
	case 0x0030: // UDT
		r.string()
		r.string()
		for n := r.short(); n > 0 && r.err == nil; n-- {
			r.string()
			r.option(depth + 1)
		}
	case 0x0031: // tuple
		for n := r.short(); n > 0 && r.err == nil; n-- {
			r.option(depth + 1)
		}
	}
}

// parseError reads an ERROR body.
func parseError(body []byte) error {
	r := reader{b: body}
	code := int(r.int())
	msg := string(r.string())
	e := &ServerError{code: code, msg: msg}
	if code == errUnprepared {
		e.id = append([]byte(nil), r.shortBytes()...)
	}
	if r.err != nil {
		return fmt.Errorf("cqlwire: malformed error response: %w", r.err)
	}
	return e
}

// skipPrefix drops what the header's flags put before the message: a
// tracing id, warnings, a custom payload.
func skipPrefix(flags byte, body []byte) ([]byte, error) {
	r := reader{b: body}
	if flags&flagTracing != 0 {
		r.take(16)
	}
	if flags&flagWarning != 0 {
		r.stringList()
	}
	if flags&flagPayload != 0 {
		for n := r.short(); n > 0 && r.err == nil; n-- {
			r.string()
			r.bytes()
		}
	}
	return r.b, r.err
}

func appendShort(b []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(b, v) }
func appendInt(b []byte, v int32) []byte    { return binary.BigEndian.AppendUint32(b, uint32(v)) }

func appendString(b []byte, s string) []byte {
	b = appendShort(b, uint16(len(s)))
	return append(b, s...)
}

func appendLongString(b []byte, s string) []byte {
	b = appendInt(b, int32(len(s)))
	return append(b, s...)
}

// appendHeader starts a request frame; its length is set by finish.
func appendHeader(b []byte, stream int16, op byte) []byte {
	return append(b, version, 0, byte(uint16(stream)>>8), byte(stream), op, 0, 0, 0, 0)
}
