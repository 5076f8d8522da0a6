package secret

import (
	"strings"
	"testing"
)

func TestValue(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{"db.passwd", "hunter2", Mask},
		{"cassandra.password", "hunter2", Mask},
		{"db.passwd", "", ""},
		{"db.url", "jdbc:postgresql://h:5432/db?user=root&password=hunter2&ssl=false", "jdbc:postgresql://h:5432/db?user=root&password=" + Mask + "&ssl=false"},
		{"db.url", "postgres://root:hunter2@127.0.0.1:5432/ycsb", "postgres://root:" + Mask + "@127.0.0.1:5432/ycsb"},
		{"db.url", "jdbc:postgresql://a/b;jdbc:postgresql://c/d?PASSWORD=x", "jdbc:postgresql://a/b;jdbc:postgresql://c/d?PASSWORD=" + Mask},
		{"dsn", "host=x password=secret dbname=y", "host=x password=" + Mask + " dbname=y"},
		{"hosts", "10.0.0.1,10.0.0.2", "10.0.0.1,10.0.0.2"},
	}
	for _, tt := range tests {
		got := Value(tt.name, tt.value)
		if got != tt.want {
			t.Errorf("Value(%q, %q) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
		if strings.Contains(got, "hunter2") || strings.Contains(got, "secret") {
			t.Errorf("password left in %q", got)
		}
	}
}

func TestArgs(t *testing.T) {
	in := []string{"jdbc", "-p", "db.passwd=hunter2", "-p", "db.url=postgres://u:hunter2@h/db", "-P", "w", "-p", "x=password=1"}
	got := strings.Join(Args(in), " ")
	if strings.Contains(got, "hunter2") || !strings.Contains(got, "db.passwd="+Mask) || !strings.Contains(got, "-P w") {
		t.Fatalf("Args = %q", got)
	}
}

func FuzzInText(f *testing.F) {
	f.Add("postgres://u:pw@h/db?password=pw")
	f.Fuzz(func(t *testing.T, s string) {
		out := InText(s)
		if !strings.Contains(s, "pass") && !strings.Contains(s, "PASS") && !strings.Contains(s, "@") && out != s {
			t.Fatalf("changed text without a password: %q -> %q", s, out)
		}
	})
}

// TestStructureNotText: passwords are masked where they stand (a password
// property's whole value, a URL's password, a password= field, quoted or
// not), never by searching for their text elsewhere.
func TestStructureNotText(t *testing.T) {
	args := Args([]string{"jdbc", "--p", "db.passwd=p@ss w;rd=&?", "-p", "db.url=host=h password='a;b c' dbname=d"})
	got := strings.Join(args, " ")
	for _, leak := range []string{"w;rd", "ss w", "a;b", "b c'"} {
		if strings.Contains(got, leak) {
			t.Errorf("Args leaks %q: %q", leak, got)
		}
	}
	if !strings.Contains(got, "--p db.passwd="+Mask) {
		t.Errorf("--p db.passwd not masked whole: %q", got)
	}
	if s := InText("host=h password='a;b c' dbname=d"); s != "host=h password="+Mask+" dbname=d" {
		t.Errorf("quoted password= field: %q", s)
	}
	if s := InText(`password='it\'s; here' x`); s != "password="+Mask+" x" {
		t.Errorf("escaped quote in password= field: %q", s)
	}
	if s := InText(`dial tcp 127.0.0.1:5432: connection refused`); s != `dial tcp 127.0.0.1:5432: connection refused` {
		t.Errorf("text without a password changed: %q", s)
	}
}
