// Package all links every binding into a program. It is the only list of
// bindings: a new binding adds its blank import here and nowhere else.
package all

import (
	_ "github.com/goycsb/ycsb/db/badger"
	_ "github.com/goycsb/ycsb/db/basic"
	_ "github.com/goycsb/ycsb/db/bbolt"
	_ "github.com/goycsb/ycsb/db/cassandra"
	_ "github.com/goycsb/ycsb/db/jdbc"
	_ "github.com/goycsb/ycsb/db/mysql"
	_ "github.com/goycsb/ycsb/db/pebble"
	_ "github.com/goycsb/ycsb/db/postgres"
	_ "github.com/goycsb/ycsb/db/redis"
	_ "github.com/goycsb/ycsb/db/rocksdb"
	_ "github.com/goycsb/ycsb/db/sqlite"
)
