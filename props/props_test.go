package props

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseJavaSyntax(t *testing.T) {
	text := "# comment\n! also comment\na=1\nb : two\nc three\nlong = x\\\n   y\nesc=\\u0041\nref=${a}\n"
	p, err := Parse("t", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"a": "1", "b": "two", "c": "three", "long": "xy", "esc": "A", "ref": "${a}"} {
		if got := p.String(k, "<none>"); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

func TestTypedGetters(t *testing.T) {
	p := FromMap(map[string]string{
		"i": "42", "neg": "-3", "frac": "1000.0", "sp": " 7", "big": "10000000000",
		"f": "0.95", "nan": "NaN", "t": "TRUE", "f2": "false", "b": "yes",
	})
	tests := []struct {
		name    string
		get     func() (any, error)
		want    any
		wantErr string
	}{
		{"int", func() (any, error) { return p.Int64("i", 0) }, int64(42), ""},
		{"int default", func() (any, error) { return p.Int64("missing", 9) }, int64(9), ""},
		{"int64 big", func() (any, error) { return p.Int64("big", 0) }, int64(10000000000), ""},
		{"int overflow", func() (any, error) { return p.Int("big", 0) }, 0, "big: expected an integer between"},
		{"fraction", func() (any, error) { return p.Int64("frac", 0) }, int64(0), `frac: expected an integer, got "1000.0"`},
		{"space", func() (any, error) { return p.Int64("sp", 0) }, int64(0), `sp: expected an integer without leading space, got " 7"`},
		{"negative", func() (any, error) { return p.NonNegInt64("neg", 0) }, int64(0), `neg: expected a non-negative integer, got "-3"`},
		{"float", func() (any, error) { return p.Float64("f", 0) }, 0.95, ""},
		{"nan", func() (any, error) { return p.Float64("nan", 0) }, 0.0, `nan: expected a number, got "NaN"`},
		{"bool true", func() (any, error) { return p.Bool("t", false) }, true, ""},
		{"bool false", func() (any, error) { return p.Bool("f2", true) }, false, ""},
		{"bool bad", func() (any, error) { return p.Bool("b", false) }, false, `b: expected true or false, got "yes"`},
		{"seconds", func() (any, error) { return p.Seconds("f", 10, 0.01) }, 950 * time.Millisecond, ""},
		{"seconds default", func() (any, error) { return p.Seconds("missing", 10, 0.01) }, 10 * time.Second, ""},
		{"seconds too small", func() (any, error) { return p.Seconds("neg", 1, 0) }, time.Duration(0), `neg: expected a number of seconds between 0 and 31622400, got "-3"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.get()
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want prefix %q", err, tt.wantErr)
				}
				if !IsBadInput(err) {
					t.Fatalf("error %v is not bad input", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOverrideAndMerge(t *testing.T) {
	files := FromMap(map[string]string{"a": "file", "b": "file"})
	cmd := New()
	for _, arg := range []string{"a=x=y", "c="} {
		n, v, err := ParseOverride(arg)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Set(n, v)
	}
	files.Merge(cmd)
	if got := files.String("a", ""); got != "x=y" {
		t.Errorf("a = %q", got)
	}
	if got := files.String("b", ""); got != "file" {
		t.Errorf("b = %q", got)
	}
	if v, ok := files.Get("c"); !ok || v != "" {
		t.Errorf("c = %q %v", v, ok)
	}
	for _, bad := range []string{"novalue", "=v", ""} {
		if _, _, err := ParseOverride(bad); err == nil || !strings.Contains(err.Error(), "expected name=value") {
			t.Errorf("ParseOverride(%q) err = %v", bad, err)
		}
	}
}

func TestLoadFileErrors(t *testing.T) {
	_, err := loadFile(context.Background(), filepath.Join(t.TempDir(), "nope"))
	if err == nil || !strings.Contains(err.Error(), "cannot read properties file: no such file or directory") {
		t.Fatalf("err = %v", err)
	}
	good := filepath.Join(t.TempDir(), "w")
	if err := os.WriteFile(good, []byte("recordcount=5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadFile(context.Background(), good)
	if err != nil || p.String("recordcount", "") != "5" {
		t.Fatalf("p=%v err=%v", p, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a=1\n", "a: b\\\n c", "\\u00e9=x", "k v\n#c\n!c", "\\", "=", "a=\\uZZZZ",
		"cl\xe9=valeur\r\n", "# caf\xe9\n", "a=b\\\n cr\xe8me\n", "\x7fELF\x02\x01\x01\x00", "\x93q\x94=1", "a=1\x1a", "\xef\xbb\xbfa=1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz", data)
		if err != nil {
			if !IsBadInput(err) || strings.ContainsRune(err.Error(), '\n') && !strings.Contains(string(data), "\n") {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		if rest, bom := bytes.CutPrefix(data, []byte("\xef\xbb\xbf")); bom && len(rest) > 0 && rest[0] >= 'a' && rest[0] <= 'z' {
			if k := p.Keys(); len(k) == 0 || k[0][0] != rest[0] {
				t.Fatalf("byte-order mark read into the first key: %q", k)
			}
		}
		for _, k := range p.Keys() {
			v, ok := p.Get(k)
			if !ok {
				t.Fatalf("key %q listed but missing", k)
			}
			_, _ = p.Int64(k, 0)
			_, _ = p.Float64(k, 0)
			_, _ = p.Bool(k, false)
			_, _ = p.OneOf(k, "", "a", "b")
			_ = v
		}
		if bytes.IndexByte(data, 0) >= 0 {
			t.Fatalf("accepted a NUL byte: %q", data)
		}
		_ = p.Warnings()
	})
}

func FuzzParseOverride(f *testing.F) {
	for _, s := range []string{"a=b", "a==", "=", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		n, v, err := ParseOverride(arg)
		if err != nil {
			if !IsBadInput(err) {
				t.Fatalf("not bad input: %v", err)
			}
			return
		}
		if n == "" || n+"="+v != arg {
			t.Fatalf("split %q into %q,%q", arg, n, v)
		}
	})
}

// TestSecretValuesNeverShown: an error or a note about a property whose
// name is secret-like (a typo of one too) names it but masks its value.
func TestSecretValuesNeverShown(t *testing.T) {
	p := FromMap(map[string]string{"cassandra.pasword": "hunter2 ", "db.passwd": "hunter2", "s3.secretkey": " hunter2"})
	_, err1 := p.Int64("db.passwd", 0)
	_, err2 := p.OneOf("cassandra.pasword", "", "a")
	_, err3 := p.Bool("s3.secretkey", false)
	msgs := []string{err1.Error(), err2.Error(), err3.Error()}
	msgs = append(msgs, p.Warnings()...)
	for _, m := range msgs {
		if strings.Contains(m, "hunter2") {
			t.Errorf("value shown: %s", m)
		}
	}
	if !strings.HasPrefix(err1.Error(), `db.passwd: expected an integer, got "*****"`) {
		t.Errorf("err1 = %v", err1)
	}
	if len(p.Warnings()) < 2 {
		t.Errorf("notes lost: %q", p.Warnings())
	}
}

// TestDuration: a duration is a number of its unit, range-checked before it
// becomes nanoseconds, so that no value wraps around int64 and every error
// names the property and the range in the unit the user writes.
func TestDuration(t *testing.T) {
	const year = MaxDuration
	tests := []struct {
		value   string
		unit    time.Duration
		lo, hi  time.Duration
		want    time.Duration
		wantErr string
	}{
		{"", time.Second, 0, year, 7 * time.Second, ""}, // absent: the default
		{"90", time.Second, 0, year, 90 * time.Second, ""},
		{"1.5", time.Second, 0, year, 1500 * time.Millisecond, ""},
		{"1e-12", time.Second, 0, year, 1, ""},         // not 0, which often means "none"
		{"0.0004", time.Millisecond, 0, year, 400, ""}, // 399.99999 ns in float64: rounded
		{"250", time.Millisecond, 0, year, 250 * time.Millisecond, ""},
		{"3", time.Microsecond, 0, year, 3 * time.Microsecond, ""},
		{"31622400", time.Second, 0, year, year, ""},
		{"18446744074", time.Second, 0, year, 0, `d: expected a number of seconds between 0 and 31622400, got "18446744074"`},
		{"9300000000000", time.Millisecond, 0, year, 0, `d: expected a number of milliseconds between 0 and 31622400000, got "9300000000000"`},
		{"18446744073710", time.Millisecond, time.Millisecond, year, 0, `d: expected a number of milliseconds between 1 and 31622400000, got "18446744073710"`},
		{"9223372036854775807", time.Microsecond, 0, year, 0, "d: expected a number of microseconds between 0 and"},
		{"0", time.Millisecond, time.Millisecond, year, 0, `d: expected a number of milliseconds between 1 and`},
		{"-1", time.Second, 0, year, 0, `d: expected a number of seconds between 0 and`},
		{"1e400", time.Second, 0, year, 0, `d: expected a number of seconds between 0 and`},
		{"NaN", time.Second, 0, year, 0, `d: expected a number of seconds between 0 and`},
		{"Inf", time.Second, 0, year, 0, `d: expected a number of seconds between 0 and`},
		{"ten", time.Second, 0, year, 0, `d: expected a number of seconds between 0 and 31622400, got "ten"`},
		{"5", time.Second, 0, 2 * time.Second, 0, `d: expected a number of seconds between 0 and 2, got "5"`},
		{"5", time.Second, 0, 2 * year, 5 * time.Second, ""},
		{"1e9", time.Second, 0, 2 * year, 0, "between 0 and 31622400,"}, // no more than MaxDuration
	}
	for _, tt := range tests {
		t.Run(tt.value+"_"+tt.unit.String(), func(t *testing.T) {
			p := New()
			if tt.value != "" {
				p.Set("d", tt.value)
			}
			got, err := p.Duration("d", tt.unit, 7*time.Second, tt.lo, tt.hi)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !IsBadInput(err) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("= %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// FuzzDuration: whatever the text, a duration is an error naming the
// property or a value within its range.
func FuzzDuration(f *testing.F) {
	for _, s := range []string{"1", "18446744074", "1e300", "-0", "0.0000000001", "NaN", "9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		p := New()
		p.Set("d", v)
		for _, unit := range []time.Duration{time.Microsecond, time.Millisecond, time.Second} {
			d, err := p.Duration("d", unit, 0, 0, MaxDuration)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "d: ") {
					t.Fatalf("error does not name the property: %v", err)
				}
				continue
			}
			if d < 0 || d > MaxDuration {
				t.Fatalf("%q %v = %v, out of range", v, unit, d)
			}
		}
	})
}
