package rendezvous

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

type outcome struct {
	at  time.Time
	err error
}

// meetAfter runs Meet for cfg after a delay, in a goroutine.
func meetAfter(ctx context.Context, wg *sync.WaitGroup, out *outcome, after time.Duration, cfg Config) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(after)
		out.at, out.err = Meet(ctx, cfg)
	}()
}

// TestMeet: clients that come at different moments, one before client 0
// listens, start at one instant. It runs alone (not in parallel): the
// instants are compared.
func TestMeet(t *testing.T) {
	addr := ycsbtest.FreeAddr(t)
	var wg sync.WaitGroup
	outs := make([]outcome, 3)
	arrive := []time.Duration{300 * time.Millisecond, 600 * time.Millisecond, 0}
	for i := range 3 {
		meetAfter(context.Background(), &wg, &outs[i], arrive[i], Config{Addr: addr, Count: 3, Index: i, Fingerprint: "f1", Timeout: 10 * time.Second})
	}
	wg.Wait()
	for i, o := range outs {
		if o.err != nil {
			t.Fatalf("client %d: %v", i, o.err)
		}
		if d := o.at.Sub(outs[0].at).Abs(); d > 100*time.Millisecond {
			t.Errorf("client %d starts %v apart from client 0", i, d)
		}
	}
}

// TestRefusedAndMissing: clients of another experiment are refused, with
// a reason naming what differs, and client 0 then fails naming the index
// that never came.
func TestRefusedAndMissing(t *testing.T) {
	t.Parallel()
	addr := ycsbtest.FreeAddr(t)
	var wg sync.WaitGroup
	var coord outcome
	var said []string
	var mu sync.Mutex
	checkedIn := make(chan struct{}, 1)
	say := func(l string) {
		mu.Lock()
		said = append(said, l)
		mu.Unlock()
		if strings.HasPrefix(l, "Rendezvous: client 2 checked in") {
			checkedIn <- struct{}{}
		}
	}
	// Client 0's timeout, which it fails at, is what the steps below
	// must fit in: each is a connection or two to 127.0.0.1.
	meetAfter(context.Background(), &wg, &coord, 0, Config{Addr: addr, Count: 3, Index: 0, Fingerprint: "f1", Timeout: 5 * time.Second, Say: say})
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Count: 4, Index: 1, Fingerprint: "f1"}, "client.count=4, but client 0 has client.count=3"},
		{Config{Count: 3, Index: 1, Fingerprint: "f2"}, "fingerprint is f2, client 0's is f1"},
	} {
		tc.cfg.Addr, tc.cfg.Timeout = addr, 3*time.Second
		_, err := Meet(context.Background(), tc.cfg)
		var r *Refused
		if !errors.As(err, &r) || !props.IsBadInput(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want a refusal about %q", err, tc.want)
		}
	}
	// A duplicate index: the first holds its place, the second is refused.
	var first outcome
	meetAfter(context.Background(), &wg, &first, 0, Config{Addr: addr, Count: 3, Index: 2, Fingerprint: "f1", Timeout: 30 * time.Second})
	<-checkedIn
	_, err := Meet(context.Background(), Config{Addr: addr, Count: 3, Index: 2, Fingerprint: "f1", Timeout: 3 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "client.index 2 has checked in already") {
		t.Errorf("duplicate index: %v", err)
	}
	wg.Wait()
	// Client 0 says who it refused, and that the one that never came was
	// refused (client.index 1, for its fingerprint).
	if coord.err == nil || !strings.Contains(coord.err.Error(), "2 of 3 clients checked in within client.rendezvous.timeout 5s") ||
		!strings.HasSuffix(coord.err.Error(), "never came: client.index 1; refused: client.index 1 (the experiment's fingerprint is f2, client 0's is f1: give every client the same properties, but for client.index and its outputs)") {
		t.Errorf("client 0: %v (client 2: %v)\n%s", coord.err, first.err, strings.Join(said, "\n"))
	}
	mu.Lock()
	lines := strings.Join(said, "\n")
	mu.Unlock()
	for _, want := range []string{"refused a client from 127.0.0.1:", "client.count=4, but client 0 has client.count=3", "client.index 2 has checked in already"} {
		if !strings.Contains(lines, want) {
			t.Errorf("client 0 did not say %q:\n%s", want, lines)
		}
	}
	if first.err == nil || !strings.Contains(first.err.Error(), "client 0 at "+addr+" went away before the start") {
		t.Errorf("client 2 after client 0 gave up: %v", first.err)
	}
}

// TestNoCoordinator: a client that finds no client 0 fails at its timeout.
func TestNoCoordinator(t *testing.T) {
	t.Parallel()
	addr := ycsbtest.FreeAddr(t)
	_, err := Meet(context.Background(), Config{Addr: addr, Count: 2, Index: 1, Fingerprint: "f", Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "client 1: no client 0 at "+addr+" within client.rendezvous.timeout 1s") {
		t.Errorf("error %v", err)
	}
}

// TestInterrupted: the end of ctx ends the wait at once, with ctx's
// error, on both sides.
func TestInterrupted(t *testing.T) {
	t.Parallel()
	addr := ycsbtest.FreeAddr(t)
	for _, index := range []int{0, 1} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		began := time.Now()
		_, err := Meet(ctx, Config{Addr: addr, Count: 2, Index: index, Fingerprint: "f", Timeout: time.Minute})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("client %d: %v, want context.Canceled", index, err)
		}
		if d := time.Since(began); d > 10*time.Second {
			t.Errorf("client %d: interrupted after %v", index, d)
		}
	}
}

// fakeCoordinator accepts one connection and hands it to serve.
func fakeCoordinator(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		serve(c)
	}()
	return ln.Addr().String()
}

// TestBadCoordinator: a client 0 that vanishes after the check-in, or a
// peer that is not one, ends the wait with an error.
func TestBadCoordinator(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		serve func(net.Conn)
		want  string
	}{
		{"vanishes", func(c net.Conn) {
			newLineReader(c).read()
			c.Write([]byte("WAIT 2 3\n"))
		}, "went away before the start: EOF"},
		{"long line", func(c net.Conn) {
			c.Write([]byte(strings.Repeat("x", 1000)))
			time.Sleep(time.Second)
		}, "a line longer than 256 bytes"},
		{"not the protocol", func(c net.Conn) {
			c.Write([]byte("HTTP/1.1 400 Bad Request\n"))
		}, `unknown message "HTTP/1.1 400 Bad Request"`},
		{"start too far", func(c net.Conn) {
			c.Write([]byte("START 3600000000\n"))
		}, "START: field 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := fakeCoordinator(t, tc.serve)
			_, err := Meet(context.Background(), Config{Addr: addr, Count: 3, Index: 1, Fingerprint: "f", Timeout: 30 * time.Second})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestListenAddr(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:7070":                 "127.0.0.1:7070",
		"[::1]:7070":                     "[::1]:7070",
		"ycsb-run-rendezvous.bench:7070": ":7070",
		"localhost:7070":                 ":7070",
	} {
		if got, err := ListenAddr(in); err != nil || got != want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestSilentPeerRetried: a peer that closes the connection before saying
// anything is not client 0 of this run (a process that held the port a
// moment, client 0 starting over): the client retries until its context
// ends, as when nothing listens.
func TestSilentPeerRetried(t *testing.T) {
	t.Parallel()
	addr := fakeCoordinator(t, func(c net.Conn) {})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err := Meet(ctx, Config{Addr: addr, Count: 2, Index: 1, Fingerprint: "f", Timeout: time.Minute})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("%v, want context.Canceled after retrying", err)
	}
}

// TestSilentPeerNamedAtTimeout: after retrying a peer that closes without
// a word until the timeout, the error says so (it said "last: <nil>").
func TestSilentPeerNamedAtTimeout(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() { // every connection closed at once
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	// Tries at 0, 0.1, 0.3, 0.7 and 1.5 s: the 2 s timeout ends the wait
	// for the next, half a second after the last try, not a try itself
	// (which would say the try's own error).
	_, err = Meet(context.Background(), Config{Addr: ln.Addr().String(), Count: 2, Index: 1, Fingerprint: "f", Timeout: 2 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "closed without a word") {
		t.Errorf("%v, want the timeout naming the silent peer", err)
	}
}
