package settings

import (
	"strings"
	"testing"
)

// TestSecretsNeverPrinted: a secret option's value, quoted with spaces,
// quotes or unicode, is taken as typed, and neither a message nor the
// settings block shows it.
func TestSecretsNeverPrinted(t *testing.T) {
	const pw = `Zq p”w 'x" é,=(Zq`
	for _, c := range []struct {
		args []string
		ok   bool
		get  func(*Settings) string
	}{
		{[]string{"write", "n=1", "-mode", "native", "cql3", "user=u", "password=" + pw}, true, func(s *Settings) string { return s.Mode.Password }},
		{[]string{"write", "n=1", "-mode", "native", "cql3", "user=u", "password=" + pw, "bogus"}, false, nil},
		{[]string{"write", "n=1", "-mode", "native", "cql3", "password=" + pw, "password=" + pw}, false, nil},
		{[]string{"write", "n=1", "-transport", "truststore=ts.jks", "truststore-password=" + pw}, true, func(s *Settings) string { return s.Transport.TrustStorePassword }},
		{[]string{"write", "n=1", "-transport", "truststore=ts.jks", "keystore=ks.jks", "keystore-password=" + pw}, true, func(s *Settings) string { return s.Transport.KeyStorePassword }},
		{[]string{"write", "n=1", "-transport", "keystore=ks.jks", "keystore-password=" + pw}, false, nil},
		{[]string{"write", "n=1", "-node", "db_password=" + pw}, false, nil},
		{[]string{"write", "n=1", "-mode", "native", "cql3", "api_token=" + pw}, false, nil},
		{[]string{"write", "n=1", "-schema", "storage(type=S3,endpoint=e,bucket=b,aws_secret_key=ZqZq)"}, true, nil},
		{[]string{"write", "n=1", "-schema", "storage(type=S3,bucket=b,aws_secret_key=ZqZq)"}, false, nil},
		{[]string{"write", "n=1", "-schema", "replication(factor=1,access_key=ZqZq)", "-mode", "native", "cql3", "password=x", "-node", "h", "-node", "k"}, false, nil},
	} {
		s, _, err := Parse(c.args)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v, want ok=%t", c.args, err, c.ok)
			continue
		}
		if err != nil {
			if strings.Contains(err.Error(), "Zq") {
				t.Errorf("%q: the message shows the secret: %s", c.args, err)
			}
			continue
		}
		if c.get != nil && c.get(s) != pw {
			t.Errorf("%q: the value is %q, want %q as typed", c.args, c.get(s), pw)
		}
		if out := s.String(); strings.Contains(out, "Zq") {
			t.Errorf("%q: the settings block shows the secret:\n%s", c.args, out)
		}
	}
}

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"password=": true, "truststore-password=": true, "keystore-password=": true, "passwd": true, "db_pwd": true,
		"aws_secret_key": true, "api_token": true, "private_key": true, "privatekey": true, "credentials": true,
		"keyspace=": false, "keysize=": false, "truststore=": false, "user=": false,
		"split-factor=": false, "tokenaware": false, "key": false, "factor": false,
	} {
		if got := secretName(name); got != want {
			t.Errorf("secretName(%q) = %t, want %t", name, got, want)
		}
	}
}
