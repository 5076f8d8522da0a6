package infile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("recordcount=5\n"), 0o644)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, bytes.Repeat([]byte("x"), 3<<20), 0o644)
	exact := filepath.Join(dir, "exact")
	os.WriteFile(exact, bytes.Repeat([]byte("y"), 2<<20), 0o644)
	tests := []struct {
		path string
		max  int64
		want string // content, or the error's text
		bad  bool
	}{
		{small, MaxText, "recordcount=5\n", false},
		{exact, 2 << 20, strings.Repeat("y", 2<<20), false},
		{big, 2 << 20, big + ": too large: more than 2 MiB, the cap for this input", true},
		{"/dev/zero", MaxText, "/dev/zero: not a regular file or a pipe (a character device)", true},
		{"/dev/urandom", MaxText, "/dev/urandom: not a regular file or a pipe (a character device)", true},
		{dir, MaxText, dir + ": is a directory", true},
		{filepath.Join(dir, "none"), MaxText, filepath.Join(dir, "none") + ": no such file or directory", true},
	}
	for _, tc := range tests {
		got, err := Read(context.Background(), tc.path, tc.max)
		if tc.bad {
			var e *Error
			if err == nil || !errors.As(err, &e) || err.Error() != tc.want {
				t.Errorf("Read(%s) = %v, want error %q", tc.path, err, tc.want)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("Read(%s) = %d bytes, %v", tc.path, len(got), err)
		}
	}
}

func TestCheckRefusesBeforeOpening(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 100), 0o644)
	if err := Check(big, 99); err == nil || !errors.Is(err, ErrTooLarge) {
		t.Errorf("Check over the cap = %v", err)
	}
	if err := Check(big, 100); err != nil {
		t.Errorf("Check at the cap = %v", err)
	}
	if err := Check("/dev/null", 100); err == nil {
		t.Errorf("Check(/dev/null) accepted a device")
	}
}

// A pipe is read to its end, and one that sends more than the cap is cut
// off at the cap: /dev/zero through a pipe does not fill memory.
func TestPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	first := make(chan struct{})
	go func() {
		defer close(first)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		w.Write(make([]byte, 5<<20))
	}()
	_, err := Read(context.Background(), fifo, 1<<20)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Read of an endless pipe = %v, want too large", err)
	}
	// The first writer, cut off, must be gone before the second opens:
	// the second reader would otherwise read the rest of its 5 MiB.
	<-first

	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write([]byte("a=1\n"))
		w.Close()
	}()
	got, err := Read(context.Background(), fifo, 1<<20)
	if err != nil || string(got) != "a=1\n" {
		t.Fatalf("Read(fifo) = %q, %v", got, err)
	}
}

// A named pipe with no writer, and a pipe whose writer sends nothing, wait
// only until the context ends.
func TestCancelWhileWaiting(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Read(ctx, fifo, MaxText)
	var in *Interrupted
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &in) || err.Error() != fifo+": interrupted before it was read" {
		t.Fatalf("Read(fifo with no writer) = %v, want the context's error naming the file", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Read(fifo with no writer) returned after %v", d)
	}

	// A writer that opens and then sends nothing.
	held := make(chan *os.File, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			held <- w
		}
	}()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	if _, err := Read(ctx2, fifo, MaxText); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Read(silent pipe) = %v, want the context's error", err)
	}
	select {
	case w := <-held:
		w.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("the writer never opened")
	}

	pr, pw := io.Pipe()
	defer pw.Close()
	ctx3, cancel3 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel3()
	if _, err := ReadFrom(ctx3, pr, "stdin", MaxText); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ReadFrom(silent reader) = %v", err)
	}
}

func TestReadFrom(t *testing.T) {
	got, err := ReadFrom(context.Background(), strings.NewReader("abc"), "stdin", 3)
	if err != nil || string(got) != "abc" {
		t.Fatalf("ReadFrom = %q, %v", got, err)
	}
	_, err = ReadFrom(context.Background(), strings.NewReader("abcd"), "stdin", 3)
	if err == nil || err.Error() != "stdin: too large: more than 3 bytes, the cap for this input" {
		t.Fatalf("ReadFrom over the cap = %v", err)
	}
}

// Name makes the errors name the option as typed, keeping their kind.
func TestName(t *testing.T) {
	_, err := ReadAs(context.Background(), "/dev/zero", "-transport truststore=/dev/zero", MaxText)
	var e *Error
	if !errors.As(err, &e) || err.Error() != "-transport truststore=/dev/zero: not a regular file or a pipe (a character device)" {
		t.Errorf("ReadAs(/dev/zero) = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(f, []byte("keyspace: k\n"), 0o644)
	_, err = ReadAs(ctx, f, "profile="+f, MaxText)
	var in *Interrupted
	if !errors.As(err, &in) || !errors.Is(err, context.Canceled) || err.Error() != "profile="+f+": interrupted before it was read" {
		t.Errorf("ReadAs after the context ended = %v", err)
	}
	if other := errors.New("x"); Name(other, "y") != other {
		t.Errorf("Name changed an error of another kind")
	}
}

// TestCancelledBeforeOpen: a context that ended before Open (a Ctrl-C
// during start-up) returns at once, also for a named pipe with no writer:
// the opener must not be left waiting in open(2) for a writer that, tried
// before it got there, found no reader (ENXIO). A full-suite run hung 30 s
// on it.
func TestCancelledBeforeOpen(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		// Ended before Open, or while the opener is on its way to open(2).
		ctx, cancel := context.WithCancel(context.Background())
		if i%2 == 0 {
			cancel()
		} else {
			time.AfterFunc(time.Duration(i)*time.Microsecond, cancel)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Read(ctx, fifo, MaxText)
			done <- err
		}()
		select {
		case err := <-done:
			var in *Interrupted
			if !errors.As(err, &in) || !errors.Is(err, context.Canceled) {
				t.Fatalf("attempt %d: %v, want Interrupted", i, err)
			}
			cancel()
		case <-time.After(5 * time.Second):
			t.Fatalf("attempt %d: Read with an ended context still waits after 5 s", i)
		}
	}
}

// A regular file above the cap is refused by its size, before a byte of it
// is read: a sparse file of 2 GiB given as a 1 GiB report costs no memory
// and no time. What Read allocates for it is measured: reading up to the cap
// would allocate at least the cap.
func TestReadRefusesLargeFileUnread(t *testing.T) {
	sparse := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Read(context.Background(), sparse, 8<<20)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) || err.Error() != sparse+": too large: more than 8 MiB, the cap for this input" {
		t.Fatalf("Read(64 MiB file, cap 8 MiB) = %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("Read allocated %d bytes to refuse a file by its size", n)
	}
}

// A regular file is read into a buffer of its own size: reading a file of
// 4 MiB allocates about 4 MiB, not the doublings of a growing buffer.
func TestReadAllocatesTheFileSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, bytes.Repeat([]byte("z"), 4<<20), 0o644)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := Read(context.Background(), path, MaxReport)
	runtime.ReadMemStats(&after)
	if err != nil || len(got) != 4<<20 {
		t.Fatalf("Read = %d bytes, %v", len(got), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 5<<20 {
		t.Errorf("Read allocated %d bytes for a file of %d", n, 4<<20)
	}
}

// A pipe of unknown size is read in chunks and joined once: what ReadFrom
// allocates is about twice the input, not the copies of a buffer that
// grows by a quarter at a time (300 MB of zeros on stdin cost 856 MB).
func TestReadFromAllocatesTwice(t *testing.T) {
	const n = 64 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := ReadFrom(context.Background(), io.LimitReader(zeros{}, n), "stdin", MaxReport)
	runtime.ReadMemStats(&after)
	if err != nil || len(got) != n {
		t.Fatalf("ReadFrom = %d bytes, %v", len(got), err)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 2*n+4<<20 {
		t.Errorf("ReadFrom allocated %d bytes for %d", a, n)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
