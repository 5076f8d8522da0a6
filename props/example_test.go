package props_test

import (
	"fmt"

	"github.com/goycsb/ycsb/props"
)

// A package reads its properties once into a typed configuration through a
// Reader: every value is checked, and the first bad one is an error that
// names the property as typed.
func ExampleReader() {
	p := props.FromMap(map[string]string{"threadcount": "8", "fieldlength": "-5"})
	r := props.NewReader(p)
	threads := r.Int("threadcount", 1, props.NonNegative)
	length := r.Int64("fieldlength", 100, props.NonNegative)
	fmt.Println(threads, length) // a bad value reads as its default
	fmt.Println(r.Err())
	fmt.Println(props.IsBadInput(r.Err()))
	// Output:
	// 8 100
	// fieldlength: expected a non-negative integer, got "-5"
	// true
}
