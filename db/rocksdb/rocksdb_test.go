//go:build rocksdb

package rocksdb

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/db/internal/kv/kvtest"
	"github.com/goycsb/ycsb/props"

	_ "github.com/goycsb/ycsb/db/pebble"
)

// open looks the binding up by the reference's class name, its alias.
var open = kvtest.Registered("site.ycsb.db.rocksdb.RocksDBClient", "rocksdb")

func TestMain(m *testing.M) { kvtest.Main(m, open) }

func TestEngine(t *testing.T) { kvtest.Run(t, "rocksdb", "pebble", open) }

func BenchmarkOps(b *testing.B) { kvtest.Bench(b, open) }

// TestRealFilesOfTheOtherEngine opens each engine's real directory with the
// other engine, with and without the marker file.
func TestRealFilesOfTheOtherEngine(t *testing.T) {
	pebbleOpen := kvtest.Registered("pebble", "pebble")
	for _, c := range []struct {
		writer, reader string
		create, open   kvtest.Opener
	}{
		{"pebble", "rocksdb", pebbleOpen, open},
		{"rocksdb", "pebble", open, pebbleOpen},
	} {
		for _, marker := range []bool{true, false} {
			dir := t.TempDir()
			d, err := c.create(context.Background(), props.FromMap(map[string]string{"engine.dir": dir}), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			if !marker {
				os.Remove(filepath.Join(dir, kv.MarkerFile))
			}
			_, err = c.open(context.Background(), props.FromMap(map[string]string{"engine.dir": dir}), io.Discard)
			want := "holds a " + c.writer + " database"
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s opening %s's directory (marker %t): %v, want one line with %q", c.reader, c.writer, marker, err, want)
			}
		}
	}
}

// TestFreshNeverEmptiesAnotherProgramsStore takes real stores of both engines
// without our marker, as another program leaves them: engine.fresh=true is
// refused by either binding and leaves every file as it was, and reopening a
// store of the same engine does not mark it as ours.
func TestFreshNeverEmptiesAnotherProgramsStore(t *testing.T) {
	pebbleOpen := kvtest.Registered("pebble", "pebble")
	openers := map[string]kvtest.Opener{"pebble": pebbleOpen, "rocksdb": open}
	for writer, create := range openers {
		for reader, reopen := range openers {
			dir := t.TempDir()
			d, err := create(context.Background(), props.FromMap(map[string]string{"engine.dir": dir}), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			os.Remove(filepath.Join(dir, kv.MarkerFile))
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("precious"), 0o644)
			before, _ := os.ReadDir(dir)
			_, err = reopen(context.Background(), props.FromMap(map[string]string{"engine.dir": dir, "engine.fresh": "true"}), io.Discard)
			if err == nil || !strings.Contains(err.Error(), "refusing to empty it") {
				t.Errorf("%s with engine.fresh=true on %s's unmarked store: %v, want a refusal", reader, writer, err)
			}
			after, _ := os.ReadDir(dir)
			if len(after) != len(before) {
				t.Errorf("%s with engine.fresh=true changed %s's unmarked store: %d entries, had %d", reader, writer, len(after), len(before))
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "precious" {
				t.Errorf("%s with engine.fresh=true removed notes.txt from %s's store", reader, writer)
			}
			if reader != writer {
				continue
			}
			d, err = reopen(context.Background(), props.FromMap(map[string]string{"engine.dir": dir}), io.Discard)
			if err != nil {
				t.Fatalf("%s reopening its own kind of store written by another program: %v", reader, err)
			}
			d.Close()
			if _, err := os.Stat(filepath.Join(dir, kv.MarkerFile)); err == nil {
				t.Errorf("%s marked another program's store as its own", reader)
			}
		}
	}
}
