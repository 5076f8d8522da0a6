package cqlwire

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Every count in a response is the server's: a body must not make the
// parsers panic, spin or allocate beyond what its length supports.

// rowsSeeds are RESULT bodies as a node sends them.
func rowsSeeds() [][]byte {
	cols := []string{"k", "v"}
	one := [][][]byte{{[]byte("key"), []byte("value")}}
	huge := appendInt(nil, resultRows)
	huge = appendMetadata(huge, 0x0001, []string{"k"})
	huge = appendInt(huge, math.MaxInt32) // rows, and one short value
	huge = append(huge, 0, 0, 0, 1, 'x')
	return [][]byte{
		appendRows(nil, 0x0001, cols, one),
		appendRows(nil, 0x0004, cols, one),
		appendRows(nil, 0x0001, cols, [][][]byte{{nil, []byte{}}, {[]byte("a"), nil}}),
		appendRows(nil, 0x0001, nil, nil),
		appendRows(nil, 0x0004, nil, make([][][]byte, 3)),
		// Paging state, then per-column table specs and nested types.
		append(appendInt(appendInt(appendInt(appendInt(nil, resultRows), 0x0002), 1), 3), "abc\x00\x01k\x00\x01t\x00\x01c\x00\x21\x00\x0d\x00\x20\x00\x09\x00\x00\x00\x01\x00\x00\x00\x02\xff\xff"...),
		huge,
		appendInt(nil, resultVoid),
		appendInt(nil, resultPrepared),
	}
}

func FuzzRows(f *testing.F) {
	for _, b := range rowsSeeds() {
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Fuzz(func(t *testing.T, body []byte, prep bool) {
		call := &Call{body: body}
		st := &Stmt{}
		if prep {
			st.prep = &prepared{cols: []string{"k", "v"}}
		}
		calls := 0
		_, err := call.Rows(st, func(cols []string, vals [][]byte) bool {
			calls++
			if len(cols) != len(vals) {
				t.Fatalf("%d columns, %d values", len(cols), len(vals))
			}
			// A row takes four bytes a value at least: more rows than
			// that is a count the body does not hold.
			if calls > len(body)/4 {
				t.Fatalf("%d rows from a body of %d bytes (error so far: none)", calls, len(body))
			}
			return true
		}, nil)
		_ = err
	})
}

// Counts the body cannot hold end in an error, at once.
func TestRowsHostileCounts(t *testing.T) {
	zeroCols := appendInt(nil, resultRows)
	zeroCols = appendMetadata(zeroCols, 0x0001, nil)
	zeroCols = appendInt(zeroCols, math.MaxInt32)
	bigCols := appendInt(appendInt(appendInt(nil, resultRows), 0x0001), 65535)
	for _, tc := range []struct {
		name string
		body []byte
	}{
		{"rows count, one short value", rowsSeeds()[6]},
		{"rows count, no columns", zeroCols},
		{"rows count negative", appendInt(appendMetadata(appendInt(nil, resultRows), 0x0001, []string{"k"}), -5)},
		{"columns count, short metadata", bigCols},
		{"columns count negative", appendInt(appendInt(appendInt(nil, resultRows), 0x0001), -1)},
		{"truncated", rowsSeeds()[0][:20]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			calls := 0
			_, err := (&Call{body: tc.body}).Rows(&Stmt{}, func([]string, [][]byte) bool {
				calls++
				return calls < 1000 // the test's own bound: the parser should have none to reach
			}, nil)
			if err == nil {
				t.Errorf("no error (%d rows)", calls)
			}
			if calls > 1 {
				t.Errorf("%d rows given from a %d-byte body", calls, len(tc.body))
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func FuzzParseError(f *testing.F) {
	f.Add(appendString(appendInt(nil, 0x0100), "Provided username user and/or password are incorrect"))
	f.Add(append(appendShort(appendString(appendInt(nil, errUnprepared), "Prepared query with ID not found"), 3), "abc"...))
	f.Add(appendShort(appendString(appendInt(nil, errUnprepared), "no id"), 0xffff))
	f.Add(appendString(appendInt(nil, 0x1001), "Operation timed out")[:7])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		err := parseError(body)
		var se *ServerError
		if !errors.As(err, &se) {
			if !errors.Is(err, errShort) {
				t.Fatalf("error %v: neither a ServerError nor malformed", err)
			}
			return
		}
		// What was read is the body's beginning.
		b := appendString(appendInt(nil, int32(se.Code())), se.Message())
		if se.Code() == errUnprepared {
			b = append(appendShort(b, uint16(len(se.id))), se.id...)
		}
		if !bytes.HasPrefix(body, b) {
			t.Fatalf("parsed %x from %x", b, body)
		}
		if !strings.Contains(se.Error(), se.Message()) {
			t.Fatalf("Error() %q drops the message", se.Error())
		}
	})
}

func FuzzSkipPrefix(f *testing.F) {
	msg := appendInt(nil, resultVoid)
	warn := append(appendString(appendString(appendShort(nil, 2), "w1"), "warning two"), msg...)
	trace := append(bytes.Repeat([]byte{7}, 16), warn...)
	payload := append(appendShort(appendString(appendShort(nil, 1), "key"), 0), 0, 0, 3, 'v', 'a', 'l')
	f.Add(byte(0), msg)
	f.Add(byte(flagWarning), warn)
	f.Add(byte(flagTracing|flagWarning), trace)
	f.Add(byte(flagPayload), append(payload, msg...))
	f.Add(byte(flagWarning), appendShort(nil, 0xffff))
	f.Fuzz(func(t *testing.T, flags byte, body []byte) {
		rest, err := skipPrefix(flags, body)
		if err != nil {
			return
		}
		if !bytes.HasSuffix(body, rest) || len(rest) > len(body) {
			t.Fatalf("rest %x is not the end of %x", rest, body)
		}
		if flags&(flagTracing|flagWarning|flagPayload) == 0 && len(rest) != len(body) {
			t.Fatalf("no prefix flags, yet %d bytes dropped", len(body)-len(rest))
		}
	})
}

// FuzzMetadata reads a metadata (flags, count, columns) as the PREPARE and
// Rows results have it, column types nested to any depth.
func FuzzMetadata(f *testing.F) {
	for _, b := range rowsSeeds() {
		f.Add(b[4:])
	}
	f.Add(append(appendInt(appendInt(nil, 0x0001), 1), "\x00\x01k\x00\x01t\x00\x01c\x00\x30\x00\x02ks\x00\x03udt\x00\x02\x00\x01a\x00\x31\x00\x02\x00\x01\x00\x22\x00\x0d\x00\x01b\x00\x00\x00\x03x.Y"...))
	deep := append(appendInt(appendInt(nil, 0x0001), 1), "\x00\x01k\x00\x01t\x00\x01c"...)
	for range 100 {
		deep = appendShort(deep, 0x0020)
	}
	f.Add(deep)
	f.Fuzz(func(t *testing.T, body []byte) {
		r := reader{b: body}
		flags := r.int()
		n := r.int()
		names := 0
		skipColumns(&r, flags, int(n), func([]byte) { names++ })
		// A column takes four bytes at least (a name and a type id).
		if names > len(body)/4 {
			t.Fatalf("%d columns from %d bytes", names, len(body))
		}
		if r.err == nil && len(r.b) > len(body) {
			t.Fatal("read past the body")
		}
		// A type alone.
		r = reader{b: body}
		r.option(0)
		if r.err == nil && len(body)-len(r.b) < 2 {
			t.Fatalf("a type read from %d bytes", len(body)-len(r.b))
		}
	})
}

// FuzzPrepared gives arbitrary PREPARE results to conn.prepare, through
// the fake server: an error, never a panic, and the connection serves on.
func FuzzPrepared(f *testing.F) {
	var seeds fakeServer
	seeds.Cols = []string{"k", "v"}
	seeds.prepared = map[string]bool{}
	valid := seeds.preparedResult(selectCQL)
	f.Add(valid)
	f.Add(seeds.preparedResult("INSERT INTO t (k) VALUES (?)"))
	f.Add(seeds.preparedResult(selectCQL)[:30])
	var mu sync.Mutex
	var cur []byte
	s := newFakeServer(f, "127.0.0.1:0")
	s.OnPrepare = func(string) []byte {
		mu.Lock()
		defer mu.Unlock()
		return cur
	}
	s.start()
	p := NewPool(testOptions())
	f.Cleanup(p.Close)
	h := p.Host(s.Addr, s.Addr)
	call := NewCall()
	f.Fuzz(func(t *testing.T, body []byte) {
		mu.Lock()
		cur = body
		mu.Unlock()
		c, err := h.conn(context.Background(), call)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := c.prepare(context.Background(), call, selectCQL)
		if c.dead.Load() {
			t.Fatalf("connection broken by a PREPARE result: %v", c.err)
		}
		if bytes.Equal(body, valid) && (err != nil || !slices.Equal(pr.cols, []string{"k", "v"}) || !bytes.Equal(pr.id, idFor(selectCQL))) {
			t.Fatalf("a node's PREPARE result: %+v, %v", pr, err)
		}
		if err == nil && len(pr.cols) > len(body)/4 {
			t.Fatalf("%d columns from %d bytes", len(pr.cols), len(body))
		}
	})
}
