package rendezvous

import (
	"strings"
	"testing"
	"time"
)

func TestParseMessage(t *testing.T) {
	for _, tc := range []struct {
		line string
		want message
		err  string
	}{
		{"HELLO 1 2 3 ab12", message{kind: kindHello, version: 1, index: 2, count: 3, fingerprint: "ab12"}, ""},
		{"WAIT 2 3", message{kind: kindWait, checkedIn: 2, count: 3}, ""},
		{"START 499870", message{kind: kindStart, delay: 499870 * time.Microsecond}, ""},
		{"START 0", message{kind: kindStart}, ""},
		{"REFUSED client.count=4, but client 0 has client.count=3", message{kind: kindRefused, reason: "client.count=4, but client 0 has client.count=3"}, ""},
		{"START 60000001", message{}, "START: field 1"},
		{"START -1", message{}, "START: field 1"},
		{"START +5", message{}, "START: field 1"},
		{"START 05", message{}, "START: field 1"},
		{"HELLO 1 2 3", message{}, "HELLO: 3 fields, want 4"},
		{"HELLO 1 2 3 a b", message{}, "HELLO: 5 fields, want 4"},
		{"HELLO 1 2 3 a\x01", message{}, "fingerprint"},
		{"HELLO 1 2 99999999999 a", message{}, "HELLO: field 3"},
		{"WAIT 2  3", message{}, "WAIT: 3 fields"},
		{"REFUSED", message{}, "REFUSED without a reason"},
		{"start 5", message{}, "unknown message"},
		{"", message{}, "unknown message"},
	} {
		got, err := parseMessage(tc.line)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %+v, %v; want an error about %q", tc.line, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.line, got, err, tc.want)
		}
		if got.String() != tc.line {
			t.Errorf("%+v writes %q, want %q", got, got.String(), tc.line)
		}
	}
}

// FuzzParseMessage: no line panics the parser, and every line it accepts
// is the line its message writes (one spelling per message).
func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{"HELLO 1 2 3 ab12", "WAIT 2 3", "START 499870", "REFUSED no", "START 05", "HELLO 1 2 3 a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := parseMessage(line)
		if err != nil {
			return
		}
		if m.String() != line {
			t.Errorf("%q parses to %+v, which writes %q", line, m, m.String())
		}
		if m2, err := parseMessage(m.String()); err != nil || m2 != m {
			t.Errorf("%+v does not read back: %+v, %v", m, m2, err)
		}
	})
}
