// Package ycsb_test holds the tests of the tree as a whole: the shape of
// its code, its packages and their imports (docs/architecture.md).
package ycsb_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines bounds a function outside tests: past it, a function is
// several steps that want names of their own.
const maxFuncLines = 100

// funcLinesUnder are tighter bounds for the folders named (and those under
// them), the run's way from the workers to the figures: a function there
// is read the most, and its steps the most worth naming.
var funcLinesUnder = map[string]int{
	"run":           80,
	"measurement":   80,
	"frontend/ycsb": 80,
}

// funcLinesFor is the bound for a function in the file at path: the
// tightest of the folders it is under, else maxFuncLines.
func funcLinesFor(path string) int {
	limit := maxFuncLines
	for dir, n := range funcLinesUnder {
		if strings.HasPrefix(path, dir+"/") && n < limit {
			limit = n
		}
	}
	return limit
}

// goFiles is every Go file of the module, by its slash path from the
// root, tests included; testdata, hidden folders and other modules
// (tools/modzip) are left out.
func goFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			out = append(out, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no Go files found")
	}
	return out
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestFunctionLength: no function outside tests is longer than
// maxFuncLines lines, or its folder's bound (funcLinesUnder), from func
// to its closing brace.
func TestFunctionLength(t *testing.T) {
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if n, limit := fset.Position(fd.End()).Line-fset.Position(fd.Pos()).Line+1, funcLinesFor(path); n > limit {
				t.Errorf("%s: %s is %d lines, more than %d: split it into steps with names", fset.Position(fd.Pos()), fd.Name.Name, n, limit)
			}
		}
	}
}

// module is the import path of the module's root.
const module = "github.com/goycsb/ycsb"

// layers are the packages from the bottom of the tree to its top, by path
// from the module's root: a package imports only packages of its own
// layer or of the layers below (no import climbs). A path names that
// package and those under it; the longest path that matches a package
// gives its layer. Moving a package is one line here
// (docs/layout-plan.md).
var layers = []struct {
	name  string
	paths []string
}{
	{"leaves", []string{"internal"}},
	{"fleet's leaves", []string{"fleet/partition"}}, // imported by workload and the JSON report's schema
	{"internal over leaves", []string{"internal/cql/cqlwire", "internal/infile", "internal/outfile", "internal/procs"}},
	{"internal over those", []string{"internal/cql/cqlcluster"}},
	{"properties", []string{"props"}},
	{"binding contract", contractPackages},
	{"bindings", []string{bindingPath}}, // every other package under db/ (bindingLayerPath)
	{"measurement", []string{"measurement"}},
	// The cassandra-stress command line's typed settings: what its
	// workload is built from, as the CoreWorkload from props.
	{"stress settings", []string{"frontend/stress/settings"}},
	{"workload", []string{"workload", "measured"}},
	{"run", []string{"run"}},
	{"reports", []string{"report", "report/stressreport"}},
	{"front ends", []string{"frontend", "fleet"}},
	{"command line", []string{"cli"}},
	{"main", []string{"cmd", "tools", ""}},
}

// pending are arrows the layers allow today and docs/layout-plan.md
// removes, each with its step there. Listed so that the plan stays true:
// an arrow gone from the tree must go from here too.
var pending = map[string]string{}

// layerOf is the index in layers of the package at path rel.
func layerOf(t *testing.T, rel string) int {
	rel = bindingLayerPath(rel)
	best, layer := -1, -1
	for i, l := range layers {
		for _, p := range l.paths {
			if (p == "" || rel == p || strings.HasPrefix(rel, p+"/")) && len(p) > best {
				best, layer = len(p), i
			}
		}
	}
	if layer < 0 {
		t.Fatalf("package %s is in no layer: add it to layers", rel)
	}
	return layer
}

// packages are the module's packages, by path from its root, with the
// module's packages their files (tests left out) import.
func packages(t *testing.T) map[string]map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	pkgs := map[string]map[string]bool{}
	for _, path := range goFiles(t) {
		dir := filepath.ToSlash(filepath.Dir(path))
		if dir == "." {
			dir = ""
		}
		if strings.HasSuffix(path, "_test.go") {
			if pkgs[dir] == nil {
				pkgs[dir] = map[string]bool{} // a package of tests alone
			}
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if pkgs[dir] == nil {
			pkgs[dir] = map[string]bool{}
		}
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if p == module || strings.HasPrefix(p, module+"/") {
				pkgs[dir][strings.TrimPrefix(strings.TrimPrefix(p, module), "/")] = true
			}
		}
	}
	return pkgs
}

// TestImportsPointDown: no package imports one of a higher layer, and the
// pending arrows are still there to remove.
func TestImportsPointDown(t *testing.T) {
	seen := map[string]bool{}
	for pkg, imports := range packages(t) {
		from := layerOf(t, pkg)
		for im := range imports {
			arrow := pkg + " -> " + im
			if _, ok := pending[arrow]; ok {
				seen[arrow] = true
			}
			if to := layerOf(t, im); to > from {
				t.Errorf("%s climbs: %s (%s) is above %s (%s)", arrow, im, layers[to].name, pkg, layers[from].name)
			}
		}
	}
	for arrow, step := range pending {
		if !seen[arrow] {
			t.Errorf("pending arrow %s (%s) is gone: remove it from pending", arrow, step)
		}
	}
}

// TestLayoutListsEveryPackage: README's Layout names every package, by
// its path anywhere in the block or by a first-column pattern with a
// <placeholder> for one path element (db/<binding>).
func TestLayoutListsEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, found := strings.Cut(string(readme), "## Layout\n\n```\n")
	block, _, closed := strings.Cut(rest, "```")
	if !found || !closed {
		t.Fatal("README.md: no ## Layout code block")
	}
	words := map[string]bool{}
	var patterns []string
	for _, line := range strings.Split(block, "\n") {
		for i, w := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t,;:()", r) }) {
			words[w] = true
			if i == 0 && strings.Contains(w, "<") {
				patterns = append(patterns, w)
			}
		}
	}
	for pkg := range packages(t) {
		if pkg == "" || words[pkg] || slices.ContainsFunc(patterns, func(p string) bool { return matchesPattern(p, pkg) }) {
			continue
		}
		t.Errorf("README.md's Layout does not name package %s", pkg)
	}
}

// matchesPattern says whether pkg is pattern with each <placeholder> one
// path element.
func matchesPattern(pattern, pkg string) bool {
	ps, ks := strings.Split(pattern, "/"), strings.Split(pkg, "/")
	if len(ps) != len(ks) {
		return false
	}
	for i := range ps {
		if ps[i] != ks[i] && !strings.HasPrefix(ps[i], "<") {
			return false
		}
	}
	return true
}

// TestPackageNamesMatchFolders: a package is named as its folder, so that
// its import path says what its code calls it (commands are main; the
// root is the module's name; a test's external package adds _test).
func TestPackageNamesMatchFolders(t *testing.T) {
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		name := strings.TrimSuffix(f.Name.Name, "_test")
		want := filepath.Base(dir)
		switch {
		case dir == ".":
			want = "ycsb"
		case name == "main" && (strings.HasPrefix(dir, "cmd/") || strings.HasPrefix(dir, "tools/")):
			continue
		}
		if name != want {
			t.Errorf("%s: package %s in folder %s", path, f.Name.Name, dir)
		}
	}
}
