package mysql

import (
	"context"
	sqldriver "database/sql/driver"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/props"
)

// shard is one db.url entry: a connector the sessions connect with.
type shard struct {
	t         *target
	connector sqldriver.Connector
	next      atomic.Uint64 // round robin over t.hosts
	display   string
	isoSQL    string // sets jdbc.isolation on a new connection; "": none
}

// connKey carries, in the context of a connection attempt, the session
// connection the dialled socket belongs to (see shard.dial).
type connKey struct{}

func newShard(t *target, c *config) (*shard, error) {
	var mc *gomysql.Config
	if t.base != nil {
		mc = t.base.Clone()
	} else {
		mc = gomysql.NewConfig()
	}
	mc.User, mc.Passwd = t.user, t.passwd
	if !t.userSet && c.User != "" {
		mc.User = c.User
	}
	if !t.passwdSet && c.Passwd != "" {
		mc.Passwd = c.Passwd
	}
	mc.Net, mc.Addr, mc.DBName = "tcp", t.hosts[0].String(), t.dbname
	// An UPDATE's count is the rows it matched, as JDBC's is, not the
	// rows it changed: an update that writes the values a row already
	// holds is not UNEXPECTED_STATE.
	mc.ClientFoundRows = true
	if t.base == nil || mc.Timeout == 0 {
		mc.Timeout = firstSet(t.connectTimeout, c.Timeout)
	}
	if t.base == nil || mc.ReadTimeout == 0 {
		// db.timeout, kept by the driver as a deadline on every read and
		// write of the socket: a server that stops answering costs an
		// error after it, never a hang.
		mc.ReadTimeout = firstSet(t.socketTimeout, c.Timeout)
		mc.WriteTimeout = mc.ReadTimeout
	}
	if t.base == nil {
		mc.TLSConfig = t.tls
	}
	mc.Logger = &gomysql.NopLogger{} // its messages go to stderr; ours say what failed
	sh := &shard{t: t, display: t.display}
	mc.DialFunc = sh.dial
	if iso := c.txn.Isolation; iso != "" {
		sh.isoSQL = "SET SESSION TRANSACTION ISOLATION LEVEL " + upper(string(iso))
	}
	conn, err := gomysql.NewConnector(mc)
	if err != nil {
		return nil, props.Errorf("db.url", "%v", err)
	}
	sh.connector = conn
	return sh, nil
}

func firstSet(a, b time.Duration) time.Duration {
	if a > 0 {
		return a
	}
	return b
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// dial connects to the shard's hosts, in order or starting with the next
// one (round robin), and registers the socket with the session connection
// in ctx, whose cancellation and db.timeout end a statement by putting a
// past deadline on it.
func (sh *shard) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	hosts := sh.t.hosts
	start := 0
	if sh.t.roundRobin {
		start = int((sh.next.Add(1) - 1) % uint64(len(hosts)))
	}
	var d net.Dialer
	var err error
	for i := range hosts {
		h := hosts[(start+i)%len(hosts)]
		var c net.Conn
		if c, err = d.DialContext(ctx, "tcp", h.String()); err == nil {
			tc := &trackedConn{Conn: c}
			if sc, ok := ctx.Value(connKey{}).(*sconn); ok {
				sc.adopt(tc)
			}
			return tc, nil
		}
	}
	return nil, err
}

// trackedConn is a connection's socket, which remembers that a read or a
// write ran out of its deadline (the driver reports that only as "invalid
// connection"), and which a session's cancellation stops: a past deadline
// that the driver's own deadline before each read and write (db.timeout)
// does not undo.
type trackedConn struct {
	net.Conn
	timedOut atomic.Bool
	mu       sync.Mutex // orders stop and resume with the driver's deadlines
	stopped  bool
}

// stop ends any read or write in flight, and every later one, at once.
func (c *trackedConn) stop() {
	c.mu.Lock()
	c.stopped = true
	c.Conn.SetDeadline(time.Now())
	c.mu.Unlock()
}

// closing bounds what is left of the socket (the driver's goodbye) to d.
func (c *trackedConn) closing(d time.Duration) {
	c.mu.Lock()
	if !c.stopped {
		c.stopped = true
		c.Conn.SetDeadline(time.Now().Add(d))
	}
	c.mu.Unlock()
}

// resume undoes stop: no deadline until the driver sets its next.
func (c *trackedConn) resume() {
	c.mu.Lock()
	c.stopped = false
	c.Conn.SetDeadline(time.Time{})
	c.mu.Unlock()
}

func (c *trackedConn) SetDeadline(t time.Time) error      { return c.set(c.Conn.SetDeadline, t) }
func (c *trackedConn) SetReadDeadline(t time.Time) error  { return c.set(c.Conn.SetReadDeadline, t) }
func (c *trackedConn) SetWriteDeadline(t time.Time) error { return c.set(c.Conn.SetWriteDeadline, t) }

func (c *trackedConn) set(f func(time.Time) error, t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	return f(t)
}

func (c *trackedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if err != nil {
		c.note(err)
	}
	return n, err
}

func (c *trackedConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if err != nil {
		c.note(err)
	}
	return n, err
}

func (c *trackedConn) note(err error) {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		c.timedOut.Store(true)
	}
}

// retryableCodes are the server errors that ask the client to run the
// transaction (or statement) again: InnoDB's and MyRocks' deadlock (1213)
// and lock wait timeout (1205), InnoDB's "record has changed since last
// read" (1020, MariaDB's snapshot isolation), TiDB's write conflict (9007)
// and its "can not retry select for update" (8002).
var retryableCodes = map[uint16]bool{1213: true, 1205: true, 1020: true, 9007: true, 8002: true}

// isRetryable says whether err is one of retryableCodes.
func isRetryable(err error) bool {
	var me *gomysql.MySQLError
	return errors.As(err, &me) && retryableCodes[me.Number]
}

// isDeadlock says whether err is InnoDB's ER_LOCK_DEADLOCK, after which
// the server has rolled back the whole transaction, not only the
// statement.
func isDeadlock(err error) bool {
	var me *gomysql.MySQLError
	return errors.As(err, &me) && me.Number == 1213
}

// sendError is the error of a statement the session handed to the driver
// (a write, a batch, a COMMIT), as opposed to one that failed on the way
// there (no connection, preparing the statement): only the former can have
// been applied.
type sendError struct{ err error }

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

func sent(err error) error {
	if err == nil {
		return nil
	}
	return &sendError{err}
}

// sentUnsure marks err as of unknown outcome when it is a statement's that
// was handed to the driver and not answered: a server error
// (*mysql.MySQLError) is an answer (the statement was not applied), and
// driver.ErrBadConn is the driver's word that nothing was sent.
func sentUnsure(err error) error {
	var se *sendError
	if !errors.As(err, &se) || isOutcomeUnknown(err) {
		return err
	}
	var me *gomysql.MySQLError
	if errors.As(se.err, &me) || errors.Is(se.err, sqldriver.ErrBadConn) {
		return err
	}
	return markUnknown(err)
}

var _ = sqlbind.DefaultTimeout
var _ = fmt.Sprint
