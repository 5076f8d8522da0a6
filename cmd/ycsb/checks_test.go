package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImpossibleReportsRefused: merge, compare and report --html refuse a
// report whose figures cannot be together (each edited by hand from a
// report ycsb run wrote) with exit code 2 and one line naming the file,
// the field and what it should have agreed with, and write nothing.
func TestImpossibleReportsRefused(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	bin, _ := binaryAndWorkload(t)
	good, err := filepath.Abs("../../report/merge/testdata/run.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		edit func(doc map[string]any)
		want string // after "ycsb: FILE: "
	}{
		{"interval ops", func(d map[string]any) { d["intervals"].([]any)[1].(map[string]any)["ops"] = 1e12 },
			"intervals: their ops add up to 1000000004001, but operations is 6000"},
		{"failed negative", func(d map[string]any) { d["failed_operations"] = -7 }, "failed_operations: -7 is negative"},
		{"no measurements", func(d map[string]any) { d["measurements"] = []any{} },
			"measurements: their returns add up to 0, fewer than operations 6000 (each operation returns a status)"},
		{"returns", func(d map[string]any) { measurement(d, 0)["returns"].([]any)[0].(map[string]any)["count"] = 1 },
			"measurements[0] (READ).returns: they add up to 1, but READ's measurements hold 6000 latencies (one for each return)"},
		{"phase", func(d map[string]any) { d["phase"] = "banana" }, `phase: "banana" is not load, run or capacity`},
		{"mean", func(d map[string]any) { measurement(d, 1)["mean_us"] = 1e12 },
			"measurements[1] (READ-MODIFY-WRITE).mean_us: 1e+12, but the histogram's mean is 0.232845"},
		{"start", func(d map[string]any) { d["start"] = "not-a-date" },
			`start: "not-a-date" is not a time in RFC 3339 form (2026-03-01T12:00:00Z)`},
	} {
		bad := editedReport(t, good, filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json"), tt.edit)
		for _, args := range [][]string{
			{"merge", "-o", "merged.json", bad},
			{"merge", good, bad},
			{"compare", good, bad},
			{"compare", bad, good},
			{"report", "--html", "-o", "page.html", bad},
		} {
			o := runBinary(t, bin, 0, args...)
			want := "ycsb: " + bad + ": " + tt.want + "\n"
			if o.code != 2 || o.stderr != want || o.stdout != "" || o.created != 0 {
				t.Errorf("%s: %v: exit %d, created %d, stdout %.200q, stderr %q; want exit 2 and %q",
					tt.name, args[:len(args)-1], o.code, o.created, o.stdout, o.stderr, want)
			}
		}
	}
}

// measurement is the i-th measurement of a report document.
func measurement(doc map[string]any, i int) map[string]any {
	return doc["measurements"].([]any)[i].(map[string]any)
}

// editedReport writes the report at from, changed by edit, to to.
func editedReport(t *testing.T, from, to string, edit func(map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}
