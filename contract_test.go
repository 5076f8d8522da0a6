package ycsb_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

// contractPackage is the one home of the workload contract: the
// interfaces a run drives and the registry of workloads.
const contractPackage = "workload"

// contractInterfaces are the contract's interfaces, declared in
// contractPackage only: a second declaration is a second contract, and
// an adapter between the two soon follows.
var contractInterfaces = []string{"Workload", "Transactor", "Validator"}

// TestOneWorkloadContract: no package but contractPackage declares an
// interface named as one of the contract's, and package run drives the
// contract's Workload (it imports contractPackage).
func TestOneWorkloadContract(t *testing.T) {
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		dir := filepath.ToSlash(filepath.Dir(path))
		if dir == contractPackage {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				if _, isInterface := ts.Type.(*ast.InterfaceType); isInterface && slices.Contains(contractInterfaces, ts.Name.Name) {
					t.Errorf("%s: interface %s is declared outside package %s, the workload contract's one home", fset.Position(ts.Pos()), ts.Name.Name, contractPackage)
				}
			}
		}
	}
	if !packages(t)["run"][contractPackage] {
		t.Errorf("package run does not import %s: it drives the contract's Workload, declared there", contractPackage)
	}
}
