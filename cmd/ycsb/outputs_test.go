package main

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// outputRun runs the binary with args and returns its stdout, stderr and
// exit code.
func outputRun(t *testing.T, bin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
}

// smallRun is a short run of the basic binding with extra -p properties.
func smallRun(props ...string) []string {
	args := []string{"run", "basic", "-P", "../../workloads/workloada", "-p", "operationcount=20"}
	for _, p := range props {
		args = append(args, "-p", p)
	}
	return args
}

// TestOutputPaths: every output is written by what stands at its path: a
// FIFO's reader gets the whole report, a link's target is replaced and the
// link kept, a regular file is replaced by a rename and keeps its mode, a
// new file takes the umask, and a device stays a device.
func TestOutputPaths(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	bin := ycsbtest.Binary(t)
	old := syscall.Umask(0o027) // the children inherit it
	defer syscall.Umask(old)

	t.Run("FIFO with a reader", func(t *testing.T) {
		dir := t.TempDir()
		text, report := filepath.Join(dir, "text.fifo"), filepath.Join(dir, "report.fifo")
		for _, p := range []string{text, report} {
			if err := unix.Mkfifo(p, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}
		got := map[string]chan []byte{text: make(chan []byte, 1), report: make(chan []byte, 1)}
		for p, ch := range got {
			go func() {
				b, _ := os.ReadFile(p) // opens once the run opens it for writing
				ch <- b
			}()
		}
		_, stderr, code := outputRun(t, bin, smallRun("exportfile="+text, "report.json="+report)...)
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		for _, p := range []string{text, report} {
			if fi, err := os.Lstat(p); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
				// Its reader waits for a writer that will never come.
				t.Fatalf("%s is no longer a FIFO (%v)", p, err)
			}
		}
		if b := <-got[text]; !bytes.Contains(b, []byte("[OVERALL], RunTime(ms), ")) || !bytes.Contains(b, []byte("[UPDATE], Return=OK, ")) {
			t.Errorf("the exportfile FIFO's reader got:\n%s", b)
		}
		var doc map[string]any
		if b := <-got[report]; json.Unmarshal(b, &doc) != nil || doc["operations"] != 20.0 {
			t.Errorf("the report.json FIFO's reader got no whole report:\n%s", b)
		}
	})

	t.Run("symlink", func(t *testing.T) {
		dir, other := t.TempDir(), t.TempDir()
		target := filepath.Join(other, "real.txt")
		os.WriteFile(target, []byte("old"), 0o600)
		link := filepath.Join(dir, "report.txt")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := outputRun(t, bin, smallRun("exportfile="+link)...); code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v", err)
		}
		if b, _ := os.ReadFile(target); !bytes.Contains(b, []byte("[OVERALL], RunTime(ms), ")) {
			t.Errorf("the link's target holds %q", b)
		}
		wantPerm(t, target, 0o600)
		if entries, _ := os.ReadDir(other); len(entries) != 1 {
			t.Errorf("%d entries beside the target, want it alone", len(entries))
		}
	})

	t.Run("regular file replaced by a rename, mode kept", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "report.json")
		os.WriteFile(path, []byte("an old report"), 0o600)
		os.Chmod(path, 0o604) // not what the umask gives
		oldFile, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer oldFile.Close()
		if _, stderr, code := outputRun(t, bin, smallRun("report.json="+path)...); code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		if b, _ := io.ReadAll(oldFile); string(b) != "an old report" {
			t.Errorf("the old file was rewritten in place: %q", b)
		}
		if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(`"operations": 20`)) {
			t.Errorf("the file holds %q", b)
		}
		wantPerm(t, path, 0o604)
	})

	t.Run("new files take the umask", func(t *testing.T) {
		dir := t.TempDir()
		export, report := filepath.Join(dir, "export.txt"), filepath.Join(dir, "r.json")
		if _, stderr, code := outputRun(t, bin, smallRun("exportfile="+export, "report.json="+report)...); code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		merged, page := filepath.Join(dir, "merged.json"), filepath.Join(dir, "page.html")
		if _, stderr, code := outputRun(t, bin, "merge", "-o", merged, report); code != 0 {
			t.Fatalf("merge: exit %d:\n%s", code, stderr)
		}
		if _, stderr, code := outputRun(t, bin, "report", "--html", "-o", page, report); code != 0 {
			t.Fatalf("report: exit %d:\n%s", code, stderr)
		}
		for _, p := range []string{export, report, merged, page} {
			wantPerm(t, p, 0o640)
		}
	})

	t.Run("/dev/stdout written at its offset", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "out.txt")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		io.WriteString(f, "printed before\n")
		cmd := exec.Command(bin, smallRun("exportfile=/dev/stdout")...)
		cmd.Stdout = f
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v:\n%s", err, stderr.String())
		}
		b, _ := os.ReadFile(path)
		if !bytes.HasPrefix(b, []byte("printed before\n")) || !bytes.Contains(b, []byte("[OVERALL], RunTime(ms), ")) {
			t.Errorf("stdout's file holds %q", b)
		}
		wantMode(t, path, 0)
	})

	t.Run("/dev/null stays a device", func(t *testing.T) {
		if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode().Type() != fs.ModeDevice|fs.ModeCharDevice {
			t.Skipf("/dev/null is not a character device here: %v", err)
		}
		guardDevice(t, "/dev/null", 3)
		if _, stderr, code := outputRun(t, bin, smallRun("exportfile=/dev/null", "report.json=/dev/null")...); code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		wantMode(t, "/dev/null", fs.ModeDevice|fs.ModeCharDevice)
	})

	t.Run("device node made here", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("mknod needs root: the device node case is covered by /dev/null above")
		}
		node := filepath.Join(t.TempDir(), "null")
		if err := unix.Mknod(node, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
			t.Skipf("mknod: %v (this file system takes no device nodes)", err)
		}
		if _, stderr, code := outputRun(t, bin, smallRun("exportfile="+node, "report.json="+node)...); code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		wantMode(t, node, fs.ModeDevice|fs.ModeCharDevice)
		var st unix.Stat_t
		if err := unix.Stat(node, &st); err != nil || unix.Major(st.Rdev) != 1 || unix.Minor(st.Rdev) != 3 {
			t.Errorf("the node is no longer 1,3: %v", err)
		}
	})
}

// TestOutputWriteFails: an output that takes no byte (/dev/full) fails the
// command with exit code 1 and one line naming the path as typed; the
// device stays. The exportfile's report goes to stdout instead, as the
// documentation says.
func TestOutputWriteFails(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	if fi, err := os.Stat("/dev/full"); err != nil || fi.Mode().Type() != fs.ModeDevice|fs.ModeCharDevice {
		t.Skipf("no /dev/full here: %v", err)
	}
	guardDevice(t, "/dev/full", 7)
	bin := ycsbtest.Binary(t)
	report := filepath.Join(t.TempDir(), "r.json")
	if _, stderr, code := outputRun(t, bin, smallRun("report.json="+report)...); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{smallRun("exportfile=/dev/full"), "ycsb: exportfile: cannot write /dev/full: no space left on device; the text report is on stdout"},
		{smallRun("report.json=/dev/full"), "ycsb: report.json: cannot write /dev/full: no space left on device"},
		{smallRun("cpuprofile=/dev/full"), "ycsb: cpuprofile: cannot write /dev/full: no space left on device"},
		{smallRun("measurementtype=raw", "measurement.raw.output_file=/dev/full"), "ycsb: measurement.raw.output_file: cannot write /dev/full: no space left on device"},
		{[]string{"merge", "-o", "/dev/full", report}, "ycsb: -o /dev/full: cannot write /dev/full: no space left on device"},
		{[]string{"report", "--html", "-o", "/dev/full", report}, "ycsb: -o /dev/full: cannot write /dev/full: no space left on device"},
	} {
		stdout, stderr, code := outputRun(t, bin, tc.args...)
		name := strings.Join(tc.args, " ")
		if code != 1 {
			t.Errorf("%s: exit %d, want 1:\n%s", name, code, stderr)
		}
		var lines []string
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, "cannot write") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 || lines[0] != tc.want {
			t.Errorf("%s: lines about the write %q, want one: %q", name, lines, tc.want)
		}
		if tc.args[0] == "run" && !strings.Contains(stdout, "[OVERALL], RunTime(ms), ") && !strings.Contains(stdout, "Total Operations") {
			t.Errorf("%s: no report on stdout:\n%s", name, stdout)
		}
	}
	wantMode(t, "/dev/full", fs.ModeDevice|fs.ModeCharDevice)
}

// guardDevice puts the system's device path (major 1, minor) back, if a
// run replaced it and the test may (as root): a failing test must not
// leave the machine without /dev/null.
func guardDevice(t *testing.T, path string, minor uint32) {
	t.Cleanup(func() {
		if fi, err := os.Lstat(path); err == nil && fi.Mode().Type() == fs.ModeDevice|fs.ModeCharDevice || os.Geteuid() != 0 {
			return
		}
		t.Errorf("%s was replaced; putting the device back", path)
		os.Remove(path)
		if err := unix.Mknod(path, unix.S_IFCHR|0o666, int(unix.Mkdev(1, minor))); err != nil {
			t.Errorf("mknod %s: %v", path, err)
		}
		os.Chmod(path, 0o666)
	})
}

func wantMode(t *testing.T, path string, typ fs.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != typ {
		t.Errorf("%s is %v, want %v", path, fi.Mode().Type(), typ)
	}
}

func wantPerm(t *testing.T, path string, perm fs.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != perm {
		t.Errorf("%s is %v, want a regular file %v", path, fi.Mode(), perm)
	}
}
