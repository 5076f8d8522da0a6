package workload

import (
	"testing"

	"github.com/goycsb/ycsb/props"
)

func TestPhaseReads(t *testing.T) {
	tests := []struct {
		name    string
		set     map[string]string
		reads   bool
		wantErr bool
	}{
		{"the defaults read", nil, true, false},
		{"a load never reads", map[string]string{"dotransactions": "false", "readproportion": "1"}, false, false},
		{"updates only", map[string]string{"readproportion": "0", "updateproportion": "1"}, false, false},
		{"scans", map[string]string{"readproportion": "0", "scanproportion": "0.1"}, true, false},
		{"read-modify-writes", map[string]string{"readproportion": "0", "readmodifywriteproportion": "0.1"}, true, false},
		{"a negative proportion", map[string]string{"readproportion": "-1"}, false, true},
		{"a sum that overflows", map[string]string{"readproportion": "1e308", "updateproportion": "1e308"}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := props.New()
			for k, v := range tt.set {
				p.Set(k, v)
			}
			reads, err := PhaseReads(p)
			if (err != nil) != tt.wantErr || err == nil && reads != tt.reads {
				t.Errorf("PhaseReads = %t, %v; want %t, error %t", reads, err, tt.reads, tt.wantErr)
			}
		})
	}
}
