package stressreport

import (
	"fmt"
	"io"
)

// Distribution is what `print dist=` reads of a distribution: the value
// below which a share p of its draws falls.
type Distribution interface{ InverseCumProb(p float64) int64 }

// PrintDistribution is `print dist=DIST`, the original's
// SettingsMisc.printDistribution: the value below which each share of the
// draws falls, and that value as a share of the largest.
func PrintDistribution(w io.Writer, d Distribution) {
	fmt.Fprintln(w, "% of samples    Range       % of total")
	rangeMax := float64(d.InverseCumProb(1)) / 100
	for _, p := range []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1} {
		v := d.InverseCumProb(p)
		// String.format("%-16.1f%-12d%12.1f", ...)
		fmt.Fprintf(w, "%-16s%-12d%12s\n", jf(p*100, 1, false), v, jf(float64(v)/rangeMax, 1, false))
	}
}
