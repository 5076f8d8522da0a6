package ycsb

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// tmuxSession runs command in a detached tmux session of the given size and
// returns a function that captures the visible pane. Each test has a tmux
// server of its own (its socket in the test's directory), so that two
// checkouts running this test at once never share a session.
func tmuxSession(t *testing.T, width, height int, command string) func() string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tmux := func(args ...string) *exec.Cmd { return exec.Command("tmux", append([]string{"-S", sock}, args...)...) }
	const name = "ycsb-progress"
	// The session outlives the command for a while so the last screen can
	// be read; remain-on-exit would print a status line into the pane.
	cmd := tmux("new-session", "-d", "-s", name, "-x", strconv.Itoa(width), "-y", strconv.Itoa(height),
		"TERM=xterm-256color "+command+"; sleep 60")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	t.Cleanup(func() { tmux("kill-server").Run() })
	return func() string {
		out, err := tmux("capture-pane", "-p", "-t", name).Output()
		if err != nil {
			t.Fatalf("capture-pane: %v", err)
		}
		return string(out)
	}
}

// TestProgressInTmux runs the real binary in a real pty (tmux) and reads
// the screen: one progress line updated in place while the run goes, a
// finished line at the end, the report after it; a narrow terminal gets a
// cut line, not a wrapped one; a pipe gets no progress at all.
func TestProgressInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI: tmux is needed for this test (apt-get install -y tmux)")
		}
		t.Skip("tmux is not installed (apt-get install -y tmux)")
	}
	if testing.Short() {
		t.Skip("builds the binary; -short")
	}
	bin := ycsbtest.Binary(t)
	wl, _ := filepath.Abs("../../workloads/workloada")
	run := bin + " run basic -P " + wl + " -p recordcount=1000 -p operationcount=6000 -target 2000 -p warmup=1 -p report.interval=0.2"
	progressRe := regexp.MustCompile(`^\[[=> ]{20}\] +\d+% \d+:\d\d ETA [-\d:]+ \| .*ops \| .* ops/s now, .* avg`)

	t.Run("wide", func(t *testing.T) {
		capture := tmuxSession(t, 150, 80, run) // tall enough for the whole report
		var sawWarm, sawMeasured bool
		deadline := time.Now().Add(20 * time.Second)
		var screen string
		for time.Now().Before(deadline) {
			time.Sleep(300 * time.Millisecond)
			screen = capture()
			var progress []string
			for _, l := range strings.Split(screen, "\n") {
				if strings.Contains(l, " ops/s now, ") {
					progress = append(progress, l)
				}
			}
			if strings.Contains(screen, "[OVERALL], RunTime(ms)") {
				break
			}
			if len(progress) > 1 {
				t.Fatalf("%d progress lines on the screen, want one updated in place:\n%s", len(progress), screen)
			}
			if len(progress) == 1 {
				if !progressRe.MatchString(progress[0]) {
					t.Fatalf("not a progress line: %q", progress[0])
				}
				sawWarm = sawWarm || strings.Contains(progress[0], "warm-up, ")
				sawMeasured = sawMeasured || strings.Contains(progress[0], "| p99 READ ")
			}
		}
		if !strings.Contains(screen, "[OVERALL], Warmup(ms), 1000") {
			t.Fatalf("the run did not finish:\n%s", screen)
		}
		if !sawWarm || !sawMeasured {
			t.Errorf("saw warm-up %v, saw p99 %v", sawWarm, sawMeasured)
		}
		lines := strings.Split(screen, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "[OVERALL], RunTime(ms)") {
				if i == 0 || !strings.HasPrefix(lines[i-1], "[====================] 100% ") {
					t.Errorf("the line above the report is not the finished progress line:\n%s", screen)
				}
			}
		}
	})

	t.Run("narrow", func(t *testing.T) {
		capture := tmuxSession(t, 60, 40, run)
		time.Sleep(2 * time.Second)
		screen := capture()
		var found bool
		for _, l := range strings.Split(screen, "\n") {
			if strings.HasPrefix(l, "[====") || strings.HasPrefix(l, "[>") || strings.HasPrefix(l, "[=") {
				found = true
				if len([]rune(l)) > 59 {
					t.Errorf("progress line of %d columns on a 60-column terminal: %q", len([]rune(l)), l)
				}
			}
			if strings.HasPrefix(l, "ops/s") || strings.HasPrefix(l, " avg") {
				t.Errorf("the progress line wrapped:\n%s", screen)
			}
		}
		if !found {
			t.Errorf("no progress line:\n%s", screen)
		}
	})

	t.Run("pipe", func(t *testing.T) {
		capture := tmuxSession(t, 150, 40, run+" 2>&1 | cat")
		time.Sleep(2 * time.Second)
		screen := capture()
		if strings.Contains(screen, "ops/s now") {
			t.Errorf("progress on a pipe:\n%s", screen)
		}
		if !strings.Contains(screen, "Starting test.") {
			t.Errorf("the run did not start:\n%s", screen)
		}
	})
}
