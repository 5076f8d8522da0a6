package mysql

import "github.com/goycsb/ycsb/db"

// engineStats reports the storage engine's statistics of the table's
// engine on the first shard.
type engineStats struct {
	engine string
	sh     *shard
}

func (e *engineStats) init(engine string, sh *shard) { e.engine, e.sh = engine, sh }

func (e *engineStats) stats() []db.Stat { return nil }
