package props

import (
	"testing"
	"time"
)

type color string

func TestReaderKeepsTheFirstError(t *testing.T) {
	p := FromMap(map[string]string{"a": "7", "b": "x", "c": "-1", "d": "2.5", "e": "red ", "f": "true"})
	r := NewReader(p)
	if got := r.Int64("a", 1, Positive); got != 7 {
		t.Errorf("a = %d", got)
	}
	if got := r.Int64("b", 3); got != 3 {
		t.Errorf("b, not an integer, = %d, want the default", got)
	}
	if got := r.Int64("c", 4, NonNegative); got != 4 {
		t.Errorf("c, negative, = %d, want the default", got)
	}
	if got := r.Float64("d", 0, Range("a number below 2", func(f float64) bool { return f < 2 })); got != 0 {
		t.Errorf("d = %v", got)
	}
	if got := OneOf(r, "e", color("blue"), "red", "blue"); got != "red" {
		t.Errorf("e = %q", got)
	}
	if !r.Bool("f", false) || r.Int("absent", 9, Positive) != 9 || r.Seconds("absent", 1.5, 0) != 1500*time.Millisecond {
		t.Error("reads after an error must still return values and defaults")
	}
	if err := r.Err(); err == nil || err.Error() != `b: expected an integer, got "x"` {
		t.Errorf("Err = %v, want the first error, b's", err)
	}
	if !IsBadInput(r.Err()) {
		t.Error("a read error is bad input")
	}
}

func TestReaderChecksWordTheValueAsWritten(t *testing.T) {
	for _, c := range []struct {
		name, value, want string
		read              func(r *Reader)
	}{
		{"n", "-3", `n: expected a non-negative integer, got "-3"`, func(r *Reader) { r.Int64("n", 0, NonNegative) }},
		{"n", "0", `n: expected a positive integer, got "0"`, func(r *Reader) { r.Int("n", 1, Positive) }},
		{"f", "1e3", `f: expected a number between 0 and 100, got "1e3"`, func(r *Reader) {
			r.Float64("f", 1, Range("a number between 0 and 100", func(f float64) bool { return f > 0 && f < 100 }))
		}},
		{"c", "green", `c: expected one of red, blue, got "green"`, func(r *Reader) { OneOf(r, "c", color("red"), "red", "blue") }},
	} {
		r := NewReader(FromMap(map[string]string{c.name: c.value}))
		c.read(r)
		if err := r.Err(); err == nil || err.Error() != c.want {
			t.Errorf("%s=%s: %v, want %s", c.name, c.value, err, c.want)
		}
	}
	r := NewReader(FromMap(nil))
	r.Errorf("x", "first")
	r.Errorf("y", "second")
	if r.Err().Error() != "x: first" {
		t.Errorf("Errorf kept %v, want the first", r.Err())
	}
}
