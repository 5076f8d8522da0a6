// Package infile reads the files a command is given (-P files, profiles,
// reports, HDR logs, certificates, node lists): a regular file or a pipe,
// never more than a stated size, and a Ctrl-C (the context) is honoured
// while a named pipe waits for its writer or a pipe for its data.
//
// Devices, sockets and directories are refused before anything is read, so
// a path such as /dev/zero or /dev/urandom costs one line, not memory.
package infile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/goycsb/ycsb/internal/oserr"
)

// The size caps of each kind of input, stated in docs/architecture.md.
const (
	// MaxText bounds small text inputs: properties (-P) files, stress
	// profiles, node lists, histogram files, PEM and key stores.
	MaxText = 16 << 20
	// MaxReport bounds a JSON report, a log holding report blocks, an HDR
	// log and an HTML page read back: days of intervals fit.
	MaxReport = 1 << 30
)

// Error is an input that cannot be read. It is bad input: a command exits
// with code 2 on it.
type Error struct {
	Path string // as the user typed it
	Err  error
}

func (e *Error) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// BadInput marks the error as the user's input (props.IsBadInput).
func (e *Error) BadInput() {}

// Interrupted is what the readers return when the context ends before the
// input is read (Ctrl-C while a named pipe waits for its writer). It wraps
// the context's error, so errors.Is(err, context.Canceled) holds, and it is
// not bad input: a command exits with code 130 on it.
type Interrupted struct {
	Path string // as the user typed it
	Err  error  // the context's
}

func (e *Interrupted) Error() string { return e.Path + ": interrupted before it was read" }
func (e *Interrupted) Unwrap() error { return e.Err }

// Name returns err, an error of Read, Open, Check or ReadFrom, naming the
// input name in place of its path: the option as the user typed it
// ("-transport truststore=/dev/zero", "cassandra.ssl.ca=/dev/zero"), so
// that the one line says which option is at fault. Other errors are
// returned as they are.
func Name(err error, name string) error {
	var e *Error
	if errors.As(err, &e) {
		return &Error{Path: name, Err: e.Err}
	}
	var i *Interrupted
	if errors.As(err, &i) {
		return &Interrupted{Path: name, Err: i.Err}
	}
	return err
}

// ReadAs is Read with its errors naming name, the option as typed (Name).
func ReadAs(ctx context.Context, path, name string, max int64) ([]byte, error) {
	b, err := Read(ctx, path, max)
	if err != nil {
		return nil, Name(err, name)
	}
	return b, nil
}

// ErrTooLarge is what Error holds for an input above its cap.
var ErrTooLarge = errors.New("too large")

// chunk is how much is read between two looks at the context.
const chunk = 1 << 20

// Read returns the contents of path, which must be a regular file or a
// pipe of at most max bytes. It returns an *Interrupted wrapping ctx.Err()
// if the context ends first, also while a named pipe waits for a writer.
// A regular file is refused by its size, before a byte of it is read, and
// is read into a buffer of its size.
func Read(ctx context.Context, path string, max int64) ([]byte, error) {
	if err := Check(path, max); err != nil {
		return nil, err
	}
	f, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	// The file may have changed between the check and the open.
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if size = fi.Size(); size > max {
			return nil, &Error{Path: path, Err: tooLarge(max)}
		}
	}
	return readAll(ctx, f, path, max, size)
}

// Check refuses, without opening it, a path that Read would refuse for its
// kind: missing, a directory, a device or a socket, or a regular file above
// max. Open calls it; so does a caller whose input another library reads
// (the postgres binding, for the TLS files pgx reads itself).
func Check(path string, max int64) error {
	fi, err := os.Stat(path)
	if err != nil {
		return &Error{Path: path, Err: oserr.Reason(err)}
	}
	if err := checkMode(fi.Mode()); err != nil {
		return &Error{Path: path, Err: err}
	}
	if fi.Mode().IsRegular() && fi.Size() > max {
		return &Error{Path: path, Err: tooLarge(max)}
	}
	return nil
}

// Open opens path for reading once it is known to be a regular file or a
// pipe. A named pipe with no writer is waited for until ctx ends.
func Open(ctx context.Context, path string) (*os.File, error) {
	if err := Check(path, 1<<62); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, &Interrupted{Path: path, Err: err}
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	var o opened
	select {
	case o = <-done:
	case <-ctx.Done():
		release(path, done)
		return nil, &Interrupted{Path: path, Err: ctx.Err()}
	}
	if o.err != nil {
		return nil, &Error{Path: path, Err: oserr.Reason(o.err)}
	}
	// The path may have changed between the check and the open.
	fi, err := o.f.Stat()
	if err == nil {
		err = checkMode(fi.Mode())
	}
	if err != nil {
		o.f.Close()
		return nil, &Error{Path: path, Err: oserr.Reason(err)}
	}
	return o.f, nil
}

type opened struct {
	f   *os.File
	err error
}

// releaseFor bounds release: past it the opener is left to its goroutine.
const releaseFor = time.Second

// release ends an open(2) of path that waits for a writer, by becoming
// one, and closes what it opened. A non-blocking open for writing finds
// no reader (ENXIO) until the opener is inside open(2), which it may not
// have reached yet: so it is tried again until the opener returns.
func release(path string, done <-chan opened) {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	giveUp := time.After(releaseFor)
	for {
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		select {
		case o := <-done:
			if o.err == nil {
				o.f.Close()
			}
			return
		case <-giveUp:
			return
		case <-tick.C:
		}
	}
}

// ReadFrom reads r (such as standard input, named name in errors) to its
// end, at most max bytes, returning an *Interrupted if the context ends
// first.
func ReadFrom(ctx context.Context, r io.Reader, name string, max int64) ([]byte, error) {
	return readAll(ctx, r, name, max, 0)
}

// readAll reads r straight into the buffers it returns: one of size (a
// regular file's) when it is known, else chunks of at most chunk bytes
// joined once at the end, so that an input costs about twice its size at
// most, never the copies of a buffer that grows by steps. It stops at max,
// looking at ctx between the reads and while a read waits. A read that
// waits is left to its goroutine when ctx ends: files and pipes are closed
// by the caller, which ends it.
func readAll(ctx context.Context, r io.Reader, name string, max, size int64) ([]byte, error) {
	// One byte more than the file's size sees its end (or its growth)
	// without another buffer.
	first := min(size, max) + 1
	if size == 0 {
		first = min(chunk, max+1)
	}
	cur := make([]byte, 0, first)
	var full [][]byte // the buffers filled before cur
	var total int64
	type result struct {
		n   int
		err error
	}
	res := make(chan result, 1)
	for {
		if err := ctx.Err(); err != nil {
			return nil, &Interrupted{Path: name, Err: err}
		}
		if len(cur) == cap(cur) {
			full = append(full, cur)
			cur = make([]byte, 0, min(chunk, max+1-total))
		}
		buf := cur[len(cur):cap(cur)]
		go func() {
			n, err := r.Read(buf)
			res <- result{n, err}
		}()
		var got result
		select {
		case got = <-res:
		case <-ctx.Done():
			if f, ok := r.(*os.File); ok {
				// Wakes a read of a pipe waiting in the poller.
				f.SetReadDeadline(deadlinePast)
			}
			return nil, &Interrupted{Path: name, Err: ctx.Err()}
		}
		cur = cur[:len(cur)+got.n]
		total += int64(got.n)
		if total > max {
			return nil, &Error{Path: name, Err: tooLarge(max)}
		}
		if got.err == io.EOF {
			return join(full, cur, total), nil
		}
		if got.err != nil {
			return nil, &Error{Path: name, Err: oserr.Reason(got.err)}
		}
	}
}

// join is the buffers full then last, total bytes in all, as one.
func join(full [][]byte, last []byte, total int64) []byte {
	if len(full) == 0 {
		return last
	}
	out := make([]byte, 0, total)
	for _, b := range full {
		out = append(out, b...)
	}
	return append(out, last...)
}

// deadlinePast is a read deadline that has passed.
var deadlinePast = time.Unix(1, 0)

func tooLarge(max int64) error {
	return fmt.Errorf("%w: more than %s, the cap for this input", ErrTooLarge, size(max))
}

// size writes a cap in binary units, as the docs state them.
func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func checkMode(m fs.FileMode) error {
	switch {
	case m.IsRegular(), m&fs.ModeNamedPipe != 0:
		return nil
	case m.IsDir():
		return errors.New("is a directory")
	case m&fs.ModeCharDevice != 0:
		return errors.New("not a regular file or a pipe (a character device)")
	case m&fs.ModeDevice != 0:
		return errors.New("not a regular file or a pipe (a block device)")
	case m&fs.ModeSocket != 0:
		return errors.New("not a regular file or a pipe (a socket)")
	}
	return fmt.Errorf("not a regular file or a pipe (mode %s)", m)
}
