package kv

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFreshEmptiesOnlyWhatTheToolMarked: engine.fresh=true empties a
// directory only when its marker is the file this tool writes (a regular
// file holding an engine's name and a newline); any other YCSB-ENGINE (other
// text, a symlink to a marker, a directory, a FIFO, a huge file) leaves the
// user's files alone and is not taken for an engine's name.
func TestFreshEmptiesOnlyWhatTheToolMarked(t *testing.T) {
	cases := []struct {
		name   string
		marker func(t *testing.T, path string)
		empty  bool
	}{
		{"ours", writeMarker("pebble\n"), true},
		{"another engine of ours", writeMarker("rocksdb\n"), true},
		{"other text", writeMarker("my notes\n"), false},
		{"name without newline", writeMarker("pebble"), false},
		{"name with spaces", writeMarker(" pebble \n"), false},
		{"name then more", writeMarker("pebble\nand more\n"), false},
		{"empty", writeMarker(""), false},
		{"huge", writeMarker("pebble\n" + strings.Repeat("x", 1<<20)), false},
		{"symlink to a marker", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			writeMarker("pebble\n")(t, target)
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"fifo", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			user := filepath.Join(dir, "thesis.tex")
			if err := os.WriteFile(user, []byte("years of work"), 0o644); err != nil {
				t.Fatal(err)
			}
			c.marker(t, filepath.Join(dir, MarkerFile))
			state, err := PrepareDir(&Config{Binding: "pebble", Dir: dir, Fresh: true})
			_, statErr := os.Stat(user)
			if c.empty {
				if err != nil || state != DirEmptied || statErr == nil {
					t.Fatalf("state %q, err %v, user file left: %v", state, err, statErr == nil)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "refusing to empty it") {
				t.Fatalf("state %q, err %v: want a refusal", state, err)
			}
			if statErr != nil {
				t.Fatalf("engine.fresh removed the user's file: %v", statErr)
			}
			// Nor is it taken for an engine's name without engine.fresh.
			_, err = PrepareDir(&Config{Binding: "pebble", Dir: dir})
			if err == nil || strings.Contains(err.Error(), "my notes") || strings.Contains(err.Error(), "holds a ") {
				t.Fatalf("without engine.fresh: %v", err)
			}
		})
	}
}

func writeMarker(text string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
