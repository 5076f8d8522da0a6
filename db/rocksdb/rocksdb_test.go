//go:build rocksdb

package rocksdb

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db/internal/engine"
	"github.com/goycsb/ycsb/db/internal/engine/enginetest"
	"github.com/goycsb/ycsb/props"

	_ "github.com/goycsb/ycsb/db/pebble"
)

// open looks the binding up by the reference's class name, its alias.
var open = enginetest.Registered("site.ycsb.db.rocksdb.RocksDBClient", "rocksdb")

func TestMain(m *testing.M) { enginetest.Main(m, open) }

func TestEngine(t *testing.T) { enginetest.Run(t, "rocksdb", "pebble", open) }

func BenchmarkOps(b *testing.B) { enginetest.Bench(b, open) }

// TestRealFilesOfTheOtherEngine opens each engine's real directory with the
// other engine, with and without the marker file.
func TestRealFilesOfTheOtherEngine(t *testing.T) {
	pebbleOpen := enginetest.Registered("pebble", "pebble")
	for _, c := range []struct {
		writer, reader string
		create, open   enginetest.Opener
	}{
		{"pebble", "rocksdb", pebbleOpen, open},
		{"rocksdb", "pebble", open, pebbleOpen},
	} {
		for _, marker := range []bool{true, false} {
			dir := t.TempDir()
			d, err := c.create(context.Background(), props.FromMap(map[string]string{"engine.dir": dir}))
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			if !marker {
				os.Remove(filepath.Join(dir, engine.MarkerFile))
			}
			_, err = c.open(context.Background(), props.FromMap(map[string]string{"engine.dir": dir}))
			want := "holds a " + c.writer + " database"
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s opening %s's directory (marker %t): %v, want one line with %q", c.reader, c.writer, marker, err, want)
			}
		}
	}
}
