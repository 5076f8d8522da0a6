package rendezvous

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// The protocol: one TCP connection per client, messages of one line
// each, at most MaxLine bytes with the '\n'.
//
//	client      → coordinator: HELLO <version> <index> <count> <fingerprint>
//	coordinator → client:      WAIT <checked-in> <count>   (at check-in, then every Heartbeat)
//	coordinator → client:      START <microseconds>        (start that long after receipt)
//	coordinator → client:      REFUSED <reason>            (then closes)
//
// The client sends nothing after HELLO: anything it sends, or the end of
// its connection, tells the coordinator that it left.

// Version is the protocol's version, in HELLO.
const Version = 1

// MaxLine bounds a message, '\n' included: a peer that is not a client of
// this program cannot make the other side buffer more.
const MaxLine = 256

// maxStartDelay bounds START: a larger delay is not from this program.
const maxStartDelay = time.Minute

// The kinds of message.
const (
	kindHello   = "HELLO"
	kindWait    = "WAIT"
	kindStart   = "START"
	kindRefused = "REFUSED"
)

// message is one line of the protocol; which fields are set depends on
// the kind.
type message struct {
	kind        string
	version     int           // HELLO
	index       int           // HELLO
	count       int           // HELLO, WAIT
	fingerprint string        // HELLO
	checkedIn   int           // WAIT
	delay       time.Duration // START, whole microseconds
	reason      string        // REFUSED
}

// String is the line of m, without its '\n'.
func (m message) String() string {
	switch m.kind {
	case kindHello:
		return fmt.Sprintf("%s %d %d %d %s", kindHello, m.version, m.index, m.count, m.fingerprint)
	case kindWait:
		return fmt.Sprintf("%s %d %d", kindWait, m.checkedIn, m.count)
	case kindStart:
		return fmt.Sprintf("%s %d", kindStart, m.delay.Microseconds())
	default:
		return kindRefused + " " + m.reason
	}
}

// validFingerprint: printable ASCII without spaces, so that it stays one
// field of the line.
func validFingerprint(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}

// parseMessage reads one line (without its '\n'). It accepts exactly the
// lines String writes.
func parseMessage(line string) (message, error) {
	kind, rest, _ := strings.Cut(line, " ")
	if kind == kindRefused {
		if rest == "" || strings.ContainsAny(rest, "\r\n") {
			return message{}, errors.New("REFUSED without a reason")
		}
		return message{kind: kindRefused, reason: rest}, nil
	}
	fields := strings.Split(rest, " ")
	num := func(i int, lo, hi int64) (int64, error) {
		n, err := strconv.ParseInt(fields[i], 10, 64)
		if err != nil || n < lo || n > hi || strconv.FormatInt(n, 10) != fields[i] {
			return 0, fmt.Errorf("%s: field %d is %q, want an integer from %d to %d", kind, i+1, fields[i], lo, hi)
		}
		return n, nil
	}
	want := map[string]int{kindHello: 4, kindWait: 2, kindStart: 1}[kind]
	if want == 0 {
		return message{}, fmt.Errorf("unknown message %q", truncate(line))
	}
	if len(fields) != want {
		return message{}, fmt.Errorf("%s: %d fields, want %d", kind, len(fields), want)
	}
	m := message{kind: kind}
	var err error
	var n [3]int64
	switch kind {
	case kindHello:
		for i := range 3 {
			if n[i], err = num(i, 0, 1<<31-1); err != nil {
				return message{}, err
			}
		}
		m.version, m.index, m.count = int(n[0]), int(n[1]), int(n[2])
		if m.fingerprint = fields[3]; !validFingerprint(m.fingerprint) {
			return message{}, fmt.Errorf("HELLO: fingerprint %q", truncate(m.fingerprint))
		}
	case kindWait:
		for i := range 2 {
			if n[i], err = num(i, 0, 1<<31-1); err != nil {
				return message{}, err
			}
		}
		m.checkedIn, m.count = int(n[0]), int(n[1])
	case kindStart:
		if n[0], err = num(0, 0, maxStartDelay.Microseconds()); err != nil {
			return message{}, err
		}
		m.delay = time.Duration(n[0]) * time.Microsecond
	}
	return m, nil
}

// truncate shortens what a peer sent for an error message.
func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// lineReader reads bounded lines.
type lineReader struct{ r *bufio.Reader }

func newLineReader(r io.Reader) *lineReader { return &lineReader{bufio.NewReaderSize(r, MaxLine)} }

// read returns the next message; a line longer than MaxLine is an error,
// not a longer buffer.
func (l *lineReader) read() (message, error) {
	b, err := l.r.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return message{}, fmt.Errorf("a line longer than %d bytes: not a ycsb rendezvous", MaxLine)
	case err != nil:
		return message{}, err
	}
	return parseMessage(string(b[:len(b)-1]))
}

// ioTimeout bounds every write, and every read but the wait for the
// next heartbeat.
const ioTimeout = 5 * time.Second

// send writes m as a line within ioTimeout.
func send(c net.Conn, m message) error {
	c.SetWriteDeadline(time.Now().Add(ioTimeout))
	_, err := io.WriteString(c, m.String()+"\n")
	return err
}
