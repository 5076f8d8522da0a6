// Package hostaddr checks a host as a user gives it to reach a server
// (the stress mode's -node, the Cassandra binding's hosts): an IP address
// or a host name, refused before any lookup when it is neither, so that
// 999.1.1.1 is one line of bad input rather than a node that never
// answers.
package hostaddr

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/goycsb/ycsb/internal/shown"
)

// maxName is the longest host name DNS carries (RFC 1035, 2.3.4), and
// maxLabel its longest label.
const (
	maxName  = 253
	maxLabel = 63
)

// Check returns nil for an IP address (an IPv6 one may be in brackets, with
// a zone) or a host name: labels of letters, digits, - and _ (which
// /etc/hosts and container names use), each 1 to 63 bytes, neither
// starting nor ending with -, at most 253 bytes in all, a final dot
// allowed. A name of digits and dots only must be an IPv4 address.
func Check(host string) error {
	if host == "" {
		return errors.New("no host")
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		if a, err := netip.ParseAddr(host[1 : len(host)-1]); err != nil || !a.Is6() {
			return fmt.Errorf("%s is not an IPv6 address", shown.Quote(host))
		}
		return nil
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	if strings.Trim(host, "0123456789.") == "" {
		return fmt.Errorf("%s is not an IPv4 address (four numbers from 0 to 255)", shown.Quote(host))
	}
	bad := func(why string) error {
		return fmt.Errorf("%s is not a host name or an IP address (%s)", shown.Quote(host), why)
	}
	name := strings.TrimSuffix(host, ".")
	if len(name) > maxName {
		return bad(fmt.Sprintf("more than %d bytes", maxName))
	}
	for _, label := range strings.Split(name, ".") {
		switch {
		case label == "":
			return bad("an empty label")
		case len(label) > maxLabel:
			return bad(fmt.Sprintf("a label of more than %d bytes", maxLabel))
		case strings.IndexFunc(label, func(r rune) bool { return !nameByte(r) }) >= 0:
			return bad("only letters, digits, - and _ between dots")
		case label[0] == '-' || label[len(label)-1] == '-':
			return bad("a label starts or ends with -")
		}
	}
	return nil
}

func nameByte(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
}
