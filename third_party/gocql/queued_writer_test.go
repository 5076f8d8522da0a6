// Licensed to the Apache Software Foundation (ASF) under one
// or more contributor license agreements.  See the NOTICE file
// distributed with this work for additional information
// regarding copyright ownership.  The ASF licenses this file
// to you under the Apache License, Version 2.0 (the
// "License"); you may not use this file except in compliance
// with the License.  You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package gocql

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// recordingWriter records each Write; the first one waits for release.
type recordingWriter struct {
	mu      sync.Mutex
	writes  [][]byte
	entered chan struct{}
	release chan struct{}
	err     error
}

func (w *recordingWriter) SetWriteDeadline(time.Time) error { return nil }

func (w *recordingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	first := len(w.writes) == 0
	w.writes = append(w.writes, append([]byte(nil), p...))
	err := w.err
	w.mu.Unlock()
	if first && w.entered != nil {
		close(w.entered)
		<-w.release
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *recordingWriter) got() [][]byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([][]byte(nil), w.writes...)
}

// Frames written while a write is in progress go out together, in one
// Write, once it ends; their callers do not wait for it.
func TestQueuedWriterCoalesces(t *testing.T) {
	w := &recordingWriter{entered: make(chan struct{}), release: make(chan struct{})}
	quit := make(chan struct{})
	defer close(quit)
	q := newQueuedWriter(w, time.Second, quit, func(error) {})
	done := make(chan error)
	go func() {
		_, err := q.writeContext(context.Background(), []byte("a"))
		done <- err
	}()
	<-w.entered
	for _, f := range []string{"b", "c"} {
		if n, err := q.writeContext(context.Background(), []byte(f)); n != 1 || err != nil {
			t.Fatalf("queued write of %q: %d, %v", f, n, err)
		}
	}
	close(w.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(w.got()) < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	got := w.got()
	if len(got) != 2 || string(got[0]) != "a" || string(got[1]) != "bc" {
		t.Fatalf("writes %q, want [a bc]", got)
	}
	// Idle again: the next frame goes out on its own.
	if _, err := q.writeContext(context.Background(), []byte("d")); err != nil {
		t.Fatal(err)
	}
	if got := w.got(); len(got) != 3 || string(got[2]) != "d" {
		t.Fatalf("writes %q, want [a bc d]", got)
	}
}

// Every frame goes out once and whole, whatever the interleaving.
func TestQueuedWriterLosesNothing(t *testing.T) {
	w := &recordingWriter{}
	quit := make(chan struct{})
	defer close(quit)
	q := newQueuedWriter(w, 0, quit, func(error) {})
	const writers, frames = 8, 500
	var wg sync.WaitGroup
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < frames; i++ {
				if _, err := q.writeContext(context.Background(), []byte(fmt.Sprintf("<%d:%04d>", g, i))); err != nil {
					t.Error(err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	want := writers * frames * len("<0:0000>")
	for time.Now().Before(deadline) {
		if len(bytes.Join(w.got(), nil)) >= want {
			break
		}
		time.Sleep(time.Millisecond)
	}
	all := bytes.Join(w.got(), nil)
	if len(all) != want {
		t.Fatalf("%d bytes written, want %d", len(all), want)
	}
	seen := map[string]bool{}
	for i := 0; i < len(all); i += len("<0:0000>") {
		f := string(all[i : i+len("<0:0000>")])
		if f[0] != '<' || f[len(f)-1] != '>' || seen[f] {
			t.Fatalf("frame %q at %d torn or repeated", f, i)
		}
		seen[f] = true
	}
}

// A failed queued write closes the connection and fails what follows.
func TestQueuedWriterError(t *testing.T) {
	boom := errors.New("boom")
	w := &recordingWriter{entered: make(chan struct{}), release: make(chan struct{})}
	quit := make(chan struct{})
	defer close(quit)
	closed := make(chan error, 1)
	q := newQueuedWriter(w, 0, quit, func(err error) { closed <- err })
	done := make(chan error)
	go func() {
		_, err := q.writeContext(context.Background(), []byte("a"))
		done <- err
	}()
	<-w.entered
	if _, err := q.writeContext(context.Background(), []byte("b")); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	w.err = boom
	w.mu.Unlock()
	close(w.release)
	<-done // the first write itself succeeded
	select {
	case err := <-closed:
		if !errors.Is(err, boom) {
			t.Fatalf("closed with %v, want %v", err, boom)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a failed queued write did not close the connection")
	}
	if _, err := q.writeContext(context.Background(), []byte("c")); !errors.Is(err, boom) {
		t.Fatalf("write after the failure: %v, want %v", err, boom)
	}
}
