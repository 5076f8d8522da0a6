package ycsb_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
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

// schemaPackage is the JSON report's schema: what ycsb merge, ycsb
// compare and any other reader of a report links.
const schemaPackage = "report/jsonreport"

// TestReportSchemaIsALeaf: the JSON report's schema imports, of the
// module, only measurement, the packages under it, and leaves (packages
// that import nothing of the module, as the statuses or the quoting of
// a shown value); what it links in all is of measurement's layer or
// below, and not the binding contract's package db. Its producers
// convert into its types (workload.Validation into its Validation), so
// that reading a report links no workload, session, binding contract,
// generator or run.
func TestReportSchemaIsALeaf(t *testing.T) {
	pkgs := packages(t)
	imports, ok := pkgs[schemaPackage]
	if !ok {
		t.Fatalf("no package %s: the schema moved? Say where here", schemaPackage)
	}
	for im := range imports {
		if im != "measurement" && !strings.HasPrefix(im, "measurement/") && len(pkgs[im]) > 0 {
			t.Errorf("%s imports %s, neither measurement nor a leaf: move the type it wants into the schema and convert to it where the report is written", schemaPackage, im)
		}
	}
	top := layerOf(t, "measurement")
	seen := map[string]bool{}
	var walk func(pkg string)
	walk = func(pkg string) {
		for im := range pkgs[pkg] {
			if seen[im] {
				continue
			}
			seen[im] = true
			if l := layerOf(t, im); l > top || im == "db" {
				t.Errorf("%s links %s (%s, via %s): a reader of a report links measurement's layer and below only, and not package db", schemaPackage, im, layers[l].name, pkg)
			}
			walk(im)
		}
	}
	walk(schemaPackage)
}

// stressPackages are the cassandra-stress mode's: its front end and its
// workload, with the packages under them.
var stressPackages = []string{"frontend/stress", "workload/cassandrastress"}

// connectCalls are the calls that open a CQL connection, by package name
// and function: the stress mode makes none of them, its connection is
// db/cassandra's (Dial, Conn.Open), and its workload runs on the sessions
// of that binding's CQL capability.
var connectCalls = map[string][]string{
	"cqlcluster": {"Connect"},
	"cqlwire":    {"NewPool"},
	"gocql":      {"NewCluster", "NewSession"},
}

// cqlClient are the CQL client's packages that connect and send
// requests (murmur3, a token's hash, is not one).
var cqlClient = []string{"internal/cql/cqlwire", "internal/cql/cqlcluster"}

// TestStressReachesCassandraThroughTheBinding: no non-test file of the
// stress mode opens a connection of its own (connectCalls, or a driver
// ClusterConfig's CreateSession), and its workload imports none of the
// CQL client's packages (cqlClient): its statements run on db/cassandra's
// Caller and driver sessions.
func TestStressReachesCassandraThroughTheBinding(t *testing.T) {
	for pkg, imports := range packages(t) {
		if pkg != "workload/cassandrastress" && !strings.HasPrefix(pkg, "workload/cassandrastress/") {
			continue
		}
		for im := range imports {
			if slices.Contains(cqlClient, im) {
				t.Errorf("%s imports %s: the stress workload runs its statements through db/cassandra's CQL capability (Caller, Stmt)", pkg, im)
			}
		}
	}
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		dir := filepath.ToSlash(filepath.Dir(path))
		if strings.HasSuffix(path, "_test.go") || !slices.ContainsFunc(stressPackages, func(p string) bool { return dir == p || strings.HasPrefix(dir, p+"/") }) {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, isIdent := sel.X.(*ast.Ident)
			if sel.Sel.Name == "CreateSession" || isIdent && slices.Contains(connectCalls[x.Name], sel.Sel.Name) {
				t.Errorf("%s: the stress mode opens a connection of its own (%s): open it in db/cassandra (Dial, Conn.Open) and run on the sessions of its CQL capability", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
