package cqlwire

import (
	"io"
	"net"
	"syscall"
	"unsafe"
)

// Plain TCP connections read and write with raw system calls on their
// non-blocking socket: a raw call does not tell the scheduler it enters the
// kernel, so a processor is not handed off and the runtime's monitor thread
// is not woken for each read and write (measured with tools/cqlfloor, one
// request in flight on two cores: 42 µs of CPU per request with the net
// package's calls, 11 with raw ones; at 16 in flight 4.6 and 2.9). A call
// that would block (EAGAIN) waits for the socket through the runtime's
// poller, as the net package does. TLS connections keep the net package's
// calls.

// rawConn is a TCP connection's socket.
type rawConn struct {
	rc syscall.RawConn
	// The write in progress: what is left of it, its error and the
	// function that writes it, bound once. Kept here rather than captured
	// by a closure per Write, which would cost three allocations a
	// request; there is one write at a time (coalesce.Writer's).
	wp    []byte
	werr  error
	write func(fd uintptr) bool
}

func newRawConn(nc net.Conn) *rawConn {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawConn{rc: rc}
	r.write = r.writeSome
	return r
}

// Read reads what the socket has, waiting for data when it has none.
func (r *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var rerr error
	err := r.rc.Read(func(fd uintptr) bool {
		m, wait, e := sysRead(fd, p)
		if wait {
			return false
		}
		n, rerr = m, e
		if e == nil && m == 0 {
			rerr = io.EOF
		}
		return true
	})
	if err != nil {
		return 0, err
	}
	return n, rerr
}

// sysRead reads fd into p (not empty) once, again after EINTR; wait says
// the socket has nothing yet (EAGAIN).
func sysRead(fd uintptr, p []byte) (n int, wait bool, err error) {
	for {
		m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch e {
		case 0:
			return int(m), false, nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return 0, true, nil
		default:
			return 0, false, e
		}
	}
}

// Write writes all of p, waiting for room in the socket when it has none.
// It is not safe for concurrent use: its one caller is the connection's
// coalesce.Writer, which writes one queue at a time.
func (r *rawConn) Write(p []byte) (int, error) {
	total := len(p)
	r.wp, r.werr = p, nil
	defer func() { r.wp, r.werr = nil, nil }()
	for len(r.wp) > 0 && r.werr == nil {
		if err := r.rc.Write(r.write); err != nil {
			return total - len(r.wp), err
		}
	}
	return total - len(r.wp), r.werr
}

// writeSome writes what is left of the write in progress until it is all
// written (true), the socket has no room (false: the poller waits for
// some), or the write fails (true, with r.werr).
func (r *rawConn) writeSome(fd uintptr) bool {
	for len(r.wp) > 0 {
		m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&r.wp[0])), uintptr(len(r.wp)))
		switch e {
		case 0:
			r.wp = r.wp[m:]
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			r.werr = e
			return true
		}
	}
	return true
}

// readLoop reads the socket into one buffer until it fails, giving take
// what the buffer holds after each read: take consumes the whole frames at
// its start and says how long the frame cut short there is (0 for none),
// for which the buffer grows. It runs in a single wait on the socket, so
// the poller's word that data came is never dropped between two reads
// (each Read starts by forgetting it), and a read shorter than the room it
// had means the socket was drained: the loop waits for the poller then
// instead of reading again for EAGAIN, as tokio's reader does. That saves
// one read system call per wake-up.
func (r *rawConn) readLoop(take func(b []byte) (used, need int, err error)) error {
	buf := make([]byte, 64<<10)
	var start, end int
	var rerr error
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			room := len(buf) - end
			m, wait, e := sysRead(fd, buf[end:])
			if wait {
				return false
			}
			if e != nil {
				rerr = e
				return true
			}
			if m == 0 {
				rerr = io.EOF
				return true
			}
			end += m
			used, need, err := take(buf[start:end])
			if err != nil {
				rerr = err
				return true
			}
			start += used
			if start == end {
				start, end = 0, 0
			} else if end == len(buf) || start+need > len(buf) {
				// Move the frame cut short to the front, in a larger
				// buffer when it does not fit.
				if need > len(buf) {
					nb := make([]byte, need)
					copy(nb, buf[start:end])
					buf = nb
				} else {
					copy(buf, buf[start:end])
				}
				end -= start
				start = 0
			}
			if m < room {
				return false
			}
		}
	})
	if err != nil {
		return err
	}
	return rerr
}
