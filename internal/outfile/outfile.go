// Package outfile writes the files a command is told to write (exportfile,
// report.json, -o, -html, -log file=, cpuprofile, ...) under one rule, the
// one cp and shells follow: what stands at the path decides how it is
// written, and nothing there is destroyed.
//
//   - A regular file, or a name where nothing stands: Write writes a
//     temporary file beside it and renames it into place, so a failure never
//     leaves half a report. A new file gets mode 0666 less the umask, as
//     every tool's does; a replaced file keeps its mode (and, where the
//     process may, its owner and group), as editors keep it.
//   - A device or a FIFO: written through, opened for writing where it
//     stands, never renamed over. Opening a FIFO waits for its reader, as a
//     shell's redirection does.
//   - One of the process's own descriptors (/dev/stdout, /dev/stderr,
//     /dev/fd/N, /proc/self/fd/N): written through that descriptor, at its
//     offset, so `> out.txt` keeps what was printed before the report.
//   - A symbolic link: followed; the file it names is replaced (in that
//     file's directory) or written through, and the link stays. A dangling
//     link creates the file it names.
//
// A socket or a directory is refused. Check finds out, before a command
// does any work, whether the path can be written, without opening it (an
// open of a FIFO would wait for a reader) and without changing anything.
// Errors are one line naming the path as given.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/goycsb/ycsb/internal/oserr"
)

// maxLinks is how many symbolic links a path may pass through, as the
// kernel's limit (MAXSYMLINKS on Linux) has it.
const maxLinks = 40

// Write writes what write produces to path, by the package's rule: a
// regular file or a new name is replaced whole or left untouched; a
// device, a FIFO or a descriptor is written through. Its errors name path
// or a directory, never the temporary file.
func Write(path string, write func(io.Writer) error) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.fd >= 0 || t.info != nil && !t.info.Mode().IsRegular() {
		f, err := t.open(path, 0)
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return describe(path, err)
		}
		if err := f.Close(); err != nil {
			return describe(path, err)
		}
		return nil
	}
	return replace(path, t, write)
}

// WriteBytes writes data to path as Write does.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Create opens path for an output written as it goes (a log, a profile):
// a regular file is truncated where it stands (keeping its mode) or
// created (0666 less the umask); a device, a FIFO or a descriptor is
// written through.
func Create(path string) (*os.File, error) {
	return openInPlace(path, os.O_TRUNC)
}

// Append opens path as Create does, but adds to a regular file's end.
func Append(path string) (*os.File, error) {
	return openInPlace(path, os.O_APPEND)
}

func openInPlace(path string, flag int) (*os.File, error) {
	t, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if t.info == nil && t.fd < 0 {
		flag |= os.O_CREATE
	}
	return t.open(path, flag)
}

// Check says why Write cannot write path, or nil, before any work is done:
// the directory of the file path names (links followed) exists and takes
// a new file (a temporary one, created and removed at once), an existing
// file may be written, a descriptor is open for writing, and path names
// no directory or socket. Nothing at path is opened or changed.
func Check(path string) error { return check(path, false) }

// CheckInPlace is Check for Create and Append, which need no new file
// beside an existing one.
func CheckInPlace(path string) error { return check(path, true) }

func check(path string, inPlace bool) error {
	if path == "" {
		return errors.New("no file name")
	}
	if err := checkDir(path); err != nil {
		return err
	}
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.fd >= 0 {
		fl, err := unix.FcntlInt(uintptr(t.fd), unix.F_GETFL, 0)
		switch {
		case err != nil:
			return fmt.Errorf("%s: descriptor %d is not open", path, t.fd)
		case fl&unix.O_ACCMODE == unix.O_RDONLY:
			return fmt.Errorf("%s: descriptor %d is open for reading only", path, t.fd)
		}
		return nil
	}
	if t.path != path {
		if err := checkDir(t.path); err != nil {
			return fmt.Errorf("%s links to %s: %v", path, t.path, err)
		}
	}
	if t.info != nil {
		mode := t.info.Mode()
		switch {
		case mode.IsDir():
			return fmt.Errorf("%s is a directory, want a file name", path)
		case mode&fs.ModeSocket != 0:
			return fmt.Errorf("%s is a socket, which cannot be opened as a file; give a file, a device or a FIFO", path)
		}
		// access(2), not open(2): opening a FIFO would wait for a reader.
		if err := unix.Faccessat(unix.AT_FDCWD, t.path, unix.W_OK, unix.AT_EACCESS); err != nil {
			return fmt.Errorf("cannot write %s: %v", path, err)
		}
		if !mode.IsRegular() || inPlace {
			return nil
		}
	}
	return canCreate(t.path)
}

// WrittenThrough says whether path names (links followed) a device, a
// FIFO or one of the process's descriptors, which Write writes through
// rather than replaces: nothing there is a file to read back or to keep
// apart from another output.
func WrittenThrough(path string) bool {
	t, err := resolve(path)
	return err == nil && (t.fd >= 0 || t.info != nil && !t.info.Mode().IsRegular() && !t.info.IsDir())
}

// checkDir says why the directory path would be in cannot hold it.
func checkDir(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("directory %s: %v", dir, oserr.Reason(err))
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// canCreate says why no new file can be created beside path, or nil: it
// creates one and removes it, leaving nothing behind.
func canCreate(path string) error {
	f, err := createTemp(path, ".check")
	if err != nil {
		return err
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// target is what a path names once its links are followed.
type target struct {
	path string      // the file the path names: the path itself unless it is a link
	fd   int         // one of the process's descriptors, or -1
	info fs.FileInfo // the file at path (not a link); nil when there is none
}

// resolve follows path's symbolic links to the file they name, stopping at
// one of the process's own descriptors (/dev/stdout is a link to
// /proc/self/fd/1, itself a link to whatever fd 1 is).
func resolve(path string) (target, error) {
	p := path
	for links := 0; ; links++ {
		if fd, ok := ownDescriptor(p); ok {
			return target{path: p, fd: fd}, nil
		}
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return target{path: p, fd: -1}, nil
		case err != nil:
			return target{}, fmt.Errorf("%s: %v", path, oserr.Reason(err))
		case fi.Mode()&fs.ModeSymlink == 0:
			return target{path: p, fd: -1, info: fi}, nil
		case links == maxLinks:
			return target{}, fmt.Errorf("%s: %v", path, syscall.ELOOP)
		}
		link, err := os.Readlink(p)
		if err != nil {
			return target{}, fmt.Errorf("%s: %v", path, oserr.Reason(err))
		}
		if !filepath.IsAbs(link) {
			// Relative to the link's directory as the kernel finds it,
			// which a lexical ".." in the link would miss.
			dir, err := filepath.EvalSymlinks(filepath.Dir(p))
			if err != nil {
				return target{}, fmt.Errorf("%s: %v", path, oserr.Reason(err))
			}
			link = filepath.Join(dir, link)
		}
		p = link
	}
}

// ownDescriptor says whether path names one of the process's open file
// descriptors: /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N or
// /proc/PID/fd/N for this process.
func ownDescriptor(path string) (int, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	dir, name := filepath.Split(abs)
	fd, err := strconv.Atoi(name)
	if err != nil || fd < 0 || strconv.Itoa(fd) != name {
		return 0, false
	}
	switch dir = strings.TrimSuffix(dir, "/"); dir {
	case "/dev/fd", "/proc/self/fd", "/proc/thread-self/fd", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd":
		return fd, true
	}
	return 0, false
}

// open opens t, which path named, for writing where it stands: a
// descriptor is duplicated, anything else opened with flag added.
func (t target) open(path string, flag int) (*os.File, error) {
	if t.fd >= 0 {
		fd, err := unix.FcntlInt(uintptr(t.fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("cannot write %s: descriptor %d: %v", path, t.fd, err)
		}
		return os.NewFile(uintptr(fd), path), nil
	}
	f, err := os.OpenFile(t.path, os.O_WRONLY|flag, 0o666)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %v", path, oserr.Reason(err))
	}
	return f, nil
}

// replace writes a temporary file beside t (a regular file or nothing)
// and renames it over t.
func replace(path string, t target, write func(io.Writer) error) error {
	tmp, err := createTemp(t.path, "")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if t.info != nil {
		keepMode(tmp, t.info)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return describe(path, err)
	}
	if err := tmp.Close(); err != nil {
		return describe(path, err)
	}
	if err := os.Rename(tmp.Name(), t.path); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, oserr.Reason(err))
	}
	return nil
}

// keepMode gives the new file f the mode of the file it replaces, and its
// owner and group where the process may (the owner first: a chown clears
// the set-id bits).
func keepMode(f *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		f.Chown(int(st.Uid), int(st.Gid)) // refused unless root or the same owner: the file is then the process's
	}
	f.Chmod(old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
}

// createTemp creates a new hidden file beside path, named after it
// (".report.json.<random>", kind before the random part), with mode 0666
// less the umask (os.CreateTemp's is 0600).
func createTemp(path, kind string) (*os.File, error) {
	dir := filepath.Dir(path)
	for range 100 {
		name := filepath.Join(dir, "."+filepath.Base(path)+kind+"."+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("cannot create a file in %s: %v", dir, oserr.Reason(err))
		}
		return f, nil
	}
	return nil, fmt.Errorf("cannot create a file in %s: no free temporary name", dir)
}

// describe names path in an error of the writer, which may name the
// temporary file or the descriptor.
func describe(path string, err error) error {
	if r := oserr.Reason(err); r != err {
		return fmt.Errorf("cannot write %s: %v", path, r)
	}
	return err
}
