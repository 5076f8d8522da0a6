package ycsb

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	_ "github.com/goycsb/ycsb/db/pebble"
	"github.com/goycsb/ycsb/props"
)

// runPebble loads or runs the pebble binding in dir with extra properties.
func runPebble(t *testing.T, ctx context.Context, dir string, extra map[string]string) (string, string, error) {
	t.Helper()
	m := map[string]string{
		"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "20", "dotransactions": "false",
		"engine.dir": dir,
	}
	for k, v := range extra {
		m[k] = v
	}
	d, name, err := db.Lookup("pebble")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr syncBuffer
	err = Run(ctx, Options{Props: props.FromMap(m), Driver: d, Binding: name, Stdout: &stdout, Stderr: &stderr})
	return stdout.String(), stderr.String(), err
}

// listing names every file under dir with its size.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out = append(out, fmt.Sprintf("%s %x", path, sha256.Sum256(b)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestBadOutputLeavesStoreIntact: a bad output path is found before the
// binding opens, so engine.fresh=true has not emptied the store, and no
// output file is left behind.
func TestBadOutputLeavesStoreIntact(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	if _, stderr, err := runPebble(t, context.Background(), store, nil); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	before := listing(t, store)
	outDir := t.TempDir()
	for _, c := range []struct {
		name string
		p    map[string]string
		want string
	}{
		{"cpuprofile in a missing directory", map[string]string{"cpuprofile": "/nonexistent/cpu.prof"}, "cpuprofile"},
		{"cpuprofile is a directory", map[string]string{"cpuprofile": outDir}, "cpuprofile"},
		{"exportfile is a directory", map[string]string{"exportfile": outDir}, "exportfile"},
		{"report.json is a directory", map[string]string{"report.json": outDir}, "report.json"},
		{"raw output then a bad property", map[string]string{"measurementtype": "raw",
			"measurement.raw.output_file": filepath.Join(outDir, "raw.txt"), "fieldcount": "0"}, "fieldcount"},
		{"raw output is a directory", map[string]string{"measurementtype": "raw", "measurement.raw.output_file": outDir}, "measurement.raw.output_file"},
		{"hdr output in a missing directory", map[string]string{"hdrhistogram.fileoutput": "true", "hdrhistogram.output.path": "/nonexistent/x-"}, "hdrhistogram.output.path"},
		{"prometheus.addr", map[string]string{"prometheus.addr": "127.0.0.1:notaport"}, "prometheus.addr"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := map[string]string{"engine.fresh": "true"}
			for k, v := range c.p {
				p[k] = v
			}
			_, _, err := runPebble(t, context.Background(), store, p)
			if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a setup error naming %s", err, c.want)
			}
			if after := listing(t, store); strings.Join(after, "\n") != strings.Join(before, "\n") {
				t.Errorf("the store changed:\nbefore %v\nafter  %v", before, after)
			}
			if left, _ := os.ReadDir(outDir); len(left) != 0 {
				t.Errorf("files left in the output directory: %v", left)
			}
		})
	}
}

// TestInterruptedSetupIsNotBadInput: Ctrl-C before the run starts is an
// interruption (exit 130 at the command line), not bad input.
func TestInterruptedSetupIsNotBadInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, _, err := runWith(ctx, &testDriver{openBlocks: true}, nil)
	if err == nil || props.IsBadInput(err) {
		t.Fatalf("interrupted setup: got %v, want an error that is not a setup error", err)
	}
}

// TestExportFailsAtEnd: when the exportfile cannot be written after the run
// (its directory went away), the text report goes to stdout and the run
// fails.
func TestExportFailsAtEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		os.RemoveAll(dir)
	}()
	out, stderr, err := runBasic(t, context.Background(), map[string]string{
		"operationcount": "500", "target": "1000", "exportfile": filepath.Join(dir, "report.txt"),
	})
	if err == nil || props.IsBadInput(err) || !strings.Contains(err.Error(), "exportfile") {
		t.Errorf("got %v, want a run failure naming exportfile", err)
	}
	if !strings.Contains(out, "[OVERALL], RunTime(ms), ") || !strings.Contains(out, "[READ], Operations, ") {
		t.Errorf("no text report on stdout:\n%s\n%s", out, stderr)
	}
}
