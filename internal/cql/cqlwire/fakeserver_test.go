package cqlwire

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/cql/cqlcompress"
)

// fakeServer speaks enough of the CQL native protocol v4 for the request
// path: STARTUP (with lz4), PasswordAuthenticator, USE, PREPARE, EXECUTE.
// A statement starting with INSERT prepares without result columns. An
// EXECUTE returns by default one row echoing the first bound value; Rows
// returning nil makes a void result.
type fakeServer struct {
	t    testing.TB
	ln   net.Listener
	Addr string

	// Knobs, set before the first connection.
	Auth       bool // ask for user/pass
	Warn       bool // put a warning before each RESULT
	NoMetadata bool // rows without column specifications
	Unprepared int  // answer UNPREPARED to the first Unprepared EXECUTEs of each id
	Shuffle    bool // answer EXECUTEs after a random short delay, so out of order
	Cols       []string
	// Rows gives the rows of an EXECUTE whose first value is key.
	Rows func(key []byte) [][][]byte
	// OnPrepare, when set, gives the RESULT body of a PREPARE.
	OnPrepare func(cql string) []byte
	// OnExecute, when set, sees every EXECUTE first; true means it answered
	// (or chose never to).
	OnExecute func(c *srvConn, stream int16, key []byte) bool

	Prepares atomic.Int32
	Executes atomic.Int32
	SkipMeta atomic.Int32 // EXECUTEs that asked for rows without metadata
	// Statements are the texts of the QUERYs other than USE, which are
	// answered as an EXECUTE of their first value.
	Statements []string
	Accepted   atomic.Int32
	Compressed atomic.Int32 // request frames that came compressed
	CompOut    atomic.Int32 // response frames sent compressed
	OutOfOrder atomic.Int32 // responses written before an older request's

	mu       sync.Mutex
	conns    []*srvConn
	queries  []string
	unprep   map[string]int  // UNPREPARED answers by id
	prepared map[string]bool // ids this server knows
	wg       sync.WaitGroup
}

type srvConn struct {
	s       *fakeServer
	nc      net.Conn
	comp    bool // lz4 negotiated
	wmu     sync.Mutex
	pending map[int16]int // stream → arrival order, for OutOfOrder
	seq     int
}

// newFakeServer listens on addr ("127.0.0.1:0" for any port).
func newFakeServer(t testing.TB, addr string) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeServer{t: t, ln: ln, Addr: ln.Addr().String(), Cols: []string{"k", "v"},
		unprep: map[string]int{}, prepared: map[string]bool{}}
	t.Cleanup(s.Stop)
	return s
}

func (s *fakeServer) start() *fakeServer {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			nc, err := s.ln.Accept()
			if err != nil {
				return
			}
			s.Accepted.Add(1)
			c := &srvConn{s: s, nc: nc, pending: map[int16]int{}}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				c.serve()
			}()
		}
	}()
	return s
}

// Queries are the QUERY statements received.
func (s *fakeServer) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.queries...)
}

// CloseConns drops every connection, keeping the listener.
func (s *fakeServer) CloseConns() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.nc.Close()
	}
	s.conns = nil
}

// Stop closes the listener and the connections and waits for them.
func (s *fakeServer) Stop() {
	s.ln.Close()
	s.CloseConns()
	s.wg.Wait()
}

func (c *srvConn) serve() {
	defer c.nc.Close()
	var h [headerSize]byte
	for {
		if _, err := io.ReadFull(c.nc, h[:]); err != nil {
			return
		}
		body := make([]byte, binary.BigEndian.Uint32(h[5:]))
		if _, err := io.ReadFull(c.nc, body); err != nil {
			return
		}
		if h[0] != version {
			c.s.t.Errorf("fake server: request version 0x%02x", h[0])
			return
		}
		if h[1]&flagCompress != 0 {
			c.s.Compressed.Add(1)
			var err error
			if body, err = (cqlcompress.LZ4{}).AppendDecompressedWithLength(nil, body); err != nil {
				c.s.t.Errorf("fake server: decompress: %v", err)
				return
			}
		}
		stream := int16(binary.BigEndian.Uint16(h[2:]))
		r := reader{b: body}
		switch h[4] {
		case opStartup:
			for n := r.short(); n > 0; n-- {
				k, v := string(r.string()), string(r.string())
				if k == "COMPRESSION" && v == "lz4" {
					c.comp = true
				}
			}
			if c.s.Auth {
				// The handshake's answers go uncompressed, as a node's do.
				c.write(stream, opAuthenticate, appendString(nil, "org.apache.cassandra.auth.PasswordAuthenticator"), false)
			} else {
				c.write(stream, opReady, nil, false)
			}
		case opAuthResponse:
			if tok := r.bytes(); string(tok) == "\x00user\x00pass" {
				c.write(stream, opAuthSuccess, appendInt(nil, -1), c.comp)
			} else {
				c.writeError(stream, 0x0100, "Provided username user and/or password are incorrect")
			}
		case opQuery:
			q := string(r.take(int(r.int())))
			c.s.mu.Lock()
			use := strings.HasPrefix(q, "USE ")
			if use {
				c.s.queries = append(c.s.queries, q)
			} else {
				c.s.Statements = append(c.s.Statements, q)
			}
			c.s.mu.Unlock()
			if use {
				c.write(stream, opResult, appendShort(appendInt(nil, resultKeyspace), 0), c.comp)
				break
			}
			r.short() // consistency
			var key []byte
			if f := r.take(1); len(f) == 1 && f[0]&0x01 != 0 && r.short() > 0 {
				key = r.bytes()
			}
			c.Result(stream, c.s.rowsFor(nil, key, false))
		case opPrepare:
			c.s.Prepares.Add(1)
			cql := string(r.take(int(r.int())))
			if c.s.OnPrepare != nil {
				c.write(stream, opResult, c.s.OnPrepare(cql), c.comp)
			} else {
				c.write(stream, opResult, c.s.preparedResult(cql), c.comp)
			}
		case opExecute:
			c.s.Executes.Add(1)
			c.execute(stream, &r)
		default:
			c.writeError(stream, 0x000A, "unexpected opcode")
		}
	}
}

// idFor is a statement's id: its text's hash, as a node's, so that a
// restarted server answers the same id for the same text.
func idFor(cql string) []byte {
	sum := sha256.Sum256([]byte(cql))
	return append([]byte{byte(len(cql))}, sum[:8]...)
}

func (s *fakeServer) preparedResult(cql string) []byte {
	id := idFor(cql)
	s.mu.Lock()
	s.prepared[string(id)] = true
	s.mu.Unlock()
	b := appendInt(nil, resultPrepared)
	b = appendShort(b, uint16(len(id)))
	b = append(b, id...)
	// Bound variables: one varchar, the partition key.
	b = appendInt(b, 0x0001)
	b = appendInt(b, 1)
	b = appendInt(b, 1)
	b = appendShort(b, 0)
	b = appendString(appendString(b, "ks"), "t")
	b = appendShort(appendString(b, "k"), 0x000D)
	// Result columns.
	cols := s.Cols
	if strings.HasPrefix(cql, "INSERT") {
		cols = nil
	}
	return appendMetadata(b, 0x0001, cols)
}

// appendMetadata appends a metadata of varchar columns, with a global
// table spec unless flags say no metadata.
func appendMetadata(b []byte, flags int32, cols []string) []byte {
	b = appendInt(b, flags)
	b = appendInt(b, int32(len(cols)))
	if flags&0x0004 != 0 {
		return b
	}
	b = appendString(appendString(b, "ks"), "t")
	for _, col := range cols {
		b = appendShort(appendString(b, col), 0x000D)
	}
	return b
}

// appendRows appends a RESULT Rows body.
func appendRows(b []byte, flags int32, cols []string, rows [][][]byte) []byte {
	b = appendInt(b, resultRows)
	b = appendMetadata(b, flags, cols)
	b = appendInt(b, int32(len(rows)))
	for _, row := range rows {
		for _, v := range row {
			if v == nil {
				b = appendInt(b, -1)
				continue
			}
			b = appendInt(b, int32(len(v)))
			b = append(b, v...)
		}
	}
	return b
}

func (c *srvConn) execute(stream int16, r *reader) {
	id := r.shortBytes()
	r.short() // consistency
	var key []byte
	f := r.take(1)
	skip := len(f) == 1 && f[0]&0x02 != 0
	if skip {
		c.s.SkipMeta.Add(1)
	}
	if len(f) == 1 && f[0]&0x01 != 0 && r.short() > 0 {
		key = r.bytes()
	}
	if r.err != nil {
		c.s.t.Errorf("fake server: malformed EXECUTE: %v", r.err)
	}
	s := c.s
	s.mu.Lock()
	known := s.prepared[string(id)]
	unprep := known && s.unprep[string(id)] < s.Unprepared
	if unprep {
		s.unprep[string(id)]++
	}
	s.mu.Unlock()
	if !known || unprep {
		b := appendInt(nil, errUnprepared)
		b = appendString(b, "Prepared query with ID not found")
		b = appendShort(b, uint16(len(id)))
		c.write(stream, opError, append(b, id...), c.comp)
		return
	}
	c.wmu.Lock()
	c.pending[stream] = c.seq
	c.seq++
	c.wmu.Unlock()
	if s.OnExecute != nil && s.OnExecute(c, stream, key) {
		return
	}
	if s.Shuffle {
		go func() {
			time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
			c.answer(stream, id, key, skip)
		}()
		return
	}
	c.answer(stream, id, key, skip)
}

// answer writes the result of an EXECUTE of key.
func (c *srvConn) answer(stream int16, id, key []byte, skipMeta bool) {
	c.Result(stream, c.s.rowsFor(id, key, skipMeta))
}

// rowsFor is the RESULT body for key, without metadata when asked; nil
// rows mean void.
func (s *fakeServer) rowsFor(id, key []byte, skipMeta bool) []byte {
	if s.Rows == nil {
		return appendRows(nil, s.rowsFlags(skipMeta), s.Cols, [][][]byte{{key, append([]byte("v:"), key...)}})
	}
	rows := s.Rows(key)
	if rows == nil {
		return appendInt(nil, resultVoid)
	}
	return appendRows(nil, s.rowsFlags(skipMeta), s.Cols, rows)
}

func (s *fakeServer) rowsFlags(skipMeta bool) int32 {
	if s.NoMetadata || skipMeta {
		return 0x0004
	}
	return 0x0001
}

// Result writes a RESULT with body to stream.
func (c *srvConn) Result(stream int16, body []byte) {
	c.write(stream, opResult, body, c.comp)
}

// Value answers stream with one row whose columns are key and v.
func (c *srvConn) Value(stream int16, key, v []byte) {
	c.Result(stream, appendRows(nil, 0x0001, c.s.Cols, [][][]byte{{key, v}}))
}

func (c *srvConn) writeError(stream int16, code int32, msg string) {
	c.write(stream, opError, appendString(appendInt(nil, code), msg), c.comp)
}

func (c *srvConn) write(stream int16, op byte, body []byte, compress bool) {
	flags := byte(0)
	if c.s.Warn && op == opResult {
		flags |= flagWarning
		w := appendShort(nil, 2)
		w = appendString(w, "Aggregation query used without partition key")
		w = appendString(w, "second warning")
		body = append(w, body...)
	}
	if compress {
		c.s.CompOut.Add(1)
		flags |= flagCompress
		var err error
		if body, err = (cqlcompress.LZ4{}).AppendCompressedWithLength(nil, body); err != nil {
			c.s.t.Errorf("fake server: compress: %v", err)
			return
		}
	}
	fr := []byte{0x80 | version, flags, byte(uint16(stream) >> 8), byte(stream), op, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(fr[5:], uint32(len(body)))
	fr = append(fr, body...)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if at, ok := c.pending[stream]; ok {
		delete(c.pending, stream)
		for _, other := range c.pending {
			if other < at {
				c.s.OutOfOrder.Add(1)
				break
			}
		}
	}
	c.nc.Write(fr)
}

// equalRows compares rows, nil (null) apart from empty.
func equalRows(a, b [][][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if (a[i][j] == nil) != (b[i][j] == nil) || !bytes.Equal(a[i][j], b[i][j]) {
				return false
			}
		}
	}
	return true
}
