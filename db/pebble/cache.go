package pebble

import (
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// memtableRoom keeps Pebble's block room at engine.cachesize exactly.
//
// Pebble charges every memtable arena to its block cache (DB.newMemTable
// reserves the arena's size with Cache.Reserve; a flushed memtable kept for
// reuse keeps its reservation), while RocksDB keeps its memtables beside its
// cache. The binding sizes the cache at cachesize + budget, the budget being
// the memtables Pebble may hold before writes stall, and memtableRoom
// reserves the part of the budget the memtables do not use at the moment, so
// that what is left for blocks is cachesize whatever the memtables take: a
// cache of cachesize alone had no room for blocks once a memtable was
// full-sized (after the WAL replay that follows a load every lookup missed),
// and the budget left unreserved would give a read-only run up to three
// times RocksDB's block room.
//
// Memtables are allocated rarely (while they grow to full size, and when a
// flushed one cannot be reused), so polling the reservation is enough; until
// the next poll a new memtable takes its room from the blocks, as it would
// in Pebble alone.
type memtableRoom struct {
	cache    *pebble.Cache
	budget   int64
	reserved func() int64 // the memtables' reservation now

	mu      sync.Mutex
	held    int64
	release func()

	stop chan struct{}
	done chan struct{}
}

// memtableBudget is the memtable memory Pebble may hold: writes stall once
// MemTableStopWritesThreshold memtables are queued.
func memtableBudget(memtableSize int64, o *pebble.Options) int64 {
	return int64(o.MemTableStopWritesThreshold) * memtableSize
}

const memtableRoomPoll = 100 * time.Millisecond

// startMemtableRoom reserves the budget's unused part now and keeps it
// current until close.
func startMemtableRoom(cache *pebble.Cache, budget int64, reserved func() int64) *memtableRoom {
	m := &memtableRoom{cache: cache, budget: budget, reserved: reserved,
		stop: make(chan struct{}), done: make(chan struct{})}
	m.adjust()
	go func() {
		defer close(m.done)
		t := time.NewTicker(memtableRoomPoll)
		defer t.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-t.C:
				m.adjust()
			}
		}
	}()
	return m
}

// adjust holds budget minus the memtables' reservation. The old hold is
// released before the new one is taken, so that the blocks never have less
// than cachesize because of it.
func (m *memtableRoom) adjust() {
	want := max(m.budget-m.reserved(), 0)
	m.mu.Lock()
	defer m.mu.Unlock()
	if want == m.held {
		return
	}
	if m.release != nil {
		m.release()
		m.release = nil
	}
	if want > 0 {
		m.release = m.cache.Reserve(int(want))
	}
	m.held = want
}

// close stops the polling and gives the room back; call it before the DB
// closes.
func (m *memtableRoom) close() {
	close(m.stop)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.release != nil {
		m.release()
		m.release = nil
	}
	m.held = 0
}
