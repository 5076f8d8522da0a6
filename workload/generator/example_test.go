package generator_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/goycsb/ycsb/workload/generator"
)

// A generator is shared by the workers and draws from each worker's own
// random source: with a fixed seed the draws repeat.
func ExampleNewZipfian() {
	z := generator.NewZipfian(0, 999, 0.99)
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for range 10_000 {
		if z.Next(rng) < 10 {
			hits++
		}
	}
	fmt.Println(hits > 3000) // the first 1% of the keys take about a third of the draws
	// Output: true
}
