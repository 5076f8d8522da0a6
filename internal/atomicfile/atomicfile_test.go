package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }); err != nil {
		t.Fatal(err)
	}
	// A failing writer keeps the old file and leaves no temporary behind.
	boom := errors.New("boom")
	if err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Fatalf("file holds %q after a failed write", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d files in the directory, want 1", len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "r.json"), func(io.Writer) error { return nil }); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, []byte("x"), 0o644)
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	tests := []struct {
		path string
		want string // "" for accepted
	}{
		{filepath.Join(dir, "r.json"), ""},
		{file, ""}, // replaced by Write
		{filepath.Join(dir, "no", "r.json"), "directory " + filepath.Join(dir, "no") + " does not exist"},
		{filepath.Join(file, "r.json"), file + " is not a directory"},
		{dir, dir + " is a directory, want a file name"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		tests = append(tests, struct{ path, want string }{filepath.Join(ro, "r.json"), "cannot create a file in " + ro + ": permission denied"})
	}
	for _, tc := range tests {
		err := Check(tc.path)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("Check(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("Check left %d entries in the directory, want 2", len(entries))
	}
	// Write's errors name the directory, not the temporary file. /sys
	// takes no new file, even from root.
	unwritable := ro
	if os.Geteuid() == 0 {
		unwritable = "/sys"
	}
	if fi, err := os.Stat(unwritable); err != nil || !fi.IsDir() {
		t.Skipf("no directory that refuses new files: %v", err)
	}
	err := Write(filepath.Join(unwritable, "r.json"), func(io.Writer) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "cannot create a file in "+unwritable+": ") || strings.Contains(err.Error(), ".r.json.") {
		t.Errorf("Write into a directory that takes no file = %v", err)
	}
	if err := Check(filepath.Join(unwritable, "r.json")); err == nil || !strings.HasPrefix(err.Error(), "cannot create a file in "+unwritable+": ") {
		t.Errorf("Check of a directory that takes no file = %v", err)
	}
}
