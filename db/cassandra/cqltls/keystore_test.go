package cqltls

import (
	"strings"
	"testing"
)

// FuzzParseStore: no store content makes the reader panic, and what it
// refuses is one line.
func FuzzParseStore(f *testing.F) {
	f.Add([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"), "pw")
	f.Add([]byte{0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2, 0, 0, 0, 1}, "pw")
	f.Add([]byte{0x30, 0x82, 0x01, 0x00}, "")
	f.Fuzz(func(t *testing.T, b []byte, pw string) {
		for _, trust := range []bool{true, false} {
			st, err := parseStore(Store{Opt: "-transport truststore=", PasswordOpt: "truststore-password=", Path: "f", Password: pw}, b, trust)
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("%q", err)
				}
				continue
			}
			if len(st.certs) == 0 {
				t.Fatal("a store without certificates accepted")
			}
		}
	})
}
