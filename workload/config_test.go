package workload

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/goycsb/ycsb/props"
)

// ParseConfig reads a shipped workload file into its typed settings, with
// the reference's defaults for what the file leaves out.
func TestParseConfigOfShippedWorkloads(t *testing.T) {
	for _, c := range []struct {
		file  string
		dist  RequestDistribution
		mix   Mix
		reads bool
	}{
		{"workloada", Zipfian, Mix{0.5, 0.5, 0, 0, 0}, true},
		{"workloadd", Latest, Mix{0.95, 0, 0.05, 0, 0}, true},
		{"workloade", Zipfian, Mix{0, 0, 0.05, 0.95, 0}, true},
		{"workloadf", Zipfian, Mix{0.5, 0, 0, 0, 0.5}, true},
	} {
		p, _, err := props.LoadFileText(context.Background(), filepath.Join("..", "workloads", c.file))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ParseConfig(p, true)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if cfg.RequestDist != c.dist || cfg.Mix != c.mix || cfg.Mix.Reads() != c.reads {
			t.Errorf("%s: distribution %s, mix %v (reads %t); want %s, %v", c.file, cfg.RequestDist, cfg.Mix, cfg.Mix.Reads(), c.dist, c.mix)
		}
		if cfg.Table != "usertable" || cfg.FieldCount != 10 || cfg.FieldLength != 100 || cfg.InsertOrder != Hashed ||
			cfg.ZipfianConstant != 0.99 || cfg.MinScanLength != 1 || cfg.FieldLengthDist != ConstantLength {
			t.Errorf("%s: defaults not the reference's: %+v", c.file, cfg)
		}
	}
	write := props.FromMap(map[string]string{"recordcount": "10", "readproportion": "0", "updateproportion": "1"})
	if cfg, err := ParseConfig(write, true); err != nil || cfg.Mix.Reads() {
		t.Errorf("an update-only mix: %v, reads %t", err, cfg != nil && cfg.Mix.Reads())
	}
}

// TestKinds: every value of the workload property the reference or its
// forks accept builds its workload, and only the closed economy checks the
// database after its run.
func TestKinds(t *testing.T) {
	tests := []struct {
		value     string
		kind      string
		validates bool
	}{
		{"site.ycsb.workloads.CoreWorkload", "core", false},
		{"com.yahoo.ycsb.workloads.CoreWorkload", "core", false},
		{"core", "core", false},
		{"site.ycsb.workloads.ClosedEconomyWorkload", "closedeconomy", true},
		{"com.yahoo.ycsb.workloads.ClosedEconomyWorkload", "closedeconomy", true},
		{"closedeconomy", "closedeconomy", true},
	}
	for _, tt := range tests {
		c, err := ParseConfig(newProps("workload", " "+tt.value+" ", "recordcount", "10"), true)
		if err != nil {
			t.Fatalf("%s: %v", tt.value, err)
		}
		if c.Kind.Name != tt.kind {
			t.Errorf("%s: kind %s, want %s", tt.value, c.Kind.Name, tt.kind)
		}
		wl, err := c.Workload(context.Background(), io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", tt.value, err)
		}
		if _, ok := wl.(Validator); ok != tt.validates {
			t.Errorf("%s: a Validator: %v, want %v", tt.value, ok, tt.validates)
		}
	}
	if _, err := ParseKind(newProps("workload", "site.ycsb.workloads.TimeSeriesWorkload")); err == nil ||
		err.Error() != `workload: expected site.ycsb.workloads.CoreWorkload or site.ycsb.workloads.ClosedEconomyWorkload, got "site.ycsb.workloads.TimeSeriesWorkload"` {
		t.Errorf("unknown workload: %v", err)
	}
}

// TestRegisterTwice: a name taken by another workload is refused.
func TestRegisterTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	Register(&Kind{Name: "other", Classes: []string{"site.ycsb.workloads.CoreWorkload"}})
}
