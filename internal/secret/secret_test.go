package secret

import (
	"net/url"
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
		if !strings.Contains(strings.ToLower(s), "pass") && !strings.Contains(s, "@") && out != s {
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

// TestMaskByStructure: each password is found by where it stands, so a
// short password masks only itself and a long one is masked whole.
func TestMaskByStructure(t *testing.T) {
	const pw = "p@ss w;rd=&?"
	tests := []struct{ name, in, want string }{
		{"url password 1", "postgres://u:1@127.0.0.1/db", "postgres://u:" + Mask + "@127.0.0.1/db"},
		{"url in a message", "connect to postgres://u:1@127.0.0.1:5432/db: 1 refused", "connect to postgres://u:" + Mask + "@127.0.0.1:5432/db: 1 refused"},
		{"url password encoded", "postgres://u:p%40ss%20w;rd=&%3F@h/db", "postgres://u:" + Mask + "@h/db"},
		{"url password with a raw @", "postgres://u:p@ss@h/db", "postgres://u:" + Mask + "@h/db"},
		{"url user only", "postgres://u@h/db", "postgres://u@h/db"},
		{"url without userinfo", "postgres://h:5432/db?sslmode=disable", "postgres://h:5432/db?sslmode=disable"},
		{"two urls", "postgres://u:a@h1/d;postgres://v:b@h2/d", "postgres://u:" + Mask + "@h1/d;postgres://v:" + Mask + "@h2/d"},
		{"query password", "jdbc:postgresql://h/d?user=u&password=p%40ss+w%3Brd%3D%26%3F&ssl=false", "jdbc:postgresql://h/d?user=u&password=" + Mask + "&ssl=false"},
		{"query password then a shard", "jdbc:postgresql://a/b?password=1;jdbc:postgresql://c/d", "jdbc:postgresql://a/b?password=" + Mask + ";jdbc:postgresql://c/d"},
		{"query sslpassword", "jdbc:postgresql://h/d?sslpassword=k&ssl=true", "jdbc:postgresql://h/d?sslpassword=" + Mask + "&ssl=true"},
		{"dsn quoted", "host=h password='" + pw + "' dbname=d", "host=h password=" + Mask + " dbname=d"},
		{"dsn quoted with escapes", `host=h password='it\'s; a \\ x' dbname=d`, "host=h password=" + Mask + " dbname=d"},
		{"dsn unquoted with &", "host=h password=a&b dbname=d", "host=h password=" + Mask + " dbname=d"},
		{"dsn spaces around =", "host=h password = 'a b' dbname=d", "host=h password = " + Mask + " dbname=d"},
		{"dsn upper case", "host=h PASSWORD=x", "host=h PASSWORD=" + Mask},
		{"dsn in a driver message", "cannot parse `host=h password=1 port=x`: invalid port", "cannot parse `host=h password=" + Mask + " port=x`: invalid port"},
		{"not a password key", "password_file=/etc/pw host=h", "password_file=/etc/pw host=h"},
		{"empty password", "host=h password=", "host=h password="},
		{"empty query password", "postgres://h/d?password=&ssl=true", "postgres://h/d?password=&ssl=true"},
		{"libpq reads past spaces", "host=h password= dbname=d", "host=h password= " + Mask},
		{"no password", "dial tcp 127.0.0.1:5432: connect: connection refused", "dial tcp 127.0.0.1:5432: connect: connection refused"},
		{"an address", "mail root@example.com", "mail root@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InText(tt.in); got != tt.want {
				t.Errorf("InText(%q)\n = %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
	if got := Value("db.passwd", pw); got != Mask {
		t.Errorf("Value(db.passwd) = %q", got)
	}
}

// TestSplit: a separator inside a password or a quoted value does not
// separate.
func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{" jdbc:postgresql://a/d ;jdbc:postgresql://b/d;; ", []string{" jdbc:postgresql://a/d ", "jdbc:postgresql://b/d", "", " "}},
		{"host=a password='x;y' dbname=d;host=b", []string{"host=a password='x;y' dbname=d", "host=b"}},
		{`host=a password='x\';y';host=b`, []string{`host=a password='x\';y'`, "host=b"}},
		{"host=a application_name='p;q';host=b", []string{"host=a application_name='p;q'", "host=b"}},
		{"postgres://u:a;b@h/db;postgres://h2/db", []string{"postgres://u:a;b@h/db", "postgres://h2/db"}},
		{"jdbc:postgresql://a/b?password=x;jdbc:postgresql://c/d", []string{"jdbc:postgresql://a/b?password=x", "jdbc:postgresql://c/d"}},
		{"", []string{""}},
	}
	for _, tt := range tests {
		if got := Split(tt.in, ';'); strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzMaskEmbedded embeds a generated password, encoded as each form
// requires, in a URL's userinfo, a URL query and a quoted key=value field,
// and checks that the output is the form with the password replaced by Mask
// and nothing else changed. (Searching the output for the password's text
// would be wrong: "1" is in "127.0.0.1".) Split must keep each form whole.
func FuzzMaskEmbedded(f *testing.F) {
	for _, s := range []string{"1", "p@ss w;rd=&?", `it's \ here`, "a:b/c?d#e", "://x@y", "'", "password=x", "é\x00\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pw string) {
		if pw == "" {
			return
		}
		u := &url.URL{Scheme: "postgres", User: url.UserPassword("u", pw), Host: "127.0.0.1:5432", Path: "/db"}
		q := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(pw)
		forms := []struct{ in, want string }{
			{u.String(), "postgres://u:" + Mask + "@127.0.0.1:5432/db"},
			{"jdbc:postgresql://127.0.0.1/db?user=u&password=" + url.QueryEscape(pw) + "&ssl=false", "jdbc:postgresql://127.0.0.1/db?user=u&password=" + Mask + "&ssl=false"},
			{"host=127.0.0.1 password='" + q + "' dbname=db", "host=127.0.0.1 password=" + Mask + " dbname=db"},
		}
		for _, fm := range forms {
			if got := InText(fm.in); got != fm.want {
				t.Fatalf("InText(%q)\n = %q\nwant %q", fm.in, got, fm.want)
			}
			if got := InText("error: " + fm.in + ": refused"); got != "error: "+fm.want+": refused" {
				t.Fatalf("in a message: %q", got)
			}
			parts := Split(fm.in+";postgres://h2/db", ';')
			if len(parts) != 2 || parts[0] != fm.in {
				t.Fatalf("Split(%q) = %q", fm.in+";postgres://h2/db", parts)
			}
		}
		if Value("db.passwd", pw) != Mask {
			t.Fatalf("Value(db.passwd, %q) not masked", pw)
		}
	})
}

// TestIsSecret: names that hold a secret, or a typo of one, both ways;
// passwords (which ycsb kube takes from its Secret) are the narrower set.
func TestIsSecret(t *testing.T) {
	tests := []struct {
		name             string
		secret, password bool
	}{
		{"db.passwd", true, true},
		{"cassandra.password", true, true},
		{"cassandra.pasword", true, true},
		{"cassandra.passowrd", true, true},
		{"cassandra.passwrd", true, true},
		{"cassandra.pssword", true, true},
		{"db.pwd", true, true},
		{"sslpassword", true, true},
		{"truststorePassword", true, true},
		{"passphrase", true, true},
		{"db.pass", true, true},
		{"api.secret", true, false},
		{"s3.secretkey", true, false},
		{"s3.secrect", true, false},
		{"auth.token", true, false},
		{"accessToken", true, false},
		{"cloud.credentials", true, false},
		{"cassandra.ssl.key", true, false},
		{"tls.privatekey", true, false},
		{"tls.private_key", true, false},
		{"sslkey", true, false},
		{"apikey", true, false},
		{"javax.net.ssl.keyStore", true, false},
		{"keyfile", true, false},
		{"cassandra.keyspace", false, false},
		{"keyspace", false, false},
		{"keysize", false, false},
		{"insertkey", false, false},
		{"key", false, false},
		{"keyprefix", false, false},
		{"zeropadding", false, false},
		{"cassandra.tokenaware", false, false},
		{"recordcount", false, false},
		{"db.user", false, false},
		{"db.url", false, false},
		{"cassandra.username", false, false},
		{"cassandra.ssl.ca", false, false},
		{"cassandra.ssl.cert", false, false},
		{"hosts", false, false},
		{"fieldnameprefix", false, false},
		{"keychooser", false, false},
		{"requestdistribution", false, false},
		{"hotspotopnfraction", false, false},
		{"prometheus.addr", false, false},
		{"operationcount", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		if got := IsSecret(tt.name); got != tt.secret {
			t.Errorf("IsSecret(%q) = %v, want %v", tt.name, got, tt.secret)
		}
		if got := IsPassword(tt.name); got != tt.password {
			t.Errorf("IsPassword(%q) = %v, want %v", tt.name, got, tt.password)
		}
		if got := Value(tt.name, "hunter2") == Mask; got != tt.secret {
			t.Errorf("Value(%q) masked: %v, want %v", tt.name, got, tt.secret)
		}
	}
}

// FuzzIsSecret: a name with a password word in it is a secret however it
// is cased or prefixed, and a name without any letter is not.
func FuzzIsSecret(f *testing.F) {
	for _, s := range []string{"db", "cassandra.", "x_", "", "keyspace."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prefix string) {
		for _, w := range []string{".password", ".PASSWD", "_secret", ".token", ".ssl.key"} {
			if !IsSecret(prefix + w) {
				t.Fatalf("IsSecret(%q) = false", prefix+w)
			}
		}
		if !strings.ContainsFunc(prefix, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) && IsSecret(prefix) {
			t.Fatalf("IsSecret(%q) = true without a letter", prefix)
		}
		_ = Args([]string{"-p", prefix + "=x"})
	})
}

// TestNativeMySQLDSN: go-sql-driver's DSN, user:password@net(address)/db,
// has its password masked wherever it stands, even one that holds @ or :.
func TestNativeMySQLDSN(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ycsb:hunter2@tcp(127.0.0.1:3306)/ycsb", "ycsb:" + Mask + "@tcp(127.0.0.1:3306)/ycsb"},
		{"db.url=u:p@ss:w@tcp(h:1)/d?x=1", "db.url=u:" + Mask + "@tcp(h:1)/d?x=1"},
		{"a;u:pw@unix(/s)/d;b", "a;u:" + Mask + "@unix(/s)/d;b"},
		{"connect u:pw@tcp6([::1]:3306)/d: refused", "connect u:" + Mask + "@tcp6([::1]:3306)/d: refused"},
		{"u@tcp(h)/d", "u@tcp(h)/d"},
		{"mail a@b(c) says", "mail a@b(c) says"},
	} {
		if got := InText(tt.in); got != tt.want {
			t.Errorf("InText(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
	if got := Value("db.url", "root:hunter2@tcp(h:3306)/"); strings.Contains(got, "hunter2") {
		t.Errorf("Value leaks: %q", got)
	}
}
