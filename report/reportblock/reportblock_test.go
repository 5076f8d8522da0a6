package reportblock

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, []byte("{\n  \"a\": 1,\n  \"b\": [1, 2]\n}\n")); err != nil {
		t.Fatal(err)
	}
	want := Begin + "\n" + `{"a":1,"b":[1,2]}` + "\n" + End + "\n"
	if buf.String() != want {
		t.Fatalf("Write:\n%s\nwant\n%s", buf.String(), want)
	}
	bs, err := Read(buf.Bytes())
	if err != nil || len(bs) != 1 || string(bs[0].Doc) != `{"a":1,"b":[1,2]}` || bs[0].Line != 1 {
		t.Fatalf("Read = %+v, %v", bs, err)
	}
}

func TestRead(t *testing.T) {
	for _, tt := range []struct {
		name    string
		log     string
		sources []string
		docs    []string
		err     string
	}{
		{"plain, two pods one after the other",
			"[OVERALL], RunTime(ms), 10\n" + Begin + "\n{\"i\":0}\n" + End + "\nstatus line\n" + Begin + "\n{\"i\":1}\n" + End + "\n",
			[]string{"", ""}, []string{`{"i":0}`, `{"i":1}`}, ""},
		{"stderr between the lines",
			Begin + "\r\n2026-03-01 12:00:00:000 10 sec: 5 operations\n{\"i\":0}\r\n[CLEANUP] 1\n" + End + "\r\n",
			[]string{""}, []string{`{"i":0}`}, ""},
		{"kubectl logs -f --prefix, interleaved",
			"[pod/r-0-a/ycsb] " + Begin + "\n[pod/r-1-b/ycsb] " + Begin + "\n[pod/r-1-b/ycsb] {\"i\":1}\n" +
				"[pod/r-0-a/ycsb] {\"i\":0}\n[pod/r-1-b/ycsb] " + End + "\n[pod/r-0-a/ycsb] " + End + "\n",
			[]string{"pod/r-1-b/ycsb", "pod/r-0-a/ycsb"}, []string{`{"i":1}`, `{"i":0}`}, ""},
		{"--timestamps and --prefix",
			"[pod/r-0-a/ycsb] 2026-03-01T12:00:00.123456789Z " + Begin + "\n[pod/r-0-a/ycsb] 2026-03-01T12:00:00.2Z {\"i\":0}\n" +
				"[pod/r-0-a/ycsb] 2026-03-01T12:00:01Z " + End + "\n",
			[]string{"pod/r-0-a/ycsb"}, []string{`{"i":0}`}, ""},
		{"nothing", "just a text report\n", nil, nil, ""},
		{"truncated", "x\n" + Begin + "\n{\"i\":0}\n", nil, nil, "line 2: the report block is truncated"},
		{"empty", Begin + "\n" + End + "\n", nil, nil, "line 1: the report block has no report"},
		{"two documents", Begin + "\n{}\n{}\n" + End + "\n", nil, nil, "two reports"},
		{"begin twice", "[pod/p] " + Begin + "\n[pod/p] " + Begin + "\n", nil, nil, "line 2: a report block begins before the one at line 1 ends of pod/p"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bs, err := Read([]byte(tt.log))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Read error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(bs) != len(tt.docs) {
				t.Fatalf("%d blocks, want %d", len(bs), len(tt.docs))
			}
			for i, b := range bs {
				if b.Source != tt.sources[i] || string(b.Doc) != tt.docs[i] {
					t.Errorf("block %d = %q %s, want %q %s", i, b.Source, b.Doc, tt.sources[i], tt.docs[i])
				}
			}
		})
	}
}

// A log is read where it lies: a line of any length (300 MB of zeros on
// stdin, with no newline) costs no copy of it, and is no error, only a line
// that holds no report.
func TestReadCopiesNoLine(t *testing.T) {
	log := make([]byte, 16<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	bs, err := Read(log)
	runtime.ReadMemStats(&after)
	if err != nil || len(bs) != 0 {
		t.Fatalf("Read(16 MiB of zeros) = %d blocks, %v", len(bs), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Read allocated %d bytes for a log of %d", n, len(log))
	}
}

// FuzzRead: any log is read without a panic, and every block found holds
// one line of its log that starts with "{".
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	Write(&buf, []byte(`{"a":1}`))
	f.Add(buf.Bytes())
	f.Add([]byte("[pod/r-0-a/ycsb] 2026-03-01T12:00:00.123456789Z " + Begin + "\n[pod/r-0-a/ycsb] {}\n[pod/r-0-a/ycsb] " + End + "\n"))
	f.Add([]byte(Begin + "\r\n{\r\n" + End))
	f.Add([]byte("[x] " + Begin + "\n[y] " + Begin + "\n"))
	f.Fuzz(func(t *testing.T, log []byte) {
		bs, err := Read(log)
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("error of more than one line: %q", err)
		}
		for _, b := range bs {
			if len(b.Doc) == 0 || b.Doc[0] != '{' || bytes.ContainsRune(b.Doc, '\n') || !bytes.Contains(log, b.Doc) {
				t.Fatalf("block %+v is not a line of the log", b)
			}
		}
	})
}
