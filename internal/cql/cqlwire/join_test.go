package cqlwire

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/goycsb/ycsb/internal/cql/coalesce"
)

// gate is a writer whose first Write waits for release.
type gate struct {
	entered, release chan struct{}
	n                atomic.Int32
}

func (g *gate) Write(p []byte) (int, error) {
	if g.n.Add(1) == 1 {
		close(g.entered)
		<-g.release
	}
	return len(p), nil
}

// A request goes to the host's connection whose write is in progress, to
// go out with it, unless that connection is crowded; otherwise to the
// call's turn.
func TestConnJoinsWriteInProgress(t *testing.T) {
	h := &Host{conns: make([]atomic.Pointer[conn], 3)}
	cs := make([]*conn, 3)
	g := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	for i := range cs {
		var w interface{ Write([]byte) (int, error) } = discard{}
		if i == 1 {
			w = g
		}
		cs[i] = &conn{wr: coalesce.New(w, func(error) {})}
		defer cs[i].wr.Close()
		h.conns[i].Store(cs[i])
	}
	pick := func() *conn {
		t.Helper()
		call := NewCall()
		call.turn = 1 // its turn is connection 2
		c, err := h.conn(context.Background(), call)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := pick(); c != cs[2] {
		t.Fatal("an idle host's request did not go to its turn's connection")
	}
	go cs[1].wr.Write([]byte("x"))
	<-g.entered
	for range 3 {
		if c := pick(); c != cs[1] {
			t.Fatal("a request did not join the write in progress")
		}
	}
	cs[1].crowded.Store(true)
	if c := pick(); c != cs[2] {
		t.Fatal("a request joined a crowded connection")
	}
	close(g.release)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
