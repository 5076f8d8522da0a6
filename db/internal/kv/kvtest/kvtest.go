// Package kvtest holds the checks the embedded engines must pass beyond
// dbtest: concurrent field updates, reopening, crash safety with a real
// SIGKILL, data directory errors, amplification and statistics, settling,
// and the benchmarks.
//
// A binding's tests call Main from TestMain (the crash and lock checks
// re-execute the test binary as a child process) and Run from a test.
package kvtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/dbtest"
	"github.com/goycsb/ycsb/db/internal/kv"
	"github.com/goycsb/ycsb/props"
)

// Opener opens the binding under test, as its driver does.
type Opener func(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error)

// Registered is the Opener of the driver that name (a binding's name or an
// alias) looks up, as the command line finds it. It panics unless name
// resolves to binding.
func Registered(name, binding string) Opener {
	return func(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
		d, got, err := db.Lookup(name)
		if err != nil || got != binding {
			panic(binding + " is not registered")
		}
		return d.Open(ctx, p, out)
	}
}

// Flusher is implemented by both engines' DBs: it writes the memtable to a
// table, so that merges are also checked across tables.
type Flusher interface{ Flush() error }

const (
	envRole = "YCSB_ENGINETEST_ROLE"
	envDir  = "YCSB_ENGINETEST_DIR"
	envSync = "YCSB_ENGINETEST_SYNC"
)

// Main runs the child role when the test binary was re-executed by a check,
// and the tests otherwise.
func Main(m *testing.M, open Opener) {
	if role := os.Getenv(envRole); role != "" {
		if err := child(role, os.Getenv(envDir), os.Getenv(envSync), open); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func child(role, dir, sync string, open Opener) error {
	if sync == "" {
		sync = "true"
	}
	d, err := open(context.Background(), props.FromMap(map[string]string{"engine.dir": dir, "engine.sync": sync}), io.Discard)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	switch role {
	case "hold":
		fmt.Fprintln(out, "ready")
		out.Flush()
		io.Copy(io.Discard, os.Stdin) // until the parent closes stdin
		return d.Close()
	case "load":
		ss, err := d.Session(context.Background(), 0, 1)
		if err != nil {
			return err
		}
		for i := 0; ; i++ {
			k := fmt.Sprintf("user%08d", i)
			if err := ss.Insert(context.Background(), "usertable", k, record(k, 0)); err != nil {
				return err
			}
			// Acknowledged: the insert returned (with engine.sync=false
			// it is in the engine's log or file, not yet on disk: a
			// process crash must not lose it, a machine crash may).
			fmt.Fprintln(out, k)
			out.Flush()
		}
	}
	return fmt.Errorf("unknown role %q", role)
}

func record(key string, version int) []db.Field {
	f := make([]db.Field, 10)
	for i := range f {
		f[i] = db.Field{Name: fmt.Sprintf("field%d", i), Value: []byte(fmt.Sprintf("%s:field%d:v%d", key, i, version))}
	}
	return f
}

func ctx() context.Context { return context.Background() }

func flag(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Run runs every check of an LSM engine with a memtable to flush and
// compaction debt to settle (Pebble, RocksDB). binding is the name the
// binding registers; other is another engine's name, whose files must be
// refused.
func Run(t *testing.T, binding, other string, open Opener) {
	h := &harness{binding: binding, other: other, open: open, lsm: true}
	h.run(t)
}

// RunStore runs the checks that hold for every engine (all but the
// memtable, compaction-debt and block cache ones) on an engine whose
// writes go straight to its store or that has no flush to call (Badger,
// bbolt, SQLite): ownRows are report rows of its own that must be there.
func RunStore(t *testing.T, binding, other string, open Opener, ownRows ...string) {
	h := &harness{binding: binding, other: other, open: open, ownRows: ownRows}
	h.run(t)
}

func (h *harness) run(t *testing.T) {
	t.Run("Conformance", func(t *testing.T) {
		dir := t.TempDir()
		drv, _, err := db.Lookup(h.binding)
		if err != nil {
			t.Fatal(err)
		}
		opts := dbtest.Options{Driver: drv, Props: h.openProps(dir, nil)}
		dbtest.Run(t, func(t *testing.T) db.DB { return h.mustOpen(t, dir, nil) }, opts)
	})
	t.Run("ConcurrentFieldUpdates", h.concurrentUpdates)
	t.Run("UpdateOfMissingKeyStaysMissing", h.updateMissing)
	t.Run("ReopenKeepsRecords", h.reopen)
	t.Run("Fresh", h.fresh)
	t.Run("DirErrors", h.dirErrors)
	t.Run("BadProperties", h.badProps)
	t.Run("LockedByAnotherProcess", h.locked)
	t.Run("SIGKILLLosesNoAcknowledgedInsert", func(t *testing.T) { h.sigkill(t, "true") })
	t.Run("SIGKILLLosesNoAcknowledgedInsertWithoutSync", func(t *testing.T) { h.sigkill(t, "false") })
	t.Run("Amplification", h.amplification)
	if h.lsm {
		t.Run("Stats", h.stats)
		t.Run("SettleLeavesNoDebt", h.settle)
		t.Run("NoSettleByDefault", h.noSettle)
		t.Run("SettleInterruptedThenAgain", h.settleInterrupted)
		t.Run("BlockCacheHoldsWhatFits", h.cacheFairness)
	} else {
		t.Run("OwnStats", h.ownStats)
		t.Run("Settle", h.settleStore)
	}
	t.Run("OpeningLine", h.openingLine)
}

type harness struct {
	binding, other string
	open           Opener
	lsm            bool
	ownRows        []string
}

func (h *harness) openProps(dir string, extra map[string]string) *props.Properties {
	m := map[string]string{"engine.dir": dir}
	if h.lsm {
		m["engine.cachesize"], m["engine.memtablesize"] = "8MiB", "4MiB"
	}
	for k, v := range extra {
		m[k] = v
	}
	return props.FromMap(m)
}

func (h *harness) mustOpen(t testing.TB, dir string, extra map[string]string) db.DB {
	t.Helper()
	d, err := h.open(ctx(), h.openProps(dir, extra), io.Discard)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	return d
}

func session(t testing.TB, d db.DB) db.Session {
	t.Helper()
	ss, err := d.Session(ctx(), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// flush flushes an engine's memtable; an engine with no Flush (its writes go
// to the store itself, or it flushes only on its own) is left as it is.
func flush(t testing.TB, d db.DB) {
	t.Helper()
	f, ok := d.(Flusher)
	if !ok {
		return
	}
	if err := f.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}

// concurrentUpdates has workers update disjoint fields of the same keys at
// the same time, with flushes in between so that merges meet tables as well
// as the memtable. Every worker's last value must survive.
func (h *harness) concurrentUpdates(t *testing.T) {
	d := h.mustOpen(t, t.TempDir(), nil)
	defer d.Close()
	const workers, rounds, keys = 4, 300, 5
	ss := session(t, d)
	for k := 0; k < keys; k++ {
		key := fmt.Sprintf("hot%d", k)
		if err := ss.Insert(ctx(), "usertable", key, record(key, 0)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers+1)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s, err := d.Session(ctx(), w, workers)
			if err != nil {
				errs <- err
				return
			}
			defer s.Close(ctx())
			var r db.Record
			for i := 1; i <= rounds; i++ {
				for k := 0; k < keys; k++ {
					key := fmt.Sprintf("hot%d", k)
					upd := []db.Field{{Name: fmt.Sprintf("field%d", w), Value: []byte(fmt.Sprintf("w%d-%d", w, i))}}
					if err := s.Update(ctx(), "usertable", key, upd); err != nil {
						errs <- err
						return
					}
				}
				if i%50 == 0 {
					r.Reset()
					if err := s.Read(ctx(), "usertable", "hot0", nil, &r); err != nil {
						errs <- fmt.Errorf("read during updates: %w", err)
						return
					}
					if r.Len() != 10 {
						errs <- fmt.Errorf("read during updates: %d fields", r.Len())
						return
					}
				}
			}
		}(w)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		f, ok := d.(Flusher)
		for i := 0; ok && i < 3; i++ {
			time.Sleep(20 * time.Millisecond)
			if err := f.Flush(); err != nil {
				errs <- err
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	check := func(when string) {
		for k := 0; k < keys; k++ {
			key := fmt.Sprintf("hot%d", k)
			var r db.Record
			if err := ss.Read(ctx(), "usertable", key, nil, &r); err != nil {
				t.Fatalf("%s: read %s: %v", when, key, err)
			}
			if r.Len() != 10 {
				t.Errorf("%s: %s has %d fields, want 10", when, key, r.Len())
			}
			for w := 0; w < 10; w++ {
				v, _ := r.Get(fmt.Sprintf("field%d", w))
				want := fmt.Sprintf("%s:field%d:v0", key, w)
				if w < workers {
					want = fmt.Sprintf("w%d-%d", w, rounds)
				}
				if string(v) != want {
					t.Errorf("%s: %s field%d = %q, want %q (an update was lost)", when, key, w, v, want)
				}
			}
		}
	}
	check("before flush")
	flush(t, d)
	check("after flush")
	ss.Close(ctx())
}

func (h *harness) updateMissing(t *testing.T) {
	d := h.mustOpen(t, t.TempDir(), nil)
	defer d.Close()
	ss := session(t, d)
	defer ss.Close(ctx())
	upd := []db.Field{{Name: "field1", Value: []byte("x")}}
	if err := ss.Update(ctx(), "usertable", "b-ghost", upd); err != nil {
		t.Fatalf("update of a missing key: %v", err)
	}
	for _, k := range []string{"a", "c"} {
		if err := ss.Insert(ctx(), "usertable", k, record(k, 0)); err != nil {
			t.Fatal(err)
		}
	}
	for _, when := range []string{"memtable", "flushed"} {
		var r db.Record
		if err := ss.Read(ctx(), "usertable", "b-ghost", nil, &r); db.StatusOf(err) != db.NotFound {
			t.Errorf("%s: read of an updated missing key: %v, want NOT_FOUND", when, err)
		}
		var rows db.Rows
		if err := ss.Scan(ctx(), "usertable", "a", 2, nil, &rows); err != nil {
			t.Fatal(err)
		}
		if rows.Len() != 2 || string(rows.At(0).Key) != "a" || string(rows.At(1).Key) != "c" {
			t.Errorf("%s: scan did not skip the update-only key", when)
		}
		flush(t, d)
	}
	// Deleted, then updated: still absent; inserted again: whole.
	if err := ss.Delete(ctx(), "usertable", "a"); err != nil {
		t.Fatal(err)
	}
	if err := ss.Update(ctx(), "usertable", "a", upd); err != nil {
		t.Fatal(err)
	}
	var r db.Record
	if err := ss.Read(ctx(), "usertable", "a", nil, &r); db.StatusOf(err) != db.NotFound {
		t.Errorf("read of a deleted then updated key: %v, want NOT_FOUND", err)
	}
	if err := ss.Insert(ctx(), "usertable", "a", record("a", 2)); err != nil {
		t.Fatal(err)
	}
	r.Reset()
	if err := ss.Read(ctx(), "usertable", "a", nil, &r); err != nil || r.Len() != 10 {
		t.Errorf("read after re-insert: %v, %d fields", err, r.Len())
	}
}

func (h *harness) reopen(t *testing.T) {
	dir := t.TempDir()
	const n = 2000
	d := h.mustOpen(t, dir, nil)
	ss := session(t, d)
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("user%05d", i)
		if err := ss.Insert(ctx(), "usertable", k, record(k, 0)); err != nil {
			t.Fatal(err)
		}
		if i == n/2 {
			flush(t, d)
		}
	}
	for i := 0; i < n; i += 7 {
		k := fmt.Sprintf("user%05d", i)
		if err := ss.Update(ctx(), "usertable", k, []db.Field{{Name: "field3", Value: []byte("updated")}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i += 11 {
		if err := ss.Delete(ctx(), "usertable", fmt.Sprintf("user%05d", i)); err != nil {
			t.Fatal(err)
		}
	}
	ss.Close(ctx())
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = h.mustOpen(t, dir, nil)
	defer d.Close()
	ss = session(t, d)
	defer ss.Close(ctx())
	var r db.Record
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("user%05d", i)
		r.Reset()
		err := ss.Read(ctx(), "usertable", k, nil, &r)
		if i%11 == 0 {
			if db.StatusOf(err) != db.NotFound {
				t.Fatalf("deleted %s after reopen: %v", k, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s after reopen: %v", k, err)
		}
		want := k + ":field3:v0"
		if i%7 == 0 {
			want = "updated"
		}
		if v, _ := r.Get("field3"); string(v) != want || r.Len() != 10 {
			t.Fatalf("%s after reopen: field3 %q (%d fields), want %q", k, v, r.Len(), want)
		}
	}
}

func (h *harness) fresh(t *testing.T) {
	dir := t.TempDir()
	d := h.mustOpen(t, dir, nil)
	ss := session(t, d)
	if err := ss.Insert(ctx(), "usertable", "k", record("k", 0)); err != nil {
		t.Fatal(err)
	}
	ss.Close(ctx())
	d.Close()
	d = h.mustOpen(t, dir, map[string]string{"engine.fresh": "true"})
	defer d.Close()
	ss = session(t, d)
	defer ss.Close(ctx())
	var r db.Record
	if err := ss.Read(ctx(), "usertable", "k", nil, &r); db.StatusOf(err) != db.NotFound {
		t.Fatalf("read after engine.fresh=true: %v, want NOT_FOUND", err)
	}
}

func (h *harness) wantOpenError(t *testing.T, p *props.Properties, wantSub string) error {
	t.Helper()
	d, err := h.open(ctx(), p, io.Discard)
	if err == nil {
		d.Close()
		t.Fatalf("open succeeded, want an error containing %q", wantSub)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	if !strings.Contains(msg, wantSub) {
		t.Errorf("error %q does not contain %q", msg, wantSub)
	}
	return err
}

func (h *harness) dirErrors(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "afile")
	os.WriteFile(file, []byte("x"), 0o644)
	t.Run("IsAFile", func(t *testing.T) {
		h.wantOpenError(t, h.openProps(file, nil), "not a directory")
	})
	t.Run("UnderAFile", func(t *testing.T) {
		h.wantOpenError(t, h.openProps(filepath.Join(file, "sub"), nil), "not a directory")
	})
	t.Run("OtherEngineMarker", func(t *testing.T) {
		dir := filepath.Join(base, "other")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, kv.MarkerFile), []byte(h.other+"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "000001.sst"), []byte("x"), 0o644)
		h.wantOpenError(t, h.openProps(dir, nil), "holds a "+h.other+" database")
	})
	t.Run("OtherEngineFiles", func(t *testing.T) {
		dir := filepath.Join(base, "otherfiles")
		os.MkdirAll(dir, 0o755)
		if h.other == "rocksdb" {
			os.WriteFile(filepath.Join(dir, "IDENTITY"), []byte("x"), 0o644)
			os.WriteFile(filepath.Join(dir, "CURRENT"), []byte("MANIFEST-000005\n"), 0o644)
		} else {
			os.WriteFile(filepath.Join(dir, "marker.format-version.000001.013"), nil, 0o644)
		}
		h.wantOpenError(t, h.openProps(dir, nil), "holds a "+h.other+" database")
	})
	// Directories of other programs that look like engine stores by their
	// file names: engine.fresh must refuse them and touch nothing, as only
	// a directory with our marker (or an empty one) is ever emptied.
	for _, c := range []struct {
		name  string
		files map[string]string
	}{
		{"LevelDB", map[string]string{"CURRENT": "MANIFEST-000001\n", "MANIFEST-000001": "x", "000003.log": "x", "LOG": "x", "notes.txt": "precious"}},
		{"RocksDB", map[string]string{"CURRENT": "MANIFEST-000005\n", "IDENTITY": "4c1b", "OPTIONS-000007": "x", "000004.sst": "x", "notes.txt": "precious"}},
		{"Pebble", map[string]string{"marker.format-version.000001.013": "", "MANIFEST-000001": "x", "notes.txt": "precious"}},
	} {
		t.Run("FreshRefuses"+c.name+"OfAnotherProgram", func(t *testing.T) {
			dir := filepath.Join(base, "foreign-"+c.name)
			os.MkdirAll(dir, 0o755)
			for name, body := range c.files {
				os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
			}
			h.wantOpenError(t, h.openProps(dir, map[string]string{"engine.fresh": "true"}), "refusing to empty it")
			entries, _ := os.ReadDir(dir)
			if len(entries) != len(c.files) {
				t.Fatalf("engine.fresh changed a directory it does not own: %d entries, want %d", len(entries), len(c.files))
			}
			for name, body := range c.files {
				if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != body {
					t.Fatalf("engine.fresh changed %s: %q, %v", name, b, err)
				}
			}
		})
	}
	t.Run("UnknownFilesNotEmptied", func(t *testing.T) {
		dir := filepath.Join(base, "home")
		os.MkdirAll(dir, 0o755)
		keep := filepath.Join(dir, "precious.txt")
		os.WriteFile(keep, []byte("x"), 0o644)
		h.wantOpenError(t, h.openProps(dir, map[string]string{"engine.fresh": "true"}), "refusing to empty it")
		if _, err := os.Stat(keep); err != nil {
			t.Fatalf("engine.fresh removed a file it did not own: %v", err)
		}
		h.wantOpenError(t, h.openProps(dir, nil), "holds no "+h.binding+" database")
	})
	if os.Geteuid() != 0 {
		t.Run("ReadOnly", func(t *testing.T) {
			dir := filepath.Join(base, "ro")
			os.MkdirAll(dir, 0o555)
			h.wantOpenError(t, h.openProps(dir, nil), "not writable")
		})
	}
}

func (h *harness) badProps(t *testing.T) {
	for _, c := range []struct{ name, value string }{
		{"engine.sync", "yes"},
		{"engine.cachesize", "lots"},
		{"engine.memtablesize", "1k"},
		{"engine.compression", "lz5"},
		{"engine.bloombits", "-1"},
		{"engine.blocksize", "12"},
		{"engine.maxopenfiles", "2"},
		{"engine.compactionthreads", "0"},
		{"engine.fresh", "maybe"},
		{"engine.dir", ""},
		{"engine.settle", "soon"},
		{"engine.settle.timeout", "0"},
		{"engine.settle.timeout", "90000"},
		{"engine.settle.timeout", "10m"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := h.wantOpenError(t, h.openProps(t.TempDir(), map[string]string{c.name: c.value}), c.name)
			if !props.IsBadInput(err) {
				t.Errorf("%v is not a property error (exit code 2)", err)
			}
		})
	}
}

func (h *harness) startChild(t *testing.T, role, dir, sync string) (*exec.Cmd, *bufio.Scanner, io.WriteCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envRole+"="+role, envDir+"="+dir, envSync+"="+sync)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(stdout), stdin
}

func (h *harness) locked(t *testing.T) {
	dir := t.TempDir()
	cmd, out, stdin := h.startChild(t, "hold", dir, "true")
	if !out.Scan() || out.Text() != "ready" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child did not open the database: %q", out.Text())
	}
	h.wantOpenError(t, h.openProps(dir, nil), "in use by another process")
	h.wantOpenError(t, h.openProps(dir, map[string]string{"engine.fresh": "true"}), "in use by another process")
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	d := h.mustOpen(t, dir, nil) // free again
	d.Close()
}

// sigkill kills a child process loading with engine.sync=sync mid-load:
// every insert it acknowledged must be there after a reopen, unless the
// engine's report says that with this engine.sync a write does not survive
// a crash of the process (SurvivesProcessCrash 0).
func (h *harness) sigkill(t *testing.T, sync string) {
	d := h.mustOpen(t, t.TempDir(), map[string]string{"engine.sync": sync})
	rows := statsOf(t, d)
	d.Close()
	if rows["SyncEachWrite"] != flag(sync == "true") {
		t.Errorf("SyncEachWrite = %v with engine.sync=%s", rows["SyncEachWrite"], sync)
	}
	switch rows["SurvivesProcessCrash"] {
	case int64(1):
	case int64(0):
		if sync == "true" {
			t.Fatal("SurvivesProcessCrash = 0 with engine.sync=true")
		}
		t.Skipf("%s says an acknowledged write does not survive a crash of the process with engine.sync=%s", h.binding, sync)
	default:
		t.Fatalf("no SurvivesProcessCrash row (%v): the binding must say what its writes survive (kv.Reporter.SetDurability)", rows["SurvivesProcessCrash"])
	}
	dir := t.TempDir()
	cmd, out, stdin := h.startChild(t, "load", dir, sync)
	defer stdin.Close()
	var acked []string
	deadline := time.Now().Add(3 * time.Second)
	for len(acked) < 300 && time.Now().Before(deadline) && out.Scan() {
		acked = append(acked, out.Text())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Lines already in the pipe were acknowledged before the kill too.
	for out.Scan() {
		acked = append(acked, out.Text())
	}
	cmd.Wait()
	if len(acked) == 0 {
		t.Fatal("child acknowledged no insert")
	}
	d = h.mustOpen(t, dir, nil)
	defer d.Close()
	ss := session(t, d)
	defer ss.Close(ctx())
	var r db.Record
	for _, k := range acked {
		r.Reset()
		if err := ss.Read(ctx(), "usertable", k, nil, &r); err != nil {
			t.Fatalf("acknowledged insert %s lost after SIGKILL (%d acknowledged): %v", k, len(acked), err)
		}
		if v, _ := r.Get("field9"); string(v) != k+":field9:v0" {
			t.Fatalf("%s after SIGKILL: field9 = %q", k, v)
		}
	}
	t.Logf("%d acknowledged inserts survived SIGKILL", len(acked))
}

func (h *harness) stats(t *testing.T) {
	dir := t.TempDir()
	d := h.mustOpen(t, dir, nil)
	defer d.Close()
	sr, ok := d.(db.StatsReporter)
	if !ok {
		t.Fatal("DB does not implement db.StatsReporter")
	}
	ss := session(t, d)
	for i := 0; i < 3000; i++ {
		k := fmt.Sprintf("user%05d", i)
		if err := ss.Insert(ctx(), "usertable", k, record(k, 0)); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, d)
	var r db.Record
	for i := 0; i < 3000; i += 3 {
		r.Reset()
		if err := ss.Read(ctx(), "usertable", fmt.Sprintf("user%05d", i), nil, &r); err != nil {
			t.Fatal(err)
		}
	}
	ss.Close(ctx())
	got := map[string]any{}
	for _, s := range sr.Stats() {
		if s.Section != kv.Section {
			t.Errorf("section %q, want %q", s.Section, kv.Section)
		}
		switch s.Value.(type) {
		case int64, float64:
		default:
			t.Errorf("%s: value %T, want int64 or float64", s.Name, s.Value)
		}
		got[s.Name] = s.Value
	}
	t.Logf("stats: %v", got)
	for _, n := range []string{"WriteAmplification", "ReadAmplification", "Flushes", "FlushBytesWritten", "Compactions",
		"CompactionBytesWritten", "BlockCacheHitRate(%)", "DiskSize(bytes)", "UserBytesWritten"} {
		if _, ok := got[n]; !ok {
			t.Errorf("missing stat %s", n)
		}
	}
	if got["Flushes"].(int64) < 1 || got["FlushBytesWritten"].(int64) <= 0 {
		t.Errorf("flush not counted: %v", got)
	}
	if got["UserBytesWritten"].(int64) < 3000*100 || got["WriteAmplification"].(float64) < 1 {
		t.Errorf("writes not counted: %v", got)
	}
	if got["ReadAmplification"].(int64) < 1 {
		t.Errorf("a flushed table does not count in read amplification: %v", got)
	}
	if got["DiskSize(bytes)"].(int64) <= 0 {
		t.Errorf("disk size not measured: %v", got)
	}
	if got["BlockCacheHits"].(int64)+got["BlockCacheMisses"].(int64) == 0 {
		t.Errorf("block cache lookups not counted: %v", got)
	}
}

// cacheFairness loads a data set far smaller than the default block cache,
// closes without a flush (as a load does), reopens with the default cache and
// memtable sizes and reads everything several times. Once the blocks are in,
// nearly every lookup must hit, on both engines: engine.cachesize must buy
// the same room for blocks whatever else an engine charges to its cache.
func (h *harness) cacheFairness(t *testing.T) {
	dir := t.TempDir()
	defaults := map[string]string{
		kv.PropCacheSize:    kv.FormatSize(kv.DefaultCacheSize),
		kv.PropMemtableSize: kv.FormatSize(kv.DefaultMemtableSize),
	}
	const n = 20000 // 10 fields of 100 bytes: about 20MB, a third of the cache
	value := []byte(strings.Repeat("v", 100))
	fields := make([]db.Field, 10)
	for i := range fields {
		fields[i] = db.Field{Name: fmt.Sprintf("field%d", i), Value: value}
	}
	d := h.mustOpen(t, dir, defaults)
	ss := session(t, d)
	for i := 0; i < n; i++ {
		if err := ss.Insert(ctx(), "usertable", fmt.Sprintf("user%05d", i), fields); err != nil {
			t.Fatal(err)
		}
	}
	ss.Close(ctx())
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = h.mustOpen(t, dir, defaults)
	defer d.Close()
	// The flush of the replayed WAL happens inside Open: docs/engines.md
	// says it is not the run's.
	for _, s := range d.(db.StatsReporter).Stats() {
		if (s.Name == "Flushes" || s.Name == "FlushBytesWritten") && s.Value.(int64) != 0 {
			t.Errorf("right after reopen %s = %d, want 0", s.Name, s.Value)
		}
	}
	ss = session(t, d)
	defer ss.Close(ctx())
	var r db.Record
	for pass := 0; pass < 3; pass++ {
		for i := 0; i < n; i++ {
			r.Reset()
			if err := ss.Read(ctx(), "usertable", fmt.Sprintf("user%05d", i), nil, &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	var hits, misses int64
	for _, s := range d.(db.StatsReporter).Stats() {
		switch s.Name {
		case "BlockCacheHits":
			hits = s.Value.(int64)
		case "BlockCacheMisses":
			misses = s.Value.(int64)
		}
	}
	rate := 100 * float64(hits) / float64(max(hits+misses, 1))
	t.Logf("block cache after reopen: %d hits, %d misses (%.1f%%)", hits, misses, rate)
	if rate < 90 {
		t.Errorf("block cache hit rate %.1f%% (%d hits, %d misses) on %d records read 3 times; want at least 90%%: "+
			"the default cache does not hold a data set that fits in it", rate, hits, misses, n)
	}
}

func (h *harness) openingLine(t *testing.T) {
	var out strings.Builder
	dir := filepath.Join(t.TempDir(), "data")
	d, err := h.open(ctx(), h.openProps(dir, nil), &out)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	line := out.String()
	if !strings.HasPrefix(line, h.binding+": created "+dir+" (sync=false") || strings.Count(line, "\n") != 1 {
		t.Errorf("opening line %q", line)
	}
}

// statsOf returns d's report rows by name.
func statsOf(t *testing.T, d db.DB) map[string]any {
	t.Helper()
	got := map[string]any{}
	for _, s := range d.(db.StatsReporter).Stats() {
		got[s.Name] = s.Value
	}
	return got
}

// writeL0 writes n records of 1KB with flushes in between, into a store
// whose L0 trigger is high enough that nothing compacts them: the phase ends
// with L0 tables, and settling has work to do.
func (h *harness) writeL0(t *testing.T, d db.DB, n int) {
	ss := session(t, d)
	defer ss.Close(ctx())
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("user%05d", i*7919%n)
		if err := ss.Insert(ctx(), "usertable", k, record(k, 0)); err != nil {
			t.Fatal(err)
		}
		if i%(n/4) == n/4-1 {
			flush(t, d)
		}
	}
	// An update left in the memtable, which settling must flush and fold.
	if err := ss.Update(ctx(), "usertable", "user00001", []db.Field{{Name: "field9", Value: []byte("settled")}}); err != nil {
		t.Fatal(err)
	}
}

// highL0Trigger keeps L0 tables uncompacted on both engines.
// (Pebble's must stay under its L0 stop-writes threshold, 12.)
var highL0Trigger = map[string]string{"pebble.l0compactionthreshold": "10", "rocksdb.level0filenumcompactiontrigger": "10"}

// settle: with engine.settle=true, Settle flushes and compacts until the
// engine reports no debt; the report keeps the phase's figures (the debt it
// ended with, no compaction of its own) and reports the settling apart.
func (h *harness) settle(t *testing.T) {
	dir := t.TempDir()
	extra := map[string]string{"engine.settle": "true"}
	for k, v := range highL0Trigger {
		extra[k] = v
	}
	d := h.mustOpen(t, dir, extra)
	defer d.Close()
	h.writeL0(t, d, 4000)
	st, ok := d.(db.Settler)
	if !ok {
		t.Fatalf("%T is not a db.Settler", d)
	}
	if err := st.Settle(ctx()); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	got := statsOf(t, d)
	t.Logf("stats: %v", got)
	for _, n := range []string{"PendingCompactionBytesAtStart", "L0FilesAtStart", "L0SublevelsAtStart", "RunningCompactionsAtStart",
		"PendingCompactionBytesAtEnd", "L0SublevelsAtEnd", "RunningCompactionsAtEnd", "SettleTime(ms)", "SettleBytesWritten",
		"DiskSizeAfterSettle(bytes)", "L0SublevelsAfterSettle"} {
		if _, ok := got[n]; !ok {
			t.Errorf("missing stat %s", n)
		}
	}
	if got["L0FilesAtStart"] != int64(0) {
		t.Errorf("an empty store starts with L0FilesAtStart = %v", got["L0FilesAtStart"])
	}
	if n, _ := got["L0FilesAtEnd"].(int64); n < 2 {
		t.Errorf("L0FilesAtEnd = %v, want the phase's flushed tables (at least 2)", got["L0FilesAtEnd"])
	}
	if got["CompactionBytesWritten"] != int64(0) {
		t.Errorf("CompactionBytesWritten = %v: the phase's figures count the settling's compaction", got["CompactionBytesWritten"])
	}
	if n, _ := got["SettleBytesWritten"].(int64); n < got["LiveSSTableBytes"].(int64)/2 {
		t.Errorf("SettleBytesWritten = %v, want the compaction of the whole store", got["SettleBytesWritten"])
	}
	if got["Settled"] != int64(1) {
		t.Errorf("Settled = %v, want 1", got["Settled"])
	}
	for _, n := range []string{"PendingCompactionBytesAfterSettle", "L0FilesAfterSettle", "L0SublevelsAfterSettle", "RunningCompactionsAfterSettle"} {
		if got[n] != int64(0) {
			t.Errorf("%s = %v, want 0", n, got[n])
		}
	}
	ss := session(t, d)
	defer ss.Close(ctx())
	var r db.Record
	if err := ss.Read(ctx(), "usertable", "user00001", nil, &r); err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Get("field9"); string(v) != "settled" {
		t.Errorf("after settling field9 = %q, want the merged update", v)
	}
	if v, _ := r.Get("field0"); string(v) != "user00001:field0:v0" {
		t.Errorf("after settling field0 = %q", v)
	}
}

// noSettle: without engine.settle, Settle does nothing and the report has
// no settling rows, but has the debt at the start and the end.
func (h *harness) noSettle(t *testing.T) {
	d := h.mustOpen(t, t.TempDir(), highL0Trigger)
	defer d.Close()
	h.writeL0(t, d, 2000)
	if err := d.(db.Settler).Settle(ctx()); err != nil {
		t.Fatal(err)
	}
	got := statsOf(t, d)
	if _, ok := got["SettleTime(ms)"]; ok {
		t.Errorf("SettleTime(ms) reported without engine.settle: %v", got)
	}
	if n, _ := got["L0FilesAtEnd"].(int64); n < 2 {
		t.Errorf("L0FilesAtEnd = %v, want the phase's flushed tables (Settle ran without engine.settle?)", got["L0FilesAtEnd"])
	}
}

// settleInterrupted: a Settle whose context is already done gives up with
// "interrupted" and leaves the store usable; a second Settle then settles
// it (RocksDB's manual compactions, disabled to cancel the first, are
// enabled again).
func (h *harness) settleInterrupted(t *testing.T) {
	extra := map[string]string{"engine.settle": "true"}
	for k, v := range highL0Trigger {
		extra[k] = v
	}
	d := h.mustOpen(t, t.TempDir(), extra)
	defer d.Close()
	h.writeL0(t, d, 4000)
	done, cancel := context.WithCancel(ctx())
	cancel()
	st := d.(db.Settler)
	err := st.Settle(done)
	if err == nil || !strings.Contains(err.Error(), "(interrupted)") {
		t.Fatalf("Settle with a cancelled context = %v, want it interrupted", err)
	}
	if got := statsOf(t, d); got["Settled"] != int64(0) {
		t.Errorf("Settled = %v after an interrupted Settle, want 0", got["Settled"])
	}
	if err := st.Settle(ctx()); err != nil {
		t.Fatalf("Settle after an interrupted one: %v", err)
	}
	got := statsOf(t, d)
	if got["Settled"] != int64(1) || got["L0FilesAfterSettle"] != int64(0) {
		t.Errorf("after a second Settle: Settled %v, L0FilesAfterSettle %v; want 1 and 0", got["Settled"], got["L0FilesAfterSettle"])
	}
}

// amplification: the rows every engine reports the same way. The user bytes
// are exactly those of the records written, the live user bytes those of
// the records held, the disk bytes written come from the kernel.
func (h *harness) amplification(t *testing.T) {
	dir := t.TempDir()
	d := h.mustOpen(t, dir, nil)
	defer d.Close()
	ss := session(t, d)
	var written, live int64
	const n = 3000
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("user%05d", i)
		rec := record(k, 0)
		if err := ss.Insert(ctx(), "usertable", k, rec); err != nil {
			t.Fatal(err)
		}
		written += kv.UserBytes(k, rec)
		if i%3 != 0 {
			live += kv.UserBytes(k, rec)
		}
	}
	for i := 0; i < n; i += 3 {
		k := fmt.Sprintf("user%05d", i)
		if err := ss.Delete(ctx(), "usertable", k); err != nil {
			t.Fatal(err)
		}
		written += int64(len(k))
	}
	ss.Close(ctx())
	flush(t, d)
	got := statsOf(t, d)
	t.Logf("stats: %v", got)
	if got["UserBytesWritten"] != written {
		t.Errorf("UserBytesWritten = %v, want %d (keys, field names and values written)", got["UserBytesWritten"], written)
	}
	if got["LiveUserBytes"] != live {
		t.Errorf("LiveUserBytes = %v, want %d (keys, field names and values held)", got["LiveUserBytes"], live)
	}
	if !kv.ReadProcIO().OK {
		t.Log("no /proc/self/io: no write amplification")
	} else if wa, _ := got["WriteAmplification"].(float64); wa <= 0 {
		t.Errorf("WriteAmplification = %v, want the disk writes over the user bytes", got["WriteAmplification"])
	}
	disk, _ := got["DiskSizeApparent(bytes)"].(int64)
	if sa, _ := got["SpaceAmplificationApparent"].(float64); disk <= 0 || sa != float64(int64(float64(disk)/float64(live)*100+0.5))/100 {
		t.Errorf("SpaceAmplificationApparent = %v with %d bytes on disk for %d live", got["SpaceAmplificationApparent"], disk, live)
	}
	if _, ok := got["SpaceAmplification"]; !ok {
		t.Error("no SpaceAmplification row")
	}
}

// Refusals checks that each property set to its value ({name, value,
// want}) is refused before anything is created, in one line naming the
// property and containing want.
func Refusals(t *testing.T, open Opener, cases [][3]string) {
	for _, cc := range cases {
		c := struct{ Name, Value, Want string }{cc[0], cc[1], cc[2]}
		t.Run(c.Name+"="+c.Value, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			_, err := open(ctx(), props.FromMap(map[string]string{"engine.dir": dir, c.Name: c.Value}), io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.Name) || !strings.Contains(err.Error(), c.Want) ||
				strings.Contains(err.Error(), "\n") || !props.IsBadInput(err) {
				t.Fatalf("open = %v, want a one-line property error naming %s and containing %q", err, c.Name, c.Want)
			}
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("%s created although a property was refused", dir)
			}
		})
	}
}

// ownStats: a store engine's own rows are there, as numbers.
func (h *harness) ownStats(t *testing.T) {
	d := h.mustOpen(t, t.TempDir(), nil)
	defer d.Close()
	ss := session(t, d)
	for i := 0; i < 500; i++ {
		k := fmt.Sprintf("user%05d", i)
		if err := ss.Insert(ctx(), "usertable", k, record(k, 0)); err != nil {
			t.Fatal(err)
		}
	}
	var r db.Record
	for i := 0; i < 500; i += 3 {
		r.Reset()
		if err := ss.Read(ctx(), "usertable", fmt.Sprintf("user%05d", i), nil, &r); err != nil {
			t.Fatal(err)
		}
	}
	ss.Close(ctx())
	for _, s := range d.(db.StatsReporter).Stats() {
		if s.Section != kv.Section {
			t.Errorf("%s: section %q, want %q", s.Name, s.Section, kv.Section)
		}
		switch s.Value.(type) {
		case int64, float64:
		default:
			t.Errorf("%s: value %T, want int64 or float64", s.Name, s.Value)
		}
	}
	got := statsOf(t, d)
	t.Logf("stats: %v", got)
	for _, n := range h.ownRows {
		if _, ok := got[n]; !ok {
			t.Errorf("missing stat %s", n)
		}
	}
}

// settleStore: engine.settle=true on a store engine runs its own settling
// (or nothing, for an engine with nothing to settle) and reports it; the
// records are all there after it, updates folded.
func (h *harness) settleStore(t *testing.T) {
	d := h.mustOpen(t, t.TempDir(), map[string]string{"engine.settle": "true"})
	defer d.Close()
	ss := session(t, d)
	defer ss.Close(ctx())
	for i := 0; i < 2000; i++ {
		k := fmt.Sprintf("user%05d", i)
		if err := ss.Insert(ctx(), "usertable", k, record(k, 0)); err != nil {
			t.Fatal(err)
		}
	}
	if err := ss.Update(ctx(), "usertable", "user00001", []db.Field{{Name: "field9", Value: []byte("settled")}}); err != nil {
		t.Fatal(err)
	}
	if err := d.(db.Settler).Settle(ctx()); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	got := statsOf(t, d)
	t.Logf("stats: %v", got)
	for _, n := range []string{"SettleTime(ms)", "DiskSizeAfterSettle(bytes)", "SpaceAmplificationAfterSettle"} {
		if _, ok := got[n]; !ok {
			t.Errorf("missing stat %s", n)
		}
	}
	if got["Settled"] != int64(1) {
		t.Errorf("Settled = %v, want 1", got["Settled"])
	}
	var r db.Record
	if err := ss.Read(ctx(), "usertable", "user00001", nil, &r); err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Get("field9"); string(v) != "settled" || r.Len() != 10 {
		t.Errorf("after settling field9 = %q (%d fields)", v, r.Len())
	}

	d3 := h.mustOpen(t, t.TempDir(), map[string]string{"engine.settle": "true"})
	defer d3.Close()
	done, cancel := context.WithCancel(ctx())
	cancel()
	if err := d3.(db.Settler).Settle(done); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("Settle with a cancelled context = %v, want it interrupted", err)
	}
	if got := statsOf(t, d3); got["Settled"] != int64(0) {
		t.Errorf("Settled = %v after an interrupted Settle, want 0", got["Settled"])
	}

	d2 := h.mustOpen(t, t.TempDir(), nil)
	defer d2.Close()
	if err := d2.(db.Settler).Settle(ctx()); err != nil {
		t.Fatal(err)
	}
	if _, ok := statsOf(t, d2)["SettleTime(ms)"]; ok {
		t.Error("SettleTime(ms) reported without engine.settle")
	}
}
