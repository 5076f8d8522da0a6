package coalesce

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"sync"
	"testing"
	"time"
)

// fakeConn records each Write. With gate set, the first Write signals
// entered and waits for release; err fails every Write.
type fakeConn struct {
	net.Conn // nil: only Write and Close are called
	mu       sync.Mutex
	writes   [][]byte
	entered  chan struct{}
	release  chan struct{}
	err      error
	closed   bool
	pause    time.Duration // each Write sleeps, as a system call takes time
	dls      []time.Time   // write deadlines set, in order
}

func (f *fakeConn) SetWriteDeadline(t time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dls = append(f.dls, t)
	return nil
}

func gated() *fakeConn {
	return &fakeConn{entered: make(chan struct{}), release: make(chan struct{})}
}

func (f *fakeConn) Write(p []byte) (int, error) {
	f.mu.Lock()
	first := len(f.writes) == 0
	f.writes = append(f.writes, append([]byte(nil), p...))
	err := f.err
	f.mu.Unlock()
	if first && f.entered != nil {
		close(f.entered)
		<-f.release
	}
	if f.pause > 0 {
		time.Sleep(f.pause)
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

func (f *fakeConn) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

func (f *fakeConn) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var s []string
	for _, w := range f.writes {
		s = append(s, string(w))
	}
	return s
}

// waitWrites waits until n writes were made (the flusher writes in the
// background).
func (f *fakeConn) waitWrites(t *testing.T, n int) []string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if got := f.got(); len(got) >= n {
			return got
		}
	}
	t.Fatalf("writes %q, want %d of them", f.got(), n)
	return nil
}

// send is how each mode's caller hands a frame over.
var modes = []struct {
	name string
	send func(q *Writer, p []byte) error
}{
	{"Write", func(q *Writer, p []byte) error {
		n, err := q.Write(p)
		if err == nil && n != len(p) {
			return fmt.Errorf("wrote %d of %d bytes", n, len(p))
		}
		return err
	}},
	{"Enqueue", func(q *Writer, p []byte) error { return q.Enqueue(p, time.Time{}) }},
}

// Frames sent while a write is in progress go out together, in one write,
// once it ends, in the order they were sent; their senders do not wait.
func TestCoalescesBehindAWrite(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			f := gated()
			q := New(f, func(error) { t.Error("onFail called") })
			defer q.Close()
			first := make(chan error, 1)
			go func() { first <- m.send(q, []byte("a")) }()
			<-f.entered
			for _, fr := range []string{"b", "c", "d"} {
				if err := m.send(q, []byte(fr)); err != nil {
					t.Fatalf("queued %q: %v", fr, err)
				}
			}
			close(f.release)
			if err := <-first; err != nil {
				t.Fatal(err)
			}
			if got := f.waitWrites(t, 2); len(got) != 2 || got[0] != "a" || got[1] != "bcd" {
				t.Fatalf("writes %q, want [a bcd]", got)
			}
			// Idle again: the next frame goes out on its own.
			if err := m.send(q, []byte("e")); err != nil {
				t.Fatal(err)
			}
			if got := f.waitWrites(t, 3); len(got) != 3 || got[2] != "e" {
				t.Fatalf("writes %q, want [a bcd e]", got)
			}
		})
	}
}

// A Write that found the connection idle returns only once it has also
// written what was queued during its write: the writing caller writes
// them, no other goroutine is woken to.
func TestWriterWritesWhatQueuedBehind(t *testing.T) {
	f := gated()
	q := New(f, func(error) { t.Error("onFail called") })
	defer q.Close()
	first := make(chan error, 1)
	go func() {
		_, err := q.Write([]byte("a"))
		first <- err
	}()
	<-f.entered
	if _, err := q.Write([]byte("b")); err != nil {
		t.Fatal(err)
	}
	close(f.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if got := f.got(); len(got) != 2 || got[1] != "b" {
		t.Fatalf("writes %q when the first Write returned, want [a b]", got)
	}
}

// Under concurrent senders every frame goes out once, whole, each
// sender's in its order, in fewer writes than frames. Enqueue's senders
// are serialized by a lock of their own, as the driver's are.
func TestConcurrentSenders(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			f := &fakeConn{pause: 20 * time.Microsecond}
			q := New(f, func(error) { t.Error("onFail called") })
			defer q.Close()
			var above sync.Mutex
			const senders, frames, size = 8, 300, len("<0:0000>")
			var wg sync.WaitGroup
			for g := range senders {
				wg.Go(func() {
					for i := range frames {
						if m.name == "Enqueue" {
							above.Lock()
						}
						err := m.send(q, fmt.Appendf(nil, "<%d:%04d>", g, i))
						if m.name == "Enqueue" {
							above.Unlock()
						}
						if err != nil {
							t.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			var all []byte
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				if all = []byte(joined(f.got())); len(all) >= senders*frames*size {
					break
				}
			}
			if len(all) != senders*frames*size {
				t.Fatalf("%d bytes written, want %d", len(all), senders*frames*size)
			}
			next := make([]int, senders)
			for i := 0; i < len(all); i += size {
				var g, n int
				if _, err := fmt.Sscanf(string(all[i:i+size]), "<%d:%04d>", &g, &n); err != nil || g < 0 || g >= senders || n != next[g] {
					t.Fatalf("frame %q at %d: torn, repeated or out of order (want frame %d of its sender)", all[i:i+size], i, next[g%senders])
				}
				next[g]++
			}
			if w := len(f.got()); w >= senders*frames {
				t.Fatalf("%d writes for %d frames: nothing coalesced", w, senders*frames)
			}
		})
	}
}

func joined(s []string) string {
	var b bytes.Buffer
	for _, x := range s {
		b.WriteString(x)
	}
	return b.String()
}

// A failed write calls onFail once; that frame's sender (when it wrote)
// and every later one get the error.
func TestFailedWrite(t *testing.T) {
	boom := errors.New("boom")
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			f := gated()
			f.err = boom
			failed := make(chan error, 2)
			q := New(f, func(err error) { failed <- err })
			defer q.Close()
			first := make(chan error, 1)
			go func() { first <- m.send(q, []byte("a")) }()
			<-f.entered
			if err := m.send(q, []byte("b")); err != nil {
				t.Fatalf("queued frame: %v", err)
			}
			close(f.release)
			err := <-first
			if m.name == "Write" && !errors.Is(err, boom) {
				t.Fatalf("direct write: %v, want %v", err, boom)
			}
			if err := <-failed; !errors.Is(err, boom) {
				t.Fatalf("onFail got %v, want %v", err, boom)
			}
			if err := m.send(q, []byte("c")); !errors.Is(err, boom) {
				t.Fatalf("frame after the failure: %v, want %v", err, boom)
			}
			q.Close()
			select {
			case err := <-failed:
				t.Fatalf("onFail called again: %v", err)
			default:
			}
			if got := f.got(); len(got) != 1 || got[0] != "a" {
				t.Fatalf("writes %q, want only [a]", got)
			}
		})
	}
}

// A Conn whose queued write fails closes the connection under it, and
// later writes fail.
func TestConnClosesOnFailedWrite(t *testing.T) {
	f := gated()
	f.err = errors.New("broken pipe")
	c := NewConn(f)
	defer c.Close()
	if n, err := c.Write([]byte("a")); n != 1 || err != nil {
		t.Fatalf("first write: %d, %v", n, err)
	}
	<-f.entered
	close(f.release)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		f.mu.Lock()
		closed := f.closed
		f.mu.Unlock()
		if closed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("connection not closed after its write failed")
		}
	}
	if _, err := c.Write([]byte("b")); err == nil {
		t.Fatal("write after the failure succeeded")
	}
}

// Close ends the flusher (the join is Close's own) and later frames get
// net.ErrClosed; no goroutine is left.
func TestCloseLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, m := range modes {
		f := &fakeConn{}
		c := NewConn(f)
		if err := m.send(c.w, []byte("x")); err != nil {
			t.Fatal(err)
		}
		f.waitWrites(t, 1)
		c.Close()
		if _, err := c.Write([]byte("y")); !errors.Is(err, net.ErrClosed) {
			t.Fatalf("%s: write after Close: %v, want net.ErrClosed", m.name, err)
		}
		if !f.closed {
			t.Fatalf("%s: Close left the connection open", m.name)
		}
		c.Close() // twice is harmless
	}
	// Close returns once the flusher is done; its last instructions may
	// still be running.
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after Close, %d before", runtime.NumGoroutine(), before)
		}
	}
}

// A batch goes out by the latest deadline of its frames; a deadline set
// after a frame was written does not apply to it (crypto/tls sets one in
// the past after queuing its close alert).
func TestDeadlines(t *testing.T) {
	f := gated()
	c := NewConn(f)
	defer c.Close()
	base := time.Unix(1_000_000, 0)
	d1, d2, d3 := base.Add(time.Second), base.Add(2*time.Second), base.Add(3*time.Second)
	c.SetWriteDeadline(d1)
	c.Write([]byte("a"))
	<-f.entered
	c.SetWriteDeadline(d3)
	c.Write([]byte("b"))
	c.SetWriteDeadline(d2)
	c.Write([]byte("c"))
	c.SetWriteDeadline(base) // long past: only later frames
	close(f.release)
	if got := f.waitWrites(t, 2); len(got) != 2 || got[1] != "bc" {
		t.Fatalf("writes %q, want [a bc]", got)
	}
	f.mu.Lock()
	dls := append([]time.Time(nil), f.dls...)
	f.mu.Unlock()
	if len(dls) != 2 || !dls[0].Equal(d1) || !dls[1].Equal(d3) {
		t.Fatalf("deadlines set %v, want [%v %v]", dls, d1, d3)
	}
	// No deadline on a frame: the batch has none.
	c.SetWriteDeadline(time.Time{})
	c.Write([]byte("d"))
	f.waitWrites(t, 3)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.dls) != 3 || !f.dls[2].IsZero() {
		t.Fatalf("deadlines set %v, want the last one cleared", f.dls)
	}
}

// readConn is a fakeConn whose reads end at once.
type readConn struct{ *fakeConn }

func (readConn) Read([]byte) (int, error) { return 0, io.EOF }

// A read first writes what the goroutines runnable when it is called
// queue, in one write of the reader's own: the requests that the responses
// the reader just handed over lead to go out before it waits for more,
// with no flusher to wake. One processor, so that the senders run exactly
// while the reader yields.
func TestReadWritesWhatRunnableSendersQueue(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f := &fakeConn{}
	c := NewConn(readConn{f})
	defer c.Close()
	const senders = 5
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range senders {
		wg.Go(func() {
			<-start
			if _, err := c.Write([]byte{'0' + byte(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	runtime.Gosched() // the senders wait on start
	close(start)
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("read: %v", err)
	}
	got := f.got()
	wg.Wait()
	if len(got) != 1 || len(got[0]) != senders {
		t.Fatalf("writes when the read returned: %q, want the %d senders' frames in one", got, senders)
	}
}
