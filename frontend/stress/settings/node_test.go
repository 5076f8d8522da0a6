package settings

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNodeAddresses: every -node entry, on the command line or in a
// file=, is an IP address or a host name; 999.1.1.1 is refused in one line
// naming it, not listed as a node that never answers.
func TestNodeAddresses(t *testing.T) {
	for _, tt := range []struct {
		nodes string
		want  string // "" when accepted
	}{
		{"127.0.0.1,localhost,node-2.example.com,::1", ""},
		{"127.0.0.1,999.1.1.1", `-node 127.0.0.1,999.1.1.1: "999.1.1.1" is not an IPv4 address (four numbers from 0 to 255)`},
		{"a..b", `-node a..b: "a..b" is not a host name or an IP address (an empty label)`},
	} {
		_, _, err := Parse([]string{"write", "n=10", "-node", tt.nodes})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) || strings.Contains(got, "\n") {
			t.Errorf("-node %s: %q, want %q", tt.nodes, got, tt.want)
		}
	}
	file := filepath.Join(t.TempDir(), "nodes")
	os.WriteFile(file, []byte("127.0.0.1\n\n10.0.0.300\n"), 0o644)
	n := NodeSettings{File: file}
	err := n.ReadNodeFile(context.Background())
	if err == nil || err.Error() != "-node file="+file+": line 3: \"10.0.0.300\" is not an IPv4 address (four numbers from 0 to 255)" {
		t.Errorf("a node file with 10.0.0.300: %v", err)
	}
}
