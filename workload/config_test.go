package workload

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

// ParseConfig reads a shipped workload file into its typed settings, with
// the reference's defaults for what the file leaves out.
func TestParseConfigOfShippedWorkloads(t *testing.T) {
	for _, c := range []struct {
		file  string
		dist  RequestDistribution
		mix   db.Mix
		reads bool
	}{
		{"workloada", Zipfian, db.Mix{0.5, 0.5, 0, 0, 0}, true},
		{"workloadd", Latest, db.Mix{0.95, 0, 0.05, 0, 0}, true},
		{"workloade", Zipfian, db.Mix{0, 0, 0.05, 0.95, 0}, true},
		{"workloadf", Zipfian, db.Mix{0.5, 0, 0, 0, 0.5}, true},
	} {
		p, err := props.LoadFile(context.Background(), filepath.Join("..", "workloads", c.file))
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
