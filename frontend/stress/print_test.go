package stress

import (
	"bytes"
	"context"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// printDists are the distributions of testdata/print.golden.
var printDists = []string{"GAUSSIAN(1..100)", "UNIFORM(1..1000)", "EXP(1..1M)", "EXTREME(1..1000,1.5)", "FIXED(7)",
	"QEXTREME(1..1000,1.5,10)", "GAUSSIAN(1..100,40,5)", "~EXP(1..1000)"}

// TestPrint: `print dist=` prints the original's table (the golden file
// is what the original prints for these distributions).
func TestPrint(t *testing.T) {
	var out bytes.Buffer
	for _, d := range printDists {
		out.WriteString("== " + d + "\n")
		if err := Main(context.Background(), []string{"print", "dist=" + d}, Env{Stdout: &out, Stderr: &out}); err != nil {
			t.Fatalf("print dist=%s: %v", d, err)
		}
	}
	ycsbtest.Golden(t, "testdata/print.golden", out.Bytes())
	if err := Main(context.Background(), []string{"print", "dist=NOPE(1)"}, Env{Stdout: &out, Stderr: &out}); err == nil {
		t.Error("print dist=NOPE(1): no error")
	}
}
