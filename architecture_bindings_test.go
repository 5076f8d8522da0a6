package ycsb_test

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// contractPackages are the binding contract's packages. Every other
// package under db/ is a binding's (or the bindings' shared db/internal,
// or db/all), whatever its name: a new binding is in the bindings' layer
// without a line here, and held to their rules.
var contractPackages = []string{"db", "db/dbtest", "db/status"}

// contractInternals are the contract's packages that a binding reaches
// only through db (db/status: the statuses the measurements import
// without the rest of the contract; db aliases them).
var contractInternals = []string{"db/status"}

// bindingPath is the path layers gives the bindings' layer by.
const bindingPath = "db/<binding>"

// isBinding says whether the package at rel is a binding's: under db/ and
// no package of the contract.
func isBinding(rel string) bool {
	return strings.HasPrefix(rel, "db/") && !slices.Contains(contractPackages, rel)
}

// bindingLayerPath is the path layers files the package at rel under:
// bindingPath for a binding's, rel itself otherwise.
func bindingLayerPath(rel string) string {
	if isBinding(rel) {
		return bindingPath
	}
	return rel
}

// contractBreaches are the imports by which a binding reaches into the
// contract's internals, as "binding -> internal", sorted.
func contractBreaches(pkgs map[string]map[string]bool) []string {
	var out []string
	for pkg, imports := range pkgs {
		if !isBinding(pkg) {
			continue
		}
		for im := range imports {
			if slices.Contains(contractInternals, im) {
				out = append(out, pkg+" -> "+im)
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestBindingsUseTheContractThroughDB: no binding imports the contract's
// internals.
func TestBindingsUseTheContractThroughDB(t *testing.T) {
	for _, arrow := range contractBreaches(packages(t)) {
		t.Errorf("%s: a binding reaches the contract through db only", arrow)
	}
}

// TestUnknownDBPackageIsABinding: a package under db/ that no table names
// is a binding, in the bindings' layer, so the contract importing it
// climbs and its import of the contract's internals is refused; the
// contract's own packages stay in the contract's layer.
func TestUnknownDBPackageIsABinding(t *testing.T) {
	bindings := -1
	for i, l := range layers {
		if l.name == "bindings" {
			bindings = i
		}
	}
	for _, rel := range []string{"db/newbinding", "db/newbinding/sub", "db/internal/kv", "db/all"} {
		if got := layerOf(t, rel); got != bindings {
			t.Errorf("%s is in layer %q, want %q", rel, layers[got].name, layers[bindings].name)
		}
	}
	for _, rel := range contractPackages {
		if got := layerOf(t, rel); got >= bindings {
			t.Errorf("the contract's %s is in layer %q, below the bindings' wanted", rel, layers[got].name)
		}
	}
	pkgs := map[string]map[string]bool{
		"db/newbinding": {"db": true, "db/status": true, "props": true},
		"db/postgres":   {"db": true, "db/internal/sqlbind": true},
		"measurement":   {"db/status": true},
	}
	want := []string{"db/newbinding -> db/status"}
	if got := contractBreaches(pkgs); !slices.Equal(got, want) {
		t.Errorf("contractBreaches = %v, want %v", got, want)
	}
}
