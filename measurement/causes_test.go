package measurement

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db/status"
)

func TestCauses(t *testing.T) {
	var shown []string
	c := NewCauses(YCSB, func(l string) { shown = append(shown, l) })
	// Messages that differ only in key numbers are one cause.
	for i := 0; i < 5; i++ {
		c.Add(Insert, status.Error, fmt.Errorf("duplicate key (ycsb_key)=(user%d)", i*7919))
	}
	c.Add(Read, status.ServiceUnavailable, errors.New("no host available"))
	c.Add(Insert, status.Error, errors.New("connect postgres://ycsb:s3cret@127.0.0.1/db: refused"))
	for i := 0; i < MaxCauses+3; i++ {
		c.Add(Update, status.Error, fmt.Errorf("cause %c", 'a'+i))
	}
	if len(shown) != MaxCauses {
		t.Fatalf("%d lines shown, want %d: %q", len(shown), MaxCauses, shown)
	}
	if shown[0] != "INSERT ERROR: duplicate key (ycsb_key)=(user0)" || shown[1] != "READ SERVICE_UNAVAILABLE: no host available" {
		t.Errorf("first lines %q", shown[:2])
	}
	var sum strings.Builder
	c.WriteSummary(&sum)
	got := sum.String()
	for _, want := range []string{"5 failed: INSERT ERROR: duplicate key (ycsb_key)=(user0)\n",
		"6 failed with further causes not shown"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in the summary:\n%s", want, got)
		}
	}
	if strings.Contains(got+strings.Join(shown, "\n"), "s3cret") {
		t.Errorf("a password is shown:\n%s", got)
	}
	if c.First() != shown[0] {
		t.Errorf("First %q", c.First())
	}
}
