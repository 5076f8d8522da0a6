package cassandrastress

import (
	"bytes"
	"testing"

	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

// A batch's rows get their bound values in storage the worker reuses from
// batch to batch: once it has grown, filling a batch allocates nothing,
// and each row's arguments are its own values.
func TestBatchRowsAllocateNothing(t *testing.T) {
	wk := &userWorker{}
	binds := []int{1, -1, 0} // a value, the partition key, a clustering column
	key := [][]byte{[]byte("key")}
	rows := make([]*data.UserRow, 10)
	for i := range rows {
		rows[i] = &data.UserRow{CK: [][]byte{{'c', byte('0' + i)}}, Vals: [][]byte{{'v', byte('0' + i)}}}
	}
	fill := func() [][]any {
		wk.batchReset()
		var got [][]any
		for _, r := range rows {
			got = append(got, wk.batchRow(binds, key, r))
		}
		return got
	}
	got := fill()
	for i, args := range got {
		want := [][]byte{rows[i].Vals[0], key[0], rows[i].CK[0]}
		for j, a := range args {
			if b, _ := a.(*rawArg).MarshalCQL(nil); !bytes.Equal(b, want[j]) {
				t.Errorf("row %d, marker %d: %q, want %q", i, j, b, want[j])
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		wk.batchReset()
		for _, r := range rows {
			wk.batchRow(binds, key, r)
		}
	}); n != 0 {
		t.Errorf("%v allocations a batch of %d rows", n, len(rows))
	}
}
