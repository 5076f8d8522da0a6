package workload

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
)

// inserts is a session over a shared in-memory store that remembers which
// keys were inserted, and how often.
type inserts struct {
	db.Session
	keys map[string]int
}

func (s *inserts) Insert(ctx context.Context, table, key string, v []db.Field) error {
	s.keys[strings.Clone(key)]++ // key shares the worker's buffer
	return s.Session.Insert(ctx, table, key, v)
}

// clientWorkers builds one worker for each of count clients of the same
// workload, all on mem, the inserted keys counted in seen.
func clientWorkers(t *testing.T, mem *dbtest.Memory, seen map[string]int, transactions bool, count int, kv ...string) ([]*Worker, *measurement.Collector) {
	t.Helper()
	p := newProps(kv...)
	mcfg, err := measurement.ParseConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	coll := measurement.NewCollector(mcfg, measurement.YCSB)
	var out []*Worker
	for i := range count {
		cl := partition.Clients{Count: count, Index: i}
		cfg, err := ParseConfigFor(newProps(kv...), transactions, cl)
		if err != nil {
			t.Fatal(err)
		}
		wl, err := Build(context.Background(), cfg, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := mem.Session(context.Background(), 0, 1)
		ms := measured.NewSession(&inserts{Session: s, keys: seen}, coll.NewRecorder())
		out = append(out, wl.NewWorker(ms, cl.Seed(1)))
	}
	return out, coll
}

// TestClientsLoadTheRecordsOnce: three clients loading their slices insert
// every key of recordcount, the reference's names, each exactly once.
func TestClientsLoadTheRecordsOnce(t *testing.T) {
	for _, order := range []string{"hashed", "ordered"} {
		t.Run(order, func(t *testing.T) {
			const records = 1001
			mem, seen := dbtest.NewMemory(), map[string]int{}
			kv := []string{"recordcount", "1001", "insertorder", order, "fieldcount", "1", "fieldlength", "4"}
			workers, _ := clientWorkers(t, mem, seen, false, 3, kv...)
			for _, wk := range workers {
				for range wk.w.InsertCount {
					if !wk.DoInsert(context.Background()) {
						t.Fatal("insert failed")
					}
				}
			}
			if len(seen) != records || mem.Len() != records {
				t.Fatalf("%d keys inserted, %d stored; want %d", len(seen), mem.Len(), records)
			}
			for k := int64(0); k < records; k++ {
				if n := seen[keyName(k, 1, order == "ordered")]; n != 1 {
					t.Fatalf("key number %d inserted %d times", k, n)
				}
			}
		})
	}
}

// TestClientsRunInsertsNeverCollide: the run-phase inserts of three clients
// take distinct keys, interleaved from recordcount, and a latest chooser
// reads only keys that exist (its own inserts and the loaded records).
func TestClientsRunInsertsNeverCollide(t *testing.T) {
	const records, perClient = 10, 300
	mem, seen := dbtest.NewMemory(), map[string]int{}
	loaders, _ := clientWorkers(t, mem, seen, false, 1, "recordcount", "10", "fieldcount", "1")
	for range records {
		loaders[0].DoInsert(context.Background())
	}
	kv := []string{"recordcount", "10", "fieldcount", "1", "requestdistribution", "latest",
		"readproportion", "0.5", "insertproportion", "0.5", "updateproportion", "0"}
	workers, coll := clientWorkers(t, mem, seen, true, 3, kv...)
	inserted := 0
	for len(seen) < records+3*perClient {
		for _, wk := range workers {
			if wk.w.transactionInsert.Last()-records+1 < perClient {
				wk.DoTransaction(context.Background())
			}
		}
		if inserted++; inserted > 100*perClient {
			t.Fatal("the clients stopped inserting")
		}
	}
	for k := int64(0); k < records+3*perClient; k++ {
		if n := seen[keyName(k, 1, false)]; n != 1 {
			t.Fatalf("key number %d inserted %d times", k, n)
		}
	}
	coll.Tick()
	for _, m := range coll.Total().Measurements {
		for _, rc := range m.Returns {
			if rc.Status != db.OK {
				t.Errorf("%s: %d times %v: a client read a key it has not inserted", m.Name, rc.Count, rc.Status)
			}
		}
	}
}

// TestClientsRefuseExplicitSlices: a load split by client.count does not
// take insertstart or insertcount, and needs a record for every client.
func TestClientsRefuseExplicitSlices(t *testing.T) {
	cl := partition.Clients{Count: 3, Index: 0}
	for _, tc := range []struct {
		kv   []string
		want string
	}{
		{[]string{"recordcount", "100", "insertstart", "0"}, "insertstart: cannot be combined with client.count=3"},
		{[]string{"recordcount", "100", "insertcount", "50"}, "insertcount: cannot be combined with client.count=3"},
		{[]string{"recordcount", "2"}, "client.count: 3 clients for 2 records"},
	} {
		_, err := ParseConfigFor(newProps(tc.kv...), false, partition.Clients{Count: 3, Index: 2})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.kv, err, tc.want)
		}
	}
	// A run chooses keys from the whole range: insertstart keeps its meaning.
	c, err := ParseConfigFor(newProps("recordcount", "100", "insertstart", "10"), true, cl)
	if err != nil || c.InsertStart != 10 || c.InsertCount != 90 {
		t.Errorf("run with insertstart: %+v, %v", c, err)
	}
	c, err = ParseConfigFor(newProps("recordcount", "100"), false, partition.Clients{Count: 3, Index: 2})
	if err != nil || c.InsertStart != 67 || c.InsertCount != 33 {
		t.Errorf("client 2 of 3 loads from %d, %d records (%v); want 67, 33", c.InsertStart, c.InsertCount, err)
	}
}
