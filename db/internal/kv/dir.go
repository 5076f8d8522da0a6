package kv

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/goycsb/ycsb/internal/oserr"
)

// MarkerFile names the file a binding leaves in its data directory saying
// which engine wrote it. It is what makes engine.fresh safe: a directory is
// only emptied when it is empty already or carries this marker.
const MarkerFile = "YCSB-ENGINE"

// Dir states returned by PrepareDir, for the opening line.
const (
	DirCreated = "created"
	DirExisted = "reopened"
	DirEmptied = "emptied (engine.fresh=true)"
	// DirForeign is a database of this engine that another program wrote
	// (no marker): it is opened as it is, never marked as ours, and so
	// never emptied by engine.fresh.
	DirForeign = "reopened (written by another program: engine.fresh will not empty it)"
)

// PrepareDir checks c.Dir before the engine opens it: it must be a writable
// directory that holds nothing or a database of this engine, and not be in
// use by another process. With c.Fresh it is emptied first. It returns the
// state for the opening line. Errors are one line, prefixed with the binding.
func PrepareDir(c *Config) (string, error) {
	st, err := os.Stat(c.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(c.Dir, 0o755); err != nil {
			return "", fmt.Errorf("%s: %s %s: cannot create: %w", c.Binding, c.Name(PropDir), c.Dir, oserr.Reason(err))
		}
		return DirCreated, checkWritable(c)
	case err != nil:
		return "", fmt.Errorf("%s: %s %s: %w", c.Binding, c.Name(PropDir), c.Dir, oserr.Reason(err))
	case !st.IsDir():
		return "", fmt.Errorf("%s: %s %s: not a directory", c.Binding, c.Name(PropDir), c.Dir)
	}
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		return "", fmt.Errorf("%s: %s %s: %w", c.Binding, c.Name(PropDir), c.Dir, oserr.Reason(err))
	}
	if len(entries) == 0 {
		return DirCreated, checkWritable(c)
	}
	if err := checkNotLocked(c); err != nil {
		return "", err
	}
	// Only our marker makes a directory ours. The engines' file names
	// (CURRENT, IDENTITY, marker.*) are shared with LevelDB, RocksDB and
	// Pebble stores of other programs, so they only word the refusals.
	marked := MarkerOwner(c.Dir)
	if c.Fresh {
		if marked == "" {
			what := "holds no benchmark database"
			if DetectEngine(c.Dir) != "" {
				what = "looks like a LevelDB, RocksDB or Pebble store without this benchmark's " + MarkerFile + " file (another program's, or one to remove by hand)"
			}
			return "", fmt.Errorf("%s: %s %s is not empty and %s; refusing to empty it for engine.fresh=true", c.Binding, c.Name(PropDir), c.Dir, what)
		}
		for _, e := range entries {
			if err := os.RemoveAll(filepath.Join(c.Dir, e.Name())); err != nil {
				return "", fmt.Errorf("%s: engine.fresh: cannot empty %s: %w", c.Binding, c.Dir, oserr.Reason(err))
			}
		}
		return DirEmptied, checkWritable(c)
	}
	owner := marked
	if owner == "" {
		owner = DetectEngine(c.Dir)
	}
	switch {
	case owner == c.Binding && marked == "":
		return DirForeign, checkWritable(c)
	case owner == c.Binding:
		return DirExisted, checkWritable(c)
	case owner == "":
		return "", fmt.Errorf("%s: %s %s is not empty and holds no %s database; choose an empty or new directory", c.Binding, c.Name(PropDir), c.Dir, c.Binding)
	default:
		return "", fmt.Errorf("%s: %s %s holds a %s database; use another %s, or engine.fresh=true to empty it if this benchmark created it", c.Binding, c.Name(PropDir), c.Dir, owner, c.Name(PropDir))
	}
}

// markerEngines are the names WriteMarker writes, one per binding.
var markerEngines = []string{"pebble", "rocksdb", "badger", "bbolt", "sqlite"}

// markerText is the whole content of the marker WriteMarker writes.
func markerText(binding string) string { return binding + "\n" }

// MarkerOwner is the engine named by dir's marker file, "" unless it is
// the marker WriteMarker writes: a regular file (not a symlink, a
// directory or a FIFO, which is opened without waiting for a writer) whose
// whole content is an engine's name and a newline. Anything else is the
// user's, and must not let engine.fresh empty the directory.
func MarkerOwner(dir string) string {
	f, err := os.OpenFile(filepath.Join(dir, MarkerFile), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	var buf [32]byte // more than any marker: a longer file is not one
	n, _ := io.ReadFull(f, buf[:])
	for _, e := range markerEngines {
		if string(buf[:n]) == markerText(e) {
			return e
		}
	}
	return ""
}

// DetectEngine says which engine wrote dir: the marker if there is one,
// else the engines' own file names. "" means neither.
func DetectEngine(dir string) string {
	if name := MarkerOwner(dir); name != "" {
		return name
	}
	entries, _ := os.ReadDir(dir)
	var rocks, pebble, badger, bolt, sqlite bool
	for _, e := range entries {
		switch n := e.Name(); {
		case n == "IDENTITY" || n == "CURRENT":
			rocks = true
		case strings.HasPrefix(n, "marker."):
			pebble = true
		case n == "KEYREGISTRY":
			badger = true
		case n == BoltFile:
			bolt = true
		case n == SQLiteFile:
			sqlite = true
		}
	}
	switch {
	case rocks:
		return "rocksdb"
	case pebble:
		return "pebble"
	case badger:
		return "badger"
	case bolt:
		return "bbolt"
	case sqlite:
		return "sqlite"
	}
	return ""
}

// The single-file engines' file names in engine.dir.
const (
	BoltFile   = "bbolt.db"
	SQLiteFile = "ycsb.sqlite"
)

// WriteMarker records in c.Dir that c.Binding owns it. Called after the
// engine opened the directory, with PrepareDir's state: a database another
// program wrote (DirForeign) is never marked.
func WriteMarker(c *Config, state string) error {
	if state == DirForeign {
		return nil
	}
	if MarkerOwner(c.Dir) == c.Binding {
		return nil
	}
	// Never through a symlink: the marker is a file of the directory.
	f, err := os.OpenFile(filepath.Join(c.Dir, MarkerFile), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err == nil {
		_, err = f.WriteString(markerText(c.Binding))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %s: %w", c.Binding, c.Dir, oserr.Reason(err))
	}
	return nil
}

// checkWritable creates and removes a probe file, so a read-only directory
// fails here with a plain message and not inside the engine.
func checkWritable(c *Config) error {
	f, err := os.CreateTemp(c.Dir, ".ycsb-probe-*")
	if err != nil {
		return fmt.Errorf("%s: %s %s is not writable: %w", c.Binding, c.Name(PropDir), c.Dir, oserr.Reason(err))
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// checkNotLocked tries the engines' own locks so that another process's
// database is reported as such, and never emptied by engine.fresh: Pebble
// and RocksDB take a POSIX record lock on dir/LOCK, Badger (and LockDir, for
// SQLite) flock it, Badger flocks the directory itself, bbolt its file.
//
// A POSIX lock is per process: closing the probe would drop a lock this
// process holds on the same file. A process opens each data directory once,
// so that cannot happen in a run.
func checkNotLocked(c *Config) error {
	for _, name := range []string{"LOCK", BoltFile, "."} {
		mode := os.O_RDWR
		if name == "." {
			mode = os.O_RDONLY
		}
		f, err := os.OpenFile(filepath.Join(c.Dir, name), mode, 0)
		if err != nil {
			continue // no such file: nobody holds it
		}
		lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0}
		if name == "LOCK" && syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk) == nil && lk.Type != syscall.F_UNLCK {
			f.Close()
			return fmt.Errorf("%s: %s %s is in use by another process (pid %d holds its LOCK)", c.Binding, c.Name(PropDir), c.Dir, lk.Pid)
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		f.Close() // drops the probe's flock
		if errors.Is(err, syscall.EWOULDBLOCK) {
			what := name
			if name == "." {
				what = "a lock on the directory"
			}
			return fmt.Errorf("%s: %s %s is in use by another process (it holds %s)", c.Binding, c.Name(PropDir), c.Dir, what)
		}
	}
	return nil
}

// LockDir takes an exclusive flock on dir/LOCK for an engine that does not
// lock its directory itself (SQLite lets processes share a database), so
// that a second run, or engine.fresh, cannot use a directory in use. The
// lock lasts until the returned file is closed.
func LockDir(c *Config) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(c.Dir, "LOCK"), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", c.Binding, c.Name(PropDir), c.Dir, oserr.Reason(err))
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %s %s is in use by another process (it holds LOCK)", c.Binding, c.Name(PropDir), c.Dir)
	}
	return f, nil
}

// LockedError turns an engine's lock failure into the same message as
// checkNotLocked, for the race where the lock was taken after the check.
func LockedError(c *Config, err error) error {
	s := err.Error()
	if strings.Contains(strings.ToLower(s), "lock") && (strings.Contains(s, "temporarily unavailable") || errors.Is(err, errLockTimeout) || strings.Contains(s, "held") || errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES)) {
		return fmt.Errorf("%s: %s %s is in use by another process: %s", c.Binding, c.Name(PropDir), c.Dir, oneLine(s))
	}
	return fmt.Errorf("%s: open %s: %s", c.Binding, c.Dir, oneLine(s))
}

// errLockTimeout is what a binding whose engine waits for its lock with a
// timeout (bbolt) wraps into its error when the wait ran out.
var errLockTimeout = errors.New("lock held by another process")

// ErrLockTimeout wraps err (the engine's timeout on its lock) so that
// LockedError words it as a directory in use.
func ErrLockTimeout(err error) error { return fmt.Errorf("%w: %w", errLockTimeout, err) }

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// CloseError is the error of closing c's engine: nil, or err named for the
// binding.
func CloseError(c *Config, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: close: %w", c.Binding, err)
}
