package workload_test

import (
	"fmt"

	"github.com/goycsb/ycsb/workload"
)

// The workload property names a registered Kind, by our name or by the
// Java class names the reference and its forks accept.
func ExampleKinds() {
	for _, k := range workload.Kinds() {
		fmt.Println(k.Name, k.Classes)
	}
	// Output:
	// core [site.ycsb.workloads.CoreWorkload com.yahoo.ycsb.workloads.CoreWorkload]
	// closedeconomy [site.ycsb.workloads.ClosedEconomyWorkload com.yahoo.ycsb.workloads.ClosedEconomyWorkload]
}
