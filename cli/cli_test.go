package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	_ "github.com/goycsb/ycsb/db/basic"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/props"
)

// run executes a command line in process with fake stdio.
func run(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(ctx, args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func workloadFile(t *testing.T) string {
	t.Helper()
	return filepath.Join("..", "workloads", "workloada")
}

func TestUsage(t *testing.T) {
	code, _, stderr := run(t, context.Background())
	if code != ExitBadInput || !strings.Contains(stderr, "Usage: ycsb <command>") {
		t.Fatalf("no args: code %d, stderr %q", code, stderr)
	}
	for _, arg := range []string{"help", "-h", "--help"} {
		code, stdout, _ := run(t, context.Background(), arg)
		if code != ExitOK || !strings.Contains(stdout, "basic (com.yahoo.ycsb.BasicDB, site.ycsb.BasicDB)") ||
			!strings.Contains(stdout, "  load ") || !strings.Contains(stdout, "  shell ") {
			t.Fatalf("%s: code %d, usage:\n%s", arg, code, stdout)
		}
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	unreadable := filepath.Join(dir, "w")
	os.WriteFile(unreadable, []byte("recordcount=1"), 0o000)
	wa := workloadFile(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"bench"}, `unknown command "bench"`},
		{"missing binding", []string{"load"}, "missing binding"},
		{"unknown binding", []string{"load", "nosuchdb", "-P", wa}, `unknown binding "nosuchdb" (known: basic`},
		{"missing file", []string{"load", "basic", "-P", filepath.Join(dir, "nope")}, "nope: cannot read properties file"},
		{"flag without value", []string{"run", "basic", "-P", wa, "-threads"}, "option -threads needs a value"},
		{"threads not a number", []string{"run", "basic", "-P", wa, "-threads", "x"}, `option -threads: expected an integer, got "x"`},
		{"target not a number", []string{"run", "basic", "-P", wa, "-target", "1.5"}, `option -target: expected an integer, got "1.5"`},
		{"unknown option", []string{"run", "basic", "-P", wa, "-frobnicate"}, "unknown option -frobnicate"},
		{"stray argument", []string{"run", "basic", "-P", wa, "extra"}, `unexpected argument "extra"`},
		{"-p without =", []string{"run", "basic", "-P", wa, "-p", "recordcount"}, `-p: expected name=value, got "recordcount"`},
		{"no workload", []string{"run", "basic"}, "workload: missing"},
		{"negative count", []string{"run", "basic", "-P", wa, "-p", "recordcount=-5"}, `recordcount: expected a non-negative integer, got "-5"`},
		{"not a boolean", []string{"run", "basic", "-P", wa, "-p", "readallfields=maybe"}, `readallfields: expected true or false, got "maybe"`},
		{"zero proportions", []string{"run", "basic", "-P", wa, "-p", "readproportion=0", "-p", "updateproportion=0"}, "all operation proportions are zero"},
		{"insert range", []string{"load", "basic", "-P", wa, "-p", "insertstart=900", "-p", "insertcount=200"}, "must not exceed recordcount (1000)"},
		{"distribution", []string{"run", "basic", "-P", wa, "-p", "requestdistribution=normal"}, `requestdistribution: expected one of`},
		{"measurementtype", []string{"run", "basic", "-P", wa, "-p", "measurementtype=fancy"}, `measurementtype: expected one of`},
		{"exporter", []string{"run", "basic", "-P", wa, "-p", "exporter=xml"}, `exporter: unknown exporter "xml"`},
		{"exportfile dir", []string{"run", "basic", "-P", wa, "-p", "exportfile=" + filepath.Join(dir, "no", "such", "r.txt")}, "exportfile: directory"},
		{"binding property", []string{"run", "basic", "-P", wa, "-p", "basicdb.simulatedelay=soon"}, `basicdb.simulatedelay: expected a number of milliseconds between 0 and`},
		{"zero threads", []string{"run", "basic", "-P", wa, "-threads", "0"}, "threadcount: expected at least 1"},
	}
	if os.Geteuid() != 0 {
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"unreadable file", []string{"load", "basic", "-P", unreadable}, "cannot read properties file: permission denied"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, context.Background(), tt.args...)
			if code != ExitBadInput {
				t.Fatalf("exit code %d, want 2; stderr:\n%s", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, "ycsb: ") || !strings.Contains(last, tt.want) {
				t.Fatalf("last stderr line %q, want it to contain %q", last, tt.want)
			}
			if strings.Contains(stdout, "[OVERALL]") || strings.Contains(stderr, "goroutine ") {
				t.Fatalf("report or stack trace printed:\n%s\n%s", stdout, stderr)
			}
		})
	}
}

// reportLine is a line of the text report: a number, or one of the
// client's verdicts (a loaded machine's GC-PAUSES, CPU-WAIT).
var reportLine = regexp.MustCompile(`^(\[[A-Za-z_%-]+\], [^,]+, -?[0-9.E-]+|\[CLIENT\], Verdict, (KEPT UP|[A-Z][A-Z-]+))$`)

func TestLoadAndRunBasic(t *testing.T) {
	wa := workloadFile(t)
	code, stdout, stderr := run(t, context.Background(), "load", "basic", "-P", wa, "-s")
	if code != ExitOK {
		t.Fatalf("load: %d %s", code, stderr)
	}
	for _, want := range []string{"[OVERALL], RunTime(ms), ", "[OVERALL], Throughput(ops/sec), ", "[TOTAL_GCs], Count, ",
		"[INSERT], Operations, 1000\n", "[INSERT], Return=OK, 1000\n", "[INSERT], 95thPercentileLatency(us), ", "[CLEANUP], Operations, 1\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("load report lacks %q:\n%s", want, stdout)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if !reportLine.MatchString(l) {
			t.Errorf("not a report line: %q", l)
		}
	}
	if !regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3} \d+ sec: 1000 operations; [0-9.]+ current ops/sec; \[`).MatchString(stderr) {
		t.Errorf("no final status line in stderr:\n%s", stderr)
	}

	code, stdout, stderr = run(t, context.Background(), "run", "basic", "-P", wa, "-p", "operationcount=4000", "-threads", "4", "-l", "LBL")
	if code != ExitOK {
		t.Fatalf("run: %d %s", code, stderr)
	}
	reads := atoiAfter(t, stdout, "[READ], Return=OK, ")
	updates := atoiAfter(t, stdout, "[UPDATE], Return=OK, ")
	if reads+updates != 4000 || reads < 1700 || updates < 1700 {
		t.Errorf("reads %d + updates %d, want 4000 split about evenly", reads, updates)
	}
	if !strings.Contains(stdout, "[CLEANUP], Operations, 4\n") {
		t.Errorf("want one CLEANUP per thread:\n%s", stdout)
	}
	// The reference's section order: READ, CLEANUP, UPDATE for workload A.
	ri, ci, ui := strings.Index(stdout, "[READ]"), strings.Index(stdout, "[CLEANUP]"), strings.Index(stdout, "[UPDATE]")
	if !(ri < ci && ci < ui) {
		t.Errorf("section order READ %d, CLEANUP %d, UPDATE %d", ri, ci, ui)
	}
}

func atoiAfter(t *testing.T, s, prefix string) int {
	t.Helper()
	i := strings.Index(s, prefix)
	if i < 0 {
		t.Fatalf("no %q in:\n%s", prefix, s)
	}
	n := 0
	for _, c := range s[i+len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	f1 := filepath.Join(dir, "one")
	f2 := filepath.Join(dir, "two")
	os.WriteFile(f1, []byte("workload=site.ycsb.workloads.CoreWorkload\nrecordcount=10\noperationcount=7\nthreadcount=3\n"), 0o644)
	os.WriteFile(f2, []byte("operationcount=9\n"), 0o644)
	p, err := parseArgs([]string{"-P", f1, "-threads", "4", "-p", "threadcount=8", "-P", f2, "-p", "x=1", "-db", "site.ycsb.BasicDB", "-s", "-l", "L"}, false)
	if err != nil {
		t.Fatal(err)
	}
	all, err := p.properties(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"threadcount": "8", "operationcount": "9", "recordcount": "10", "x": "1", "status": "true", "label": "L", "db": "site.ycsb.BasicDB"}
	for k, v := range want {
		if got := all.String(k, "<unset>"); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	// -db overrides the positional binding name.
	_, name, err := binding("nosuchdb", all)
	if err != nil || name != "basic" {
		t.Errorf("binding = %q, %v", name, err)
	}
}

func TestJavaLauncherOptionsAreNamed(t *testing.T) {
	code, _, stderr := run(t, context.Background(), "run", "basic", "-P", workloadFile(t), "-p", "operationcount=10", "-jvm-args", "-Xmx4g", "-cp", "lib")
	if code != ExitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	for _, opt := range []string{"-jvm-args", "-cp"} {
		if !strings.Contains(stderr, "ycsb: ignoring "+opt+": it configures the reference's Java launcher") {
			t.Errorf("no note for %s in stderr:\n%s", opt, stderr)
		}
	}
}

func TestBindingFromDbOnly(t *testing.T) {
	code, stdout, stderr := run(t, context.Background(), "run", "-db", "site.ycsb.BasicDB", "-P", workloadFile(t), "-p", "operationcount=10")
	if code != ExitOK || !strings.Contains(stdout, "[READ], Operations, ") {
		t.Fatalf("code %d:\n%s\n%s", code, stdout, stderr)
	}
}

func TestMaxExecutionTimeWithUnboundedOps(t *testing.T) {
	start := time.Now()
	code, stdout, stderr := run(t, context.Background(), "run", "basic", "-P", workloadFile(t), "-p", "operationcount=0", "-p", "maxexecutiontime=1", "-threads", "2")
	if code != ExitOK || time.Since(start) > 20*time.Second {
		t.Fatalf("code %d after %v: %s", code, time.Since(start), stderr)
	}
	if !strings.Contains(stderr, "Maximum execution time specified as: 1 secs") || atoiAfter(t, stdout, "[READ], Operations, ") < 1000 {
		t.Fatalf("unexpected output:\n%s\n%s", stdout, stderr)
	}
}

func TestInterruptPrintsReport(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	code, stdout, _ := run(t, ctx, "run", "basic", "-P", workloadFile(t), "-p", "operationcount=0", "-p", "basicdb.simulatedelay=2")
	if code != ExitInterrupted {
		t.Fatalf("exit code %d, want %d", code, ExitInterrupted)
	}
	if !strings.Contains(stdout, "[OVERALL], RunTime(ms)") || atoiAfter(t, stdout, "[READ], Operations, ") == 0 {
		t.Fatalf("no report after interrupt:\n%s", stdout)
	}
	if strings.Contains(stdout, "Return=ERROR") {
		t.Fatalf("interrupted operations were counted as errors:\n%s", stdout)
	}
}

// flaky fails every third operation and panics every seventh.
type flaky struct{ n atomic.Int64 }

func (f *flaky) Open(context.Context, *props.Properties, io.Writer) (db.DB, error) { return f, nil }
func (f *flaky) Session(context.Context, int, int) (db.Session, error)             { return flakySession{f}, nil }
func (f *flaky) Close() error                                                      { return nil }

type flakySession struct{ f *flaky }

func (s flakySession) op() error {
	n := s.f.n.Add(1)
	switch {
	case n%7 == 0:
		panic("boom")
	case n%3 == 0:
		return errors.New("flaky: lost connection")
	}
	return nil
}
func (s flakySession) Read(context.Context, string, string, []string, *db.Record) error {
	return s.op()
}
func (s flakySession) Scan(context.Context, string, string, int, []string, *db.Rows) error {
	return s.op()
}
func (s flakySession) Update(context.Context, string, string, []db.Field) error { return s.op() }
func (s flakySession) Insert(context.Context, string, string, []db.Field) error { return s.op() }
func (s flakySession) Delete(context.Context, string, string) error             { return s.op() }
func (s flakySession) Close(context.Context) error                              { return nil }

func init() { db.Register("flaky-test", "fails on purpose (tests only)", &flaky{}) }

func TestBindingErrorsAndPanicsAreCounted(t *testing.T) {
	code, stdout, stderr := run(t, context.Background(), "run", "flaky-test", "-P", workloadFile(t), "-p", "operationcount=2100", "-p", "readproportion=1", "-p", "updateproportion=0")
	if code != ExitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	// Of 2100 operations, 300 panic (n%7) and 600 of the rest fail (n%3, not n%21).
	if ok, bad := atoiAfter(t, stdout, "[READ], Return=OK, "), atoiAfter(t, stdout, "[READ], Return=ERROR, "); ok != 1200 || bad != 900 {
		t.Fatalf("OK %d ERROR %d, want 1200 and 900:\n%s", ok, bad, stdout)
	}
	if atoiAfter(t, stdout, "[READ-FAILED], Operations, ") != 900 {
		t.Fatalf("READ-FAILED section wrong:\n%s", stdout)
	}
}

func TestShell(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader("help\ntable\ntable t2\nread k1 field0\ninsert k1 field0=a\nscan k1 3\nbogus\nquit\n")
	code := Run(context.Background(), []string{"shell", "basic"}, &Env{Stdin: in, Stdout: &out, Stderr: &out})
	if code != 0 {
		t.Fatalf("code %d: %s", code, out.String())
	}
	for _, want := range []string{"Commands:", `Using table "usertable"`, `Using table "t2"`, "Return code: OK", "Result: OK", "0 records", `Error: unknown command "bogus"`, " ms\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("shell output lacks %q:\n%s", want, out.String())
		}
	}
}

func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{"-P x -p a=b -threads 4", "-s -load -t -l lbl", "-p =", "-threads", "-db site.ycsb.BasicDB -target 10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		p, err := parseArgs(args, false)
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) && !props.IsBadInput(err) {
				t.Fatalf("%q: error of type %T: %v", line, err, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if v, ok := p.cmdline.Get("threadcount"); ok {
			if _, err := p.cmdline.Int64("threadcount", 0); err != nil {
				t.Fatalf("accepted -threads %q", v)
			}
		}
	})
}

// failClose is basic whose sessions fail to close, like a batch that cannot
// be flushed at the end.
type failClose struct{ flaky }

func (f *failClose) Open(context.Context, *props.Properties, io.Writer) (db.DB, error) { return f, nil }
func (f *failClose) Session(context.Context, int, int) (db.Session, error) {
	return failCloseSession{flakySession{&f.flaky}}, nil
}

type failCloseSession struct{ flakySession }

func (failCloseSession) Read(context.Context, string, string, []string, *db.Record) error {
	return nil
}
func (failCloseSession) Close(context.Context) error {
	return errors.New("flush: connection lost")
}

func init() { db.Register("failclose-test", "sessions fail to close (tests only)", &failClose{}) }

func TestFailedCleanupIsCounted(t *testing.T) {
	code, stdout, stderr := run(t, context.Background(), "run", "failclose-test", "-P", workloadFile(t),
		"-p", "operationcount=100", "-p", "readproportion=1", "-p", "updateproportion=0", "-threads", "3")
	if code != ExitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	if atoiAfter(t, stdout, "[CLEANUP], Return=ERROR, ") != 3 {
		t.Fatalf("failed cleanups not counted:\n%s", stdout)
	}
	if !strings.Contains(stderr, "cleanup: flush: connection lost") {
		t.Fatalf("cleanup error not reported on stderr:\n%s", stderr)
	}
}

// TestPropertyWarnings: a property nothing reads, or one whose value has no
// effect, gets one line on stderr after the start-up lines; the run goes on.
// The lines are in testdata/warnings.golden.
func TestPropertyWarnings(t *testing.T) {
	dir := t.TempDir()
	spaced := filepath.Join(dir, "spaced")
	os.WriteFile(spaced, []byte("workload=site.ycsb.workloads.CoreWorkload \nrecordcount=10\n"), 0o644)
	wa := workloadFile(t)
	tests := []struct {
		name  string
		args  []string
		quiet bool
	}{
		{"prometheus on every interface", []string{"run", "basic", "-P", wa, "-p", "operationcount=10", "-p", "prometheus.addr=:0"}, false},
		{"prometheus on loopback", []string{"run", "basic", "-P", wa, "-p", "operationcount=10", "-p", "prometheus.addr=127.0.0.1:0"}, true},
		{"former name", []string{"run", "basic", "-P", wa, "-p", "operationcount=10", "-p", "columnfamily=data"}, false},
		{"typo", []string{"run", "basic", "-P", wa, "-p", "operationcount=10", "-p", "readproportoin=0.5"}, false},
		{"unknown", []string{"load", "basic", "-P", wa, "-p", "recordcount=10", "-p", "frobnicate=1"}, false},
		{"hdr log without hdrhistogram", []string{"run", "basic", "-P", wa, "-p", "operationcount=10", "-p", "measurementtype=histogram", "-p", "hdrhistogram.fileoutput=true"}, false},
		{"trailing space in workload", []string{"load", "basic", "-P", spaced}, false},
	}
	var golden strings.Builder
	for _, tt := range tests {
		code, _, stderr := run(t, context.Background(), tt.args...)
		if code != ExitOK {
			t.Fatalf("%s: exit code %d, want 0; stderr:\n%s", tt.name, code, stderr)
		}
		fmt.Fprintf(&golden, "## %s\n", tt.name)
		lines := warningLines(stderr)
		if tt.quiet {
			if len(lines) > 0 {
				t.Errorf("%s: warnings:\n%s", tt.name, strings.Join(lines, "\n"))
			}
			continue
		}
		if len(lines) == 0 {
			t.Errorf("%s: no warning on stderr:\n%s", tt.name, stderr)
			continue
		}
		for _, l := range lines {
			golden.WriteString(strings.ReplaceAll(l, dir, "$DIR") + "\n")
		}
		// After the start-up lines, before the run.
		if i, j := strings.Index(stderr, "Loading workload..."), strings.Index(stderr, lines[0]); i < 0 || j < i || j > strings.Index(stderr, "Starting test.") {
			t.Errorf("%s: warning not between the start-up lines and the run:\n%s", tt.name, stderr)
		}
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "warnings.golden"), []byte(golden.String()))
}

// TestShippedWorkloadsDrawNoWarning: every file under workloads/, loaded and
// run, reads or accepts each of its properties.
func TestShippedWorkloadsDrawNoWarning(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "workloads", "*"))
	if err != nil || len(files) < 7 {
		t.Fatalf("workloads: %v %v", files, err)
	}
	for _, f := range files {
		for _, phase := range []string{"load", "run"} {
			t.Run(filepath.Base(f)+"/"+phase, func(t *testing.T) {
				code, _, stderr := run(t, context.Background(), phase, "basic", "-P", f, "-p", "recordcount=100", "-p", "operationcount=100")
				if filepath.Base(f) == "closedeconomy" {
					// basic has no transactions; cmd/ycsb's TestEconomy* run it
					// on PostgreSQL, and look for warnings there.
					if code != ExitBadInput || !strings.Contains(stderr, "binding basic has none") {
						t.Errorf("exit code %d; stderr:\n%s", code, stderr)
					}
					return
				}
				if code != ExitOK {
					t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
				}
				if l := warningLines(stderr); len(l) > 0 {
					t.Errorf("warnings:\n%s", strings.Join(l, "\n"))
				}
			})
		}
	}
}

func warningLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "warning: ") || strings.HasPrefix(l, "note: ") {
			out = append(out, l)
		}
	}
	return out
}

// TestShellInputEchoedSafely: what the shell writes back of a line typed
// (an unknown command) reaches the terminal quoted, its escape bytes
// escaped; a table, key or field with control characters, and an insert or
// update with an empty field name, are refused, not sent.
func TestShellInputEchoedSafely(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader("\x1b]0;owned\x07\x1b[2J\ntable t\x1b[31m\ninsert k1 =b\nupdate k1 f=1 =2\ninsert k1 f=x\nquit\n")
	code := Run(context.Background(), []string{"shell", "basic", "-p", "basicdb.verbose=true"}, &Env{Stdin: in, Stdout: &out, Stderr: &out})
	if code != 0 {
		t.Fatalf("code %d: %s", code, out.String())
	}
	got := out.String()
	for _, want := range []string{`Error: unknown command "\x1b]0;owned\a\x1b[2J"`, `Error: "t\x1b[31m" holds control characters; type printable text`,
		`Error: field 1 ("=b") has no name; syntax is "insert keyname name1=value1 [name2=value2 ...]"`,
		`Error: field 2 ("=2") has no name; syntax is "update keyname name1=value1 [name2=value2 ...]"`} {
		if !strings.Contains(got, want) {
			t.Errorf("shell output lacks %q:\n%q", want, got)
		}
	}
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("raw escape bytes reached the terminal:\n%q", got)
	}
	if strings.Count(got, "INSERT") != 1 || strings.Contains(got, "UPDATE") {
		t.Errorf("a refused insert or update reached the binding:\n%s", got)
	}
}
