package outfile

import (
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// withUmask runs the test under umask mask, restoring the old one after.
func withUmask(t *testing.T, mask int) {
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// names lists dir's entries, to find a temporary file left behind.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// mknod makes a character device node in dir with /dev/null's (1,3) or
// /dev/full's (1,7) numbers; only root may.
func mknod(t *testing.T, path string, minor uint32) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("creating a device node needs root")
	}
	if err := unix.Mknod(path, unix.S_IFCHR|0o666, int(unix.Mkdev(1, minor))); err != nil {
		t.Skipf("mknod %s: %v (no device nodes here)", path, err)
	}
}

// TestWriteByKind writes over each kind of thing a path may name and says
// what stands there after.
func TestWriteByKind(t *testing.T) {
	withUmask(t, 0o027)
	tests := []struct {
		name string
		// setup makes what stands at the returned path in dir; other is a
		// second directory for a link's target.
		setup func(t *testing.T, dir, other string) string
		// check looks at the path and dir after "report" was written.
		check func(t *testing.T, path, dir, other string)
	}{
		{"new file: 0666 less the umask", func(t *testing.T, dir, _ string) string {
			return filepath.Join(dir, "r.json")
		}, func(t *testing.T, path, dir, _ string) {
			wantFile(t, path, "report", 0o640)
		}},
		{"regular file: replaced, its mode kept", func(t *testing.T, dir, _ string) string {
			p := filepath.Join(dir, "r.json")
			os.WriteFile(p, []byte("an old report, longer"), 0o604)
			os.Chmod(p, 0o604)
			return p
		}, func(t *testing.T, path, dir, _ string) {
			wantFile(t, path, "report", 0o604)
		}},
		{"symlink: the file it names replaced in its own directory, the link kept", func(t *testing.T, dir, other string) string {
			os.WriteFile(filepath.Join(other, "real.json"), []byte("old"), 0o600)
			p := filepath.Join(dir, "r.json")
			os.Symlink(filepath.Join(other, "real.json"), p)
			return p
		}, func(t *testing.T, path, dir, other string) {
			wantLink(t, path)
			wantFile(t, filepath.Join(other, "real.json"), "report", 0o600)
		}},
		{"relative symlink through a linked directory", func(t *testing.T, dir, other string) string {
			os.Mkdir(filepath.Join(other, "sub"), 0o755)
			os.WriteFile(filepath.Join(other, "real.json"), []byte("old"), 0o640)
			os.Symlink(filepath.Join(other, "sub"), filepath.Join(dir, "linkdir"))
			// linkdir/../real.json is other/real.json to the kernel,
			// dir/real.json to a lexical reading.
			os.Symlink("../real.json", filepath.Join(other, "sub", "r.json"))
			return filepath.Join(dir, "linkdir", "r.json")
		}, func(t *testing.T, path, dir, other string) {
			wantLink(t, path)
			wantFile(t, filepath.Join(other, "real.json"), "report", 0o640)
			if _, err := os.Lstat(filepath.Join(dir, "real.json")); err == nil {
				t.Error("the link was read lexically: dir/real.json created")
			}
		}},
		{"dangling symlink: creates the file it names", func(t *testing.T, dir, other string) string {
			p := filepath.Join(dir, "r.json")
			os.Symlink(filepath.Join(other, "new.json"), p)
			return p
		}, func(t *testing.T, path, dir, other string) {
			wantLink(t, path)
			wantFile(t, filepath.Join(other, "new.json"), "report", 0o640)
		}},
		{"own descriptor: written at its offset", func(t *testing.T, dir, _ string) string {
			f, err := os.OpenFile(filepath.Join(dir, "stdout.txt"), os.O_RDWR|os.O_CREATE, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			io.WriteString(f, "printed before\n")
			return "/dev/fd/" + strconv.Itoa(int(f.Fd()))
		}, func(t *testing.T, path, dir, _ string) {
			wantFile(t, filepath.Join(dir, "stdout.txt"), "printed before\nreport", 0o600)
		}},
		{"device node: written through", func(t *testing.T, dir, _ string) string {
			p := filepath.Join(dir, "null")
			mknod(t, p, 3)
			return p
		}, func(t *testing.T, path, dir, _ string) {
			wantType(t, path, fs.ModeDevice|fs.ModeCharDevice)
		}},
		{"symlink to a device node: written through, both kept", func(t *testing.T, dir, other string) string {
			mknod(t, filepath.Join(other, "null"), 3)
			p := filepath.Join(dir, "r.json")
			os.Symlink(filepath.Join(other, "null"), p)
			return p
		}, func(t *testing.T, path, dir, other string) {
			wantLink(t, path)
			wantType(t, filepath.Join(other, "null"), fs.ModeDevice|fs.ModeCharDevice)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, other := t.TempDir(), t.TempDir()
			path := tc.setup(t, dir, other)
			before := len(names(t, dir)) + len(names(t, other))
			if err := Check(path); err != nil {
				t.Fatalf("Check: %v", err)
			}
			if n := len(names(t, dir)) + len(names(t, other)); n != before {
				t.Fatalf("Check left %d entries, there were %d", n, before)
			}
			if err := Write(path, writeString("report")); err != nil {
				t.Fatalf("Write: %v", err)
			}
			tc.check(t, path, dir, other)
			for _, d := range []string{dir, other} {
				for _, n := range names(t, d) {
					if strings.HasPrefix(n, ".") {
						t.Errorf("temporary file %s left in %s", n, d)
					}
				}
			}
		})
	}
}

// TestWriteFIFO: the reader of a FIFO gets the whole output, and the FIFO
// stays one.
func TestWriteFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := Check(path); err != nil { // must not open it: no reader yet
		t.Fatalf("Check: %v", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(path)
		got <- string(b)
	}()
	big := strings.Repeat("report line\n", 20000) // more than a pipe holds
	if err := Write(path, writeString(big)); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != big {
		t.Errorf("the reader got %d bytes, want %d", len(s), len(big))
	}
	wantType(t, path, fs.ModeNamedPipe)
}

// TestWriteFails: a device that takes nothing (/dev/full's numbers) fails
// the write with one line naming the path; nothing replaces it.
func TestWriteFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "full")
	mknod(t, path, 7)
	err := Write(path, writeString("report"))
	if want := "cannot write " + path + ": no space left on device"; err == nil || err.Error() != want {
		t.Errorf("Write = %v, want %q", err, want)
	}
	wantType(t, path, fs.ModeDevice|fs.ModeCharDevice)
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.WriteString(f, "x"); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Create's file took a write: %v", err)
	}
}

// TestFailedWriteKeepsTheFile: a failing writer leaves the old file and no
// temporary behind.
func TestFailedWriteKeepsTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := Write(path, writeString("one")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Fatalf("file holds %q after a failed write", b)
	}
	if n := names(t, dir); len(n) != 1 {
		t.Fatalf("entries %v, want the file alone", n)
	}
}

func TestCreateAndAppend(t *testing.T) {
	withUmask(t, 0o022)
	dir := t.TempDir()
	path := filepath.Join(dir, "log")
	for _, step := range []struct {
		open func(string) (*os.File, error)
		text string
		want string
	}{
		{Create, "one\n", "one\n"},
		{Append, "two\n", "one\ntwo\n"},
		{Create, "three\n", "three\n"},
	} {
		f, err := step.open(path)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, step.text)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		wantFile(t, path, step.want, 0o644)
	}
	os.Chmod(path, 0o600)
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	wantFile(t, path, "", 0o600) // truncated where it stands, mode kept
	// A link is followed; a descriptor is written at its offset.
	link := filepath.Join(dir, "link")
	os.Symlink(path, link)
	if f, err = Append(link); err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "via link")
	f.Close()
	wantLink(t, link)
	wantFile(t, path, "via link", 0o600)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if f, err = Create("/proc/self/fd/" + strconv.Itoa(int(w.Fd()))); err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "piped")
	f.Close()
	w.Close()
	if b, _ := io.ReadAll(r); string(b) != "piped" {
		t.Errorf("the pipe got %q", b)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, []byte("x"), 0o644)
	loop := filepath.Join(dir, "loop")
	os.Symlink(loop, loop)
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "no", "r.json"), dangling)
	linkToDir := filepath.Join(dir, "linkdir")
	os.Symlink(dir, linkToDir)
	sock := filepath.Join(dir, "sock")
	if ln, err := net.Listen("unix", sock); err == nil {
		defer ln.Close()
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	tests := []struct {
		path string
		want string // "" for accepted
	}{
		{filepath.Join(dir, "r.json"), ""},
		{file, ""},
		{"/dev/stdout", ""},
		{"/proc/self/fd/" + strconv.Itoa(int(w.Fd())), ""},
		{"/dev/fd/" + strconv.Itoa(int(r.Fd())), "/dev/fd/" + strconv.Itoa(int(r.Fd())) + ": descriptor " + strconv.Itoa(int(r.Fd())) + " is open for reading only"},
		{"/dev/fd/987", "/dev/fd/987: descriptor 987 is not open"},
		{"", "no file name"},
		{filepath.Join(dir, "no", "r.json"), "directory " + filepath.Join(dir, "no") + " does not exist"},
		{filepath.Join(file, "r.json"), file + " is not a directory"},
		{dir, dir + " is a directory, want a file name"},
		{linkToDir, linkToDir + " is a directory, want a file name"},
		{loop, loop + ": too many levels of symbolic links"},
		{dangling, dangling + " links to " + filepath.Join(dir, "no", "r.json") + ": directory " + filepath.Join(dir, "no") + " does not exist"},
		{sock, sock + " is a socket, which cannot be opened as a file; give a file, a device or a FIFO"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		tests = append(tests, struct{ path, want string }{filepath.Join(ro, "r.json"), "cannot create a file in " + ro + ": permission denied"})
		rofile := filepath.Join(dir, "rofile")
		os.WriteFile(rofile, nil, 0o444)
		tests = append(tests, struct{ path, want string }{rofile, "cannot write " + rofile + ": permission denied"})
	}
	before := names(t, dir)
	for _, tc := range tests {
		err := Check(tc.path)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("Check(%q) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if after := names(t, dir); len(after) != len(before) {
		t.Errorf("Check left %v, there was %v", after, before)
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
	err = Write(filepath.Join(unwritable, "r.json"), writeString(""))
	if err == nil || !strings.HasPrefix(err.Error(), "cannot create a file in "+unwritable+": ") || strings.Contains(err.Error(), ".r.json.") {
		t.Errorf("Write into a directory that takes no file = %v", err)
	}
	if err := Check(filepath.Join(unwritable, "r.json")); err == nil || !strings.HasPrefix(err.Error(), "cannot create a file in "+unwritable+": ") {
		t.Errorf("Check of a directory that takes no file = %v", err)
	}
}

func TestWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	link := filepath.Join(dir, "l")
	os.Symlink(file, link)
	nullLink := filepath.Join(dir, "n")
	os.Symlink("/dev/null", nullLink)
	fifo := filepath.Join(dir, "fifo")
	unix.Mkfifo(fifo, 0o600)
	for path, want := range map[string]bool{file: false, link: false, filepath.Join(dir, "new"): false, dir: false,
		"/dev/null": true, nullLink: true, fifo: true, "/dev/stdout": true, "/proc/self/fd/2": true} {
		if got := WrittenThrough(path); got != want {
			t.Errorf("WrittenThrough(%s) = %v, want %v", path, got, want)
		}
	}
}

func wantFile(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != mode {
		t.Errorf("%s is %v, want a regular file %v", path, fi.Mode(), mode)
	}
	if b, _ := os.ReadFile(path); string(b) != content {
		t.Errorf("%s holds %q, want %q", path, b, content)
	}
}

func wantLink(t *testing.T, path string) {
	t.Helper()
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("%s is no longer a link: %v", path, err)
	}
}

func wantType(t *testing.T, path string, typ fs.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != typ {
		t.Errorf("%s is %v, want %v", path, fi.Mode().Type(), typ)
	}
}

// TestReplaceIsARename: a regular file is replaced by a new one renamed
// over it, not rewritten where it stands: a reader of the old one still
// reads it whole.
func TestReplaceIsARename(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(path, []byte("old report"), 0o644)
	old, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := Write(path, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(old); string(b) != "old report" {
		t.Errorf("the old file now holds %q: rewritten in place", b)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("the path holds %q", b)
	}
}
