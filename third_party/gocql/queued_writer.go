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
	"context"
	"runtime"
	"sync"
	"time"
)

// queuedWriter coalesces frames without a timer. A frame written while the
// connection is idle goes out at once, in the caller's goroutine. Frames
// written while a write is in progress are copied into a queue, and the
// caller returns: the whole queue then goes out in one system call, written
// by the flusher goroutine, which runs only while there is a queue. So no
// frame waits for anything but the write before it, and under load one
// system call carries many frames.
//
// A queued frame that fails to go out closes the connection (onError), which
// fails every call waiting on it, as a failed direct write does.
type queuedWriter struct {
	w       deadlineWriter
	timeout time.Duration
	onError func(error)
	quit    <-chan struct{}
	kick    chan struct{} // capacity 1: wakes the flusher

	mu     sync.Mutex
	busy   bool   // a write is in progress: frames go to queued
	queued []byte // frames waiting for the write in progress
	spare  []byte // the previous queue's buffer, reused
	err    error  // the first write error: the connection is done
}

func newQueuedWriter(w deadlineWriter, timeout time.Duration, quit <-chan struct{}, onError func(error)) *queuedWriter {
	q := &queuedWriter{w: w, timeout: timeout, onError: onError, quit: quit, kick: make(chan struct{}, 1)}
	go q.flusher()
	return q
}

// writeContext implements contextWriter. A queued frame counts as written:
// its fate is the connection's.
func (q *queuedWriter) writeContext(ctx context.Context, p []byte) (int, error) {
	q.mu.Lock()
	if q.err != nil {
		q.mu.Unlock()
		return 0, q.err
	}
	if !q.busy {
		if err := ctx.Err(); err != nil {
			q.mu.Unlock()
			return 0, err
		}
	}
	q.queued = append(q.queued, p...)
	if q.busy {
		q.mu.Unlock()
		return len(p), nil
	}
	q.busy = true
	q.mu.Unlock()

	// Goroutines already runnable (those whose responses the reader just
	// handed over) queue their frames before this write, as an event loop
	// flushes after running every ready task: no timer, no wait for
	// anything that is not already on its way.
	runtime.Gosched()
	if err := q.flushOnce(); err != nil {
		return 0, err
	}
	q.mu.Lock()
	if len(q.queued) == 0 {
		q.busy = false
		q.mu.Unlock()
		return len(p), nil
	}
	q.mu.Unlock()
	// Frames came in during the write: the flusher sends them, so that
	// this caller goes on to wait for its own response.
	select {
	case q.kick <- struct{}{}:
	default:
	}
	return len(p), nil
}

// flushOnce writes the queue as it is now. On an error the queue is
// dropped and the writer fails from then on.
func (q *queuedWriter) flushOnce() error {
	q.mu.Lock()
	buf := q.queued
	q.queued = q.spare[:0]
	q.mu.Unlock()
	_, err := q.write(buf)
	q.mu.Lock()
	defer q.mu.Unlock()
	if err != nil {
		q.fail(err)
		return err
	}
	q.spare = buf[:0]
	return nil
}

func (q *queuedWriter) write(p []byte) (int, error) {
	if q.timeout > 0 {
		if err := q.w.SetWriteDeadline(time.Now().Add(q.timeout)); err != nil {
			return 0, err
		}
	}
	return q.w.Write(p)
}

// fail records err and drops the queue; q.mu is held.
func (q *queuedWriter) fail(err error) {
	q.err = err
	q.busy = false
	q.queued = nil
	q.spare = nil
}

// flusher writes the queue until it is empty, each time it is woken.
func (q *queuedWriter) flusher() {
	for {
		select {
		case <-q.quit:
			q.mu.Lock()
			if q.err == nil {
				q.fail(ErrConnectionClosed)
			}
			q.mu.Unlock()
			return
		case <-q.kick:
		}
		for {
			runtime.Gosched()
			if err := q.flushOnce(); err != nil {
				q.onError(err)
				break
			}
			q.mu.Lock()
			if len(q.queued) == 0 {
				q.busy = false
				q.mu.Unlock()
				break
			}
			q.mu.Unlock()
		}
	}
}
