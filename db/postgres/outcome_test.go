package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/goycsb/ycsb/db"
)

// fakePG accepts one connection, lets it log in, and then answers its
// first query with answer (which may say nothing, or close the
// connection).
func fakePG(t *testing.T, answer func(be *pgproto3.Backend, nc net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		be := pgproto3.NewBackend(nc, nc)
		if _, err := be.ReceiveStartupMessage(); err != nil {
			return
		}
		be.Send(&pgproto3.AuthenticationOk{})
		be.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
		if be.Flush() != nil {
			return
		}
		if _, err := be.Receive(); err != nil { // the query: it reached the server
			return
		}
		answer(be, nc)
	}()
	return ln.Addr().String()
}

// pgErrorOf runs an INSERT against a fake server that answers as answer
// does, with ctx, and returns pgconn's error as the binding sees it (a
// statement the session sent).
func pgErrorOf(t *testing.T, ctx context.Context, answer func(be *pgproto3.Backend, nc net.Conn)) error {
	return pgErrorVia(t, ctx, answer, false)
}

// pgErrorVia is pgErrorOf through the extended protocol (the binding's
// writes) when extended, else the simple one (its COMMIT).
func pgErrorVia(t *testing.T, ctx context.Context, answer func(be *pgproto3.Backend, nc net.Conn), extended bool) error {
	t.Helper()
	addr := fakePG(t, answer)
	cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := pgconn.Connect(cctx, fmt.Sprintf("postgres://ycsb@%s/ycsb?sslmode=disable", addr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	const insert = "INSERT INTO usertable (ycsb_key) VALUES ($1)"
	if extended {
		_, err = c.ExecParams(ctx, insert, [][]byte{[]byte("user1")}, nil, nil, nil).Close()
	} else {
		_, err = c.Exec(ctx, "INSERT INTO usertable (ycsb_key) VALUES ('user1')").ReadAll()
	}
	if err == nil {
		t.Fatal("the insert succeeded")
	}
	return sent(err, true)
}

// TestSentUnsure: a write that reached the server and got no answer may
// have been applied; one the server refused, or that failed before it was
// sent, was not. The errors are pgconn's own, from a fake server.
func TestSentUnsure(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	short, cancelShort := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancelShort()
	closeAfterReading := func(be *pgproto3.Backend, nc net.Conn) {}
	silent := func(be *pgproto3.Backend, nc net.Conn) { time.Sleep(2 * time.Second) }
	refuse := func(be *pgproto3.Backend, nc net.Conn) {
		be.Send(&pgproto3.ErrorResponse{Severity: "ERROR", Code: "23505", Message: `duplicate key value violates unique constraint "usertable_pkey"`})
		be.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
		be.Flush()
		time.Sleep(time.Second)
	}
	for _, tc := range []struct {
		name string
		err  func(t *testing.T) error
		want bool
	}{
		{"connection closed after the request", func(t *testing.T) error {
			return pgErrorOf(t, context.Background(), closeAfterReading)
		}, true},
		{"connection closed after the request, extended protocol", func(t *testing.T) error {
			return pgErrorVia(t, context.Background(), closeAfterReading, true)
		}, true},
		{"the server's error response, extended protocol", func(t *testing.T) error {
			return pgErrorVia(t, context.Background(), refuse, true)
		}, false},
		{"no answer within the deadline", func(t *testing.T) error {
			return pgErrorOf(t, short, silent)
		}, true},
		{"the server's error response", func(t *testing.T) error {
			return pgErrorOf(t, context.Background(), refuse)
		}, false},
		{"cancelled before sending", func(t *testing.T) error {
			return pgErrorOf(t, cancelled, closeAfterReading)
		}, false},
		{"not a statement sent (connect, prepare)", func(t *testing.T) error {
			return fmt.Errorf("connect: %w", errors.New("dial tcp: connection refused"))
		}, false},
		{"the server's error, built as pgconn does", func(t *testing.T) error {
			return sent(pgconn.ErrorResponseToPgError(&pgproto3.ErrorResponse{Severity: "ERROR", Code: "28P01", Message: "password authentication failed"}), true)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err(t)
			got := sentUnsure(err)
			if db.IsOutcomeUnknown(got) != tc.want {
				t.Errorf("sentUnsure(%v): outcome unknown %v, want %v", err, db.IsOutcomeUnknown(got), tc.want)
			}
			if !errors.Is(got, err) {
				t.Errorf("sentUnsure(%v) = %v: the error is lost", err, got)
			}
		})
	}
}

// TestClosedConnIsNotSent: a statement on a connection that broke before it
// was sent fails for sure (pgconn refuses it before writing anything).
func TestClosedConnIsNotSent(t *testing.T) {
	addr := fakePG(t, func(be *pgproto3.Backend, nc net.Conn) {})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, fmt.Sprintf("postgres://ycsb@%s/ycsb?sslmode=disable", addr))
	if err != nil {
		t.Fatal(err)
	}
	_, first := c.Exec(ctx, "INSERT INTO usertable (ycsb_key) VALUES ('user1')").ReadAll()
	open := !c.IsClosed()
	_, second := c.Exec(ctx, "INSERT INTO usertable (ycsb_key) VALUES ('user2')").ReadAll()
	if open {
		t.Fatal("the connection is open after the server closed it")
	}
	if !db.IsOutcomeUnknown(sentUnsure(sent(first, true))) {
		t.Errorf("the insert cut off after sending (%v) is not of unknown outcome", first)
	}
	if second == nil || db.IsOutcomeUnknown(sentUnsure(sent(second, open))) {
		t.Errorf("the insert on the closed connection (%v) is of unknown outcome, want a failure", second)
	}
}
