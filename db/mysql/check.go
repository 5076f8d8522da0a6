package mysql

import (
	"context"
	sqldriver "database/sql/driver"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db/internal/sqlbind"
	"github.com/goycsb/ycsb/internal/secret"
)

// querier runs setup statements on a connection of their own (the check,
// the engine statistics, Sum): plain text queries, first row only.
type querier struct {
	conn sqldriver.Conn
}

// row runs sql and scans the first row's values into dst (*int64 or
// *string); no row leaves dst as it is.
func (q querier) row(ctx context.Context, sql string, dst ...any) error {
	rows, err := q.conn.(sqldriver.QueryerContext).QueryContext(ctx, sql, nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]sqldriver.Value, len(rows.Columns()))
	if err := rows.Next(vals); err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	for i, d := range dst {
		if i >= len(vals) {
			break
		}
		s := string(bytesOf(vals[i]))
		switch d := d.(type) {
		case *string:
			*d = s
		case *int64:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("%q is not an integer", s)
			}
			*d = n
		}
	}
	return nil
}

// rows runs sql and hands each row's values, as text, to fn.
func (q querier) rows(ctx context.Context, sql string, fn func(vals []string)) error {
	rows, err := q.conn.(sqldriver.QueryerContext).QueryContext(ctx, sql, nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]sqldriver.Value, len(rows.Columns()))
	out := make([]string, len(vals))
	for {
		if err := rows.Next(vals); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		for i, v := range vals {
			out[i] = string(bytesOf(v))
		}
		fn(out)
	}
}

func (q querier) exec(ctx context.Context, sql string) error {
	_, err := q.conn.(sqldriver.ExecerContext).ExecContext(ctx, sql, nil)
	return err
}

// withConn runs fn on a new connection to sh, within 15 s or db.timeout
// when that is shorter.
func (md *mysqlDB) withConn(ctx context.Context, sh *shard, fn func(ctx context.Context, q querier) error) error {
	limit := 15 * time.Second
	if t := md.cfg.Timeout; t > 0 && t < limit {
		limit = t
	}
	return md.withConnFor(ctx, sh, limit, fn)
}

// withConnFor is withConn within limit.
func (md *mysqlDB) withConnFor(ctx context.Context, sh *shard, limit time.Duration, fn func(ctx context.Context, q querier) error) error {
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	conn, err := sh.connector.Connect(cctx)
	if err != nil {
		return fmt.Errorf("connect: %v", secret.Line(err.Error()))
	}
	defer conn.Close()
	return fn(cctx, querier{conn})
}

// check connects to every shard and makes sure the table exists (creating
// it when asked) on the storage engine asked for, so a wrong host, refused
// credentials or a missing table stop the run before it starts.
func (md *mysqlDB) check(ctx context.Context) error {
	cfg := &md.cfg
	for i, sh := range md.shards {
		err := md.withConn(ctx, sh, func(ctx context.Context, q querier) error {
			if cfg.Create {
				if err := q.exec(ctx, cfg.dialect.createTableSQL(cfg.Table, cfg.FieldCount)); err != nil {
					return fmt.Errorf("create table %s: %v", cfg.Table, err)
				}
			}
			var engine string
			err := q.row(ctx, "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '"+
				strings.ReplaceAll(cfg.Table, "'", "''")+"'", &engine)
			if err != nil {
				return fmt.Errorf("check table %s: %v", cfg.Table, err)
			}
			if engine == "" {
				return fmt.Errorf("table %s does not exist (create it, or set %s=true)", cfg.Table, sqlbind.PropCreateTable)
			}
			if want := cfg.dialect.engine; want != "" && !strings.EqualFold(engine, want.sqlName()) {
				return fmt.Errorf("table %s is on %s, not %s (%s=%s): drop it, or name another table", cfg.Table, engine, want.sqlName(), propEngine, want)
			}
			if i == 0 {
				md.engine.init(md, strings.ToLower(engine), sh)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("%s: %s: %v", cfg.name, sh.display, err)
		}
	}
	return nil
}
