package hostaddr

import "testing"

func TestCheck(t *testing.T) {
	for _, tt := range []struct{ host, want string }{
		{"127.0.0.1", ""},
		{"localhost", ""},
		{"cassandra-0.cassandra.default.svc.cluster.local", ""},
		{"node1.example.com.", ""},
		{"::1", ""},
		{"[::1]", ""},
		{"fe80::1%eth0", ""},
		{"db_1", ""},
		{"999.1.1.1", `"999.1.1.1" is not an IPv4 address (four numbers from 0 to 255)`},
		{"1.2.3", `"1.2.3" is not an IPv4 address (four numbers from 0 to 255)`},
		{"10.0.0.1.5", `"10.0.0.1.5" is not an IPv4 address (four numbers from 0 to 255)`},
		{"", "no host"},
		{"a..b", `"a..b" is not a host name or an IP address (an empty label)`},
		{"-x.example", `"-x.example" is not a host name or an IP address (a label starts or ends with -)`},
		{"host name", `"host name" is not a host name or an IP address (only letters, digits, - and _ between dots)`},
		{"h\x1b[2J", `"h\x1b[2J" is not a host name or an IP address (only letters, digits, - and _ between dots)`},
		{"[1.2.3.4", `"[1.2.3.4" is not a host name or an IP address (only letters, digits, - and _ between dots)`},
		{"[nothost]", `"[nothost]" is not an IPv6 address`},
		{"a." + string(make([]byte, 64)), `is not a host name or an IP address`},
	} {
		err := Check(tt.host)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tt.want == "" && got != "" || tt.want != "" && (err == nil || !contains(got, tt.want)) {
			t.Errorf("Check(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func FuzzCheck(f *testing.F) {
	f.Add("127.0.0.1")
	f.Add("999.1.1.1")
	f.Add("[::1]")
	f.Add("a-b.c_d.")
	f.Fuzz(func(t *testing.T, host string) {
		if err := Check(host); err != nil && len(err.Error()) > 200 {
			t.Fatalf("an error of %d bytes", len(err.Error()))
		}
	})
}
