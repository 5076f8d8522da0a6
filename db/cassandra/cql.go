package cassandra

import (
	"context"
	"fmt"
	"sync"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/cql/cqlcluster"
	"github.com/goycsb/ycsb/internal/cql/cqlwire"
)

// CQL is an optional capability of a db.Session of this binding's: the
// CQL connection itself, for a workload that runs statements of its own
// rather than YCSB's Read, Insert and the rest. The cassandra-stress
// workload (workload/cassandrastress) finds it by a type assertion on the
// db.Session its Transactor runs on (measured.Session.Unwrap); the
// sessions of a Conn have it.
//
// What it offers, over a connection configured once (cqlcluster.Options,
// TLS from cqltls, compression, the host selection policy):
//   - the driver's path (Driver): prepared statements with bound values
//     (Query, Bind), batches, paging (Iter, PageState), the schema's
//     statements, the ring's metadata;
//   - the lean path (Lean, protocol v4; nil when off): a worker's Caller
//     (LeanPath.Caller) runs a Stmt with bound values on cqlwire's
//     connections, routed by its partition key (token-aware, to another
//     replica after a failed try), with the next page on the same node
//     (Stmt.PageSize, Caller.NextPage) and speculative execution, as the
//     binding's own sessions do through the same Caller.
//
// Its operations are measured by the workload through measured.Session's
// Finish, as the binding's Read and the rest are by measured.Session.
type CQL interface {
	db.Session
	// Driver is the driver's session of keyspace ("": none), opened by
	// Conn.Open.
	Driver(keyspace string) *gocql.Session
	// Lean is keyspace's lean request path, nil without one (a protocol
	// other than v4, or a connection the lean path cannot make).
	Lean(keyspace string) *LeanPath
}

// LeanPath is a keyspace's lean request path: cqlwire's connections,
// routed by the ring and host selection policy of its driver session. A
// worker runs its statements on it through a Caller of its own.
type LeanPath struct {
	pool     *cqlwire.Pool
	session  *gocql.Session
	policy   gocql.HostSelectionPolicy
	keyspace string
}

// router is a worker's router of the lean path's requests, token-aware.
func (l *LeanPath) router() *cqlwire.Router {
	return l.pool.Router(l.session, l.policy, l.keyspace, true)
}

// Conn is the connection of a workload that runs its own CQL (the
// cassandra-stress mode's), opened from the options of its command line:
// a driver session of no keyspace (Admin), and per keyspace its session
// and lean path (Open). Its sessions (Sessions) have the CQL capability.
type Conn struct {
	o     cqlcluster.Options
	admin *gocql.Session
	mu    sync.Mutex
	ks    map[string]*keyspaceConn
}

// keyspaceConn is one keyspace's driver session and lean path.
type keyspaceConn struct {
	driver *gocql.Session
	lean   *LeanPath
}

// Dial opens the driver session of no keyspace with o (o.Keyspace is not
// read); a session is given up when ctx ends first.
func Dial(ctx context.Context, o cqlcluster.Options) (*Conn, error) {
	o.Keyspace = ""
	admin, err := cqlcluster.Connect(ctx, o.Config())
	if err != nil {
		return nil, err
	}
	return &Conn{o: o, admin: admin, ks: map[string]*keyspaceConn{}}, nil
}

// Admin is the driver session of no keyspace: the schema's statements,
// the node's version and ring.
func (c *Conn) Admin() *gocql.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.admin
}

// CloseAdmin closes the session of no keyspace, once the schema is made,
// unless the run goes on using it (Admin is nil after it).
func (c *Conn) CloseAdmin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.admin != nil {
		cqlcluster.Close(c.admin)
		c.admin = nil
	}
}

// Open opens keyspace's driver session, and with protocol v4 its lean
// path, unless they are open; it returns the driver session.
func (c *Conn) Open(ctx context.Context, keyspace string) (*gocql.Session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.ks[keyspace]; k != nil {
		return k.driver, nil
	}
	o := c.o
	o.Keyspace = keyspace
	cc := o.Config()
	s, err := cqlcluster.Connect(ctx, cc)
	if err != nil {
		return nil, err
	}
	k := &keyspaceConn{driver: s}
	if o.Protocol == 4 && o.Lean() {
		k.lean = &LeanPath{pool: cqlwire.NewPool(o.Wire()), session: s, policy: cc.PoolConfig.HostSelectionPolicy, keyspace: keyspace}
	}
	c.ks[keyspace] = k
	return s, nil
}

// Sessions are n sessions of c, one per worker, with the CQL capability.
func (c *Conn) Sessions(n int) []db.Session {
	out := make([]db.Session, n)
	for i := range out {
		out[i] = &cqlSession{c: c}
	}
	return out
}

// Close closes the lean paths and the driver sessions, waiting
// cqlcluster.CloseWait at most; once closed, a Close does nothing.
func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ss []*gocql.Session
	if c.admin != nil {
		ss = append(ss, c.admin)
		c.admin = nil
	}
	for _, k := range c.ks {
		if k.lean != nil {
			k.lean.pool.Close()
		}
		ss = append(ss, k.driver)
	}
	c.ks = map[string]*keyspaceConn{}
	cqlcluster.Close(ss...)
}

// errOwnCQL is YCSB's operation asked of a session that runs its
// workload's own statements.
var errOwnCQL = fmt.Errorf("cassandra: this session runs its workload's own CQL (see CQL): %w", db.ErrNotImplemented)

// cqlSession is a worker's session of a Conn: its CQL, and none of YCSB's
// operations.
type cqlSession struct{ c *Conn }

var _ CQL = (*cqlSession)(nil)

func (s *cqlSession) Driver(keyspace string) *gocql.Session {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	if keyspace == "" {
		return s.c.admin
	}
	if k := s.c.ks[keyspace]; k != nil {
		return k.driver
	}
	return nil
}

func (s *cqlSession) Lean(keyspace string) *LeanPath {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	if k := s.c.ks[keyspace]; k != nil {
		return k.lean
	}
	return nil
}

func (s *cqlSession) Read(context.Context, string, string, []string, *db.Record) error {
	return errOwnCQL
}

func (s *cqlSession) Scan(context.Context, string, string, int, []string, *db.Rows) error {
	return errOwnCQL
}

func (s *cqlSession) Update(context.Context, string, string, []db.Field) error { return errOwnCQL }
func (s *cqlSession) Insert(context.Context, string, string, []db.Field) error { return errOwnCQL }
func (s *cqlSession) Delete(context.Context, string, string) error             { return errOwnCQL }

// Close has nothing to close: the Conn's connections are the run's.
func (s *cqlSession) Close(context.Context) error { return nil }
