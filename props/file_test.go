package props

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestParseRefusesBinary(t *testing.T) {
	tests := []struct {
		name, text, wantErr string
	}{
		{"NUL", "recordcount=5\nab\x00cd\n", "bin: not a properties file: line 2: NUL byte"},
		{"ELF", "\x7fELF\x02\x01\x01\x00\x00\x00", "bin: not a properties file: line 1: control byte 0x7f"},
		{"escape", "a=1\n\x1b[31mred\n", "line 2: control byte 0x1b"},
		{"C1 controls", "a=1\n\x93\x94\x81=x\n", "line 2 is neither UTF-8 nor ISO-8859-1 text"},
		{"no separator", "a=1\n\xff\xfe\xfdjunk\n", "line 2 is neither UTF-8 nor ISO-8859-1 text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("bin", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q", err, tt.wantErr)
			}
			if !IsBadInput(err) {
				t.Fatalf("%v is not bad input", err)
			}
		})
	}
}

func TestParseAcceptsLatin1AndUTF8(t *testing.T) {
	// java.util.Properties files are ISO-8859-1: é is the byte 0xe9.
	text := "# caf\xe9 cr\xe8me\r\n" +
		"label=cl\xe9\r\n" +
		"desc=first \\\n  cr\xe8me br\xfbl\xe9e\n" +
		"utf8=caf\u00e9\n" +
		"tab\t=\f1\n" +
		"last=x\x1a"
	p, err := Parse("latin1", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"label": "clé", "desc": "first crème brûlée", "utf8": "cafÃ©", "tab": "1", "last": "x"} {
		if got := p.String(k, "<none>"); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

func TestLoadFileBounds(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, []byte(strings.Repeat("# padding\n", MaxFileSize/10+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.WriteString("recordcount=7\n")
			f.Close()
		}
	}()
	p, err := loadFile(context.Background(), fifo)
	if err != nil || p.String("recordcount", "") != "7" {
		t.Fatalf("pipe: p=%v err=%v", p, err)
	}
	for path, want := range map[string]string{
		"/dev/zero": "/dev/zero: cannot read properties file: not a regular file or a pipe (a character device)",
		dir:         "cannot read properties file: is a directory",
		big:         "cannot read properties file: larger than 16 MiB",
	} {
		_, err := loadFile(context.Background(), path)
		if err == nil || !strings.Contains(err.Error(), want) || !IsBadInput(err) {
			t.Errorf("loadFile(context.Background(), %s) err = %v, want %q", path, err, want)
		}
	}
}

func TestWordTrimsClosedSetValues(t *testing.T) {
	p := FromMap(map[string]string{"insertorder": "hashed ", "readallfields": " true", "n": "5 ", "s": "keep "})
	if v, err := p.OneOf("insertorder", "", "hashed", "ordered"); err != nil || v != "hashed" {
		t.Fatalf("OneOf = %q, %v", v, err)
	}
	if v, err := p.Bool("readallfields", false); err != nil || !v {
		t.Fatalf("Bool = %v, %v", v, err)
	}
	if _, err := p.Int64("n", 0); err == nil || !strings.Contains(err.Error(), "without trailing space") {
		t.Fatalf("Int64 err = %v", err)
	}
	if v := p.String("s", ""); v != "keep " {
		t.Fatalf("String trimmed a free-form value: %q", v)
	}
	got := strings.Join(p.Warnings(), "\n")
	for _, want := range []string{`note: insertorder: ignoring the trailing space in "hashed "`, `note: readallfields: ignoring the leading space in " true"`} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings %q lack %q", got, want)
		}
	}
}

func TestWarningsNameUnusedProperties(t *testing.T) {
	p := FromMap(map[string]string{
		"columnfamily": "data", "recordcont": "5", "table": "t", "operationcount": "9",
		"zzz.unknown": "1", "insertcount": "3",
	})
	c := p.Clone()
	_ = p.String("table", "")
	_ = p.String("recordcount", "") // absent, but a name the run knows
	_ = c.Has("insertcount")        // a clone's reads count
	p.Accept("operationcount")
	got := p.Warnings()
	want := []string{
		"warning: property columnfamily is not used by this run (here the property is table)",
		"warning: property recordcont is not used by this run (did you mean recordcount?)",
		"warning: property zzz.unknown is not used by this run",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if u := p.Unused(); len(u) != 3 {
		t.Fatalf("Unused = %v", u)
	}
	// Listing keys is not reading them.
	_ = p.Keys()
	_ = p.Map()
	if u := p.Unused(); len(u) != 3 {
		t.Fatalf("Keys or Map counted as reads: %v", u)
	}
}

// TestParseByteOrderMark: a UTF-8 byte-order mark (as Windows editors
// write) is not part of the first key: the key is read, and a note says so.
func TestParseByteOrderMark(t *testing.T) {
	p, err := Parse("w.properties", []byte("\xef\xbb\xbfrecordcount=5\nfieldcount=2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := p.Get("recordcount"); !ok || v != "5" {
		t.Fatalf("recordcount = %q, %v; keys %q", v, ok, p.Keys())
	}
	all := New() // as the command line gathers its -P files
	all.Merge(p)
	_ = all.String("recordcount", "")
	_ = all.String("fieldcount", "")
	got := strings.Join(all.Warnings(), "\n")
	if got != "note: w.properties: ignoring the UTF-8 byte-order mark at its start" {
		t.Fatalf("warnings %q", got)
	}
	// Elsewhere its bytes are ISO-8859-1 characters like any other.
	p, err = Parse("w", []byte("a=x\xef\xbb\xbfy\n"))
	if err != nil || p.String("a", "") != "x\u00ef\u00bb\u00bfy" || len(p.Warnings()) != 0 {
		t.Fatalf("p=%v err=%v warnings %q", p.Map(), err, p.Warnings())
	}
}

// TestWarningsSuggestSecretName: a misspelled password property gets its
// "did you mean", naming both properties and never the value.
func TestWarningsSuggestSecretName(t *testing.T) {
	p := FromMap(map[string]string{"cassandra.pasword": "hunter2", "hosts": "h"})
	_ = p.String("cassandra.password", "")
	_ = p.String("hosts", "")
	got := strings.Join(p.Warnings(), "\n")
	if got != "warning: property cassandra.pasword is not used by this run (did you mean cassandra.password?)" {
		t.Fatalf("warnings %q", got)
	}
}

// loadFile is LoadFileText without the text.
func loadFile(ctx context.Context, path string) (*Properties, error) {
	p, _, err := LoadFileText(ctx, path)
	return p, err
}
