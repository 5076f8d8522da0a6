package kv

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/goycsb/ycsb/db"
)

func TestParseProcIO(t *testing.T) {
	text := "rchar: 6976\nwchar: 10\nsyscr: 10\nsyscw: 1\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 4096\n"
	if got := parseProcIO([]byte(text)); got != (ProcIO{WriteBytes: 8192, CancelledWriteBytes: 4096, OK: true}) {
		t.Errorf("parseProcIO = %+v", got)
	}
	for _, bad := range []string{"", "write_bytes: 12\n", "write_bytes: x\ncancelled_write_bytes: 0\n", "write_bytes: -5\ncancelled_write_bytes: 0"} {
		if got := parseProcIO([]byte(bad)); got.OK {
			t.Errorf("parseProcIO(%q) = %+v, want not OK", bad, got)
		}
	}
}

func FuzzParseProcIO(f *testing.F) {
	f.Add([]byte("write_bytes: 8192\ncancelled_write_bytes: 4096\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if p := parseProcIO(b); p.WriteBytes < 0 || p.CancelledWriteBytes < 0 {
			t.Fatalf("negative counts from %q: %+v", b, p)
		}
	})
}

// The amplification rows divide what the process wrote to disk and what the
// directory holds by the user bytes the sessions wrote and the engine holds.
func TestReporterAmplification(t *testing.T) {
	if !ReadProcIO().OK {
		t.Skip("no /proc/self/io here")
	}
	dir := t.TempDir()
	var r Reporter
	r.StartEngine(dir, func() []db.Stat { return []db.Stat{stat("Own", int64(1))} })
	r.LiveBytes(func() (int64, error) { return 1 << 20, nil })
	w := NewWriteCounter()
	w.Add(1 << 20)
	w.Close()
	f, err := os.Create(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, 3<<20)); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got := map[string]any{}
	for _, s := range r.Stats() {
		got[s.Name] = s.Value
	}
	if got["UserBytesWritten"] != int64(1<<20) || got["Own"] != int64(1) {
		t.Errorf("rows %v", got)
	}
	// Other tests of the package may write at the same time: at least the
	// 3MiB written here, at most a little more.
	if wa, _ := got["WriteAmplification"].(float64); wa < 3 || wa > 4 {
		t.Errorf("WriteAmplification = %v, want 3 (3MiB on disk for 1MiB of user bytes)", got["WriteAmplification"])
	}
	if sa := got["SpaceAmplification"]; sa != 3.0 {
		t.Errorf("SpaceAmplification = %v, want 3", sa)
	}
	if sa := got["SpaceAmplificationApparent"]; sa != 3.0 {
		t.Errorf("SpaceAmplificationApparent = %v, want 3", sa)
	}

	// Settling: its own disk writes, the space after it.
	r.SettleWith(context.Background(), func(context.Context) error {
		return os.WriteFile(filepath.Join(dir, "more"), make([]byte, 1<<20), 0o644)
	}, func() []db.Stat { return nil })
	got = map[string]any{}
	for _, s := range r.Stats() {
		got[s.Name] = s.Value
	}
	if got["SpaceAmplificationAfterSettle"] != 4.0 || got["Settled"] != int64(1) {
		t.Errorf("after settling %v", got)
	}
	if n, _ := got["SettleDiskBytesWritten"].(int64); n < 1<<20 {
		t.Errorf("SettleDiskBytesWritten = %v, want the 1MiB written", got["SettleDiskBytesWritten"])
	}
}
