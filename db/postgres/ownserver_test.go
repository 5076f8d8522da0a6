package postgres

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// ownServer is a PostgreSQL instance a test starts for itself, on its own
// port and data directory, so that it may stop or restart it without
// touching the shared server other tests use.
type ownServer struct {
	t    testing.TB
	bin  string // directory of initdb, pg_ctl, postgres
	dir  string // data directory
	port int
	asPG bool // run the server binaries as the postgres user (we are root)
}

// startOwnServer starts a private instance from the installed PostgreSQL
// binaries with the test role ycsb/ycsb and database ycsb. It is stopped and
// removed when the test ends. Outside CI a machine without the binaries
// skips; in CI it fails.
func startOwnServer(t testing.TB) *ownServer {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	bin, err := pgBinDir()
	if err != nil {
		ycsbtest.NeedServer(t, "the PostgreSQL server binaries (apt-get install postgresql)", err)
	}
	s := &ownServer{t: t, bin: bin, asPG: os.Geteuid() == 0}
	// Not t.TempDir: its parent is private to root, and the server must not
	// run as root.
	s.dir, err = os.MkdirTemp("", "ycsb-pg-own-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(s.dir) })
	if s.asPG {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("own PostgreSQL: running as root needs the postgres user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(s.dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	s.port = freePort(t)
	pwfile := filepath.Join(s.dir, "pw")
	s.cmd("sh", "-c", "echo ycsb > "+pwfile)
	s.cmd(filepath.Join(bin, "initdb"), "-D", filepath.Join(s.dir, "data"), "-U", "ycsb",
		"--pwfile="+pwfile, "--auth=scram-sha-256", "-E", "UTF8", "--no-sync")
	s.start()
	t.Cleanup(func() {
		s.run(filepath.Join(bin, "pg_ctl"), "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	})
	return s
}

// URL is the instance's DSN for the test role.
func (s *ownServer) URL() string {
	return fmt.Sprintf("postgres://ycsb:ycsb@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

// JDBC is the instance's JDBC URL (credentials go in db.user/db.passwd).
func (s *ownServer) JDBC() string {
	return fmt.Sprintf("jdbc:postgresql://127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

func (s *ownServer) start() {
	s.t.Helper()
	s.cmd(filepath.Join(s.bin, "pg_ctl"), "-D", filepath.Join(s.dir, "data"), "-w", "-t", "60",
		"-l", filepath.Join(s.dir, "log"),
		"-o", fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories=%s -c fsync=off", s.port, s.dir),
		"start")
}

// Restart stops the instance (fast shutdown: sessions are cut) and starts it
// again on the same port.
func (s *ownServer) Restart() {
	s.t.Helper()
	s.cmd(filepath.Join(s.bin, "pg_ctl"), "-D", filepath.Join(s.dir, "data"), "-m", "fast", "-w", "stop")
	s.start()
}

func (s *ownServer) command(name string, args ...string) *exec.Cmd {
	if s.asPG {
		q := []string{shellQuote(name)}
		for _, a := range args {
			q = append(q, shellQuote(a))
		}
		return exec.Command("su", "postgres", "-s", "/bin/sh", "-c", strings.Join(q, " "))
	}
	return exec.Command(name, args...)
}

func (s *ownServer) run(name string, args ...string) ([]byte, error) {
	return s.command(name, args...).CombinedOutput()
}

func (s *ownServer) cmd(name string, args ...string) {
	s.t.Helper()
	if out, err := s.run(name, args...); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		s.t.Fatalf("own PostgreSQL: %s %v: %v\n%s\n%s", filepath.Base(name), args, err, out, log)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// pgBinDir finds the newest installed server's binaries.
func pgBinDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi < vj
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "pg_ctl")); err == nil {
			return dirs[i], nil
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("no pg_ctl under /usr/lib/postgresql/*/bin or on PATH")
}

// freePort asks the kernel for a free loopback port.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Freeze stops every process of the instance with SIGSTOP, as a hung server
// (or host) looks to its clients: connections stay open, nothing answers,
// not even a cancel request. The returned thaw resumes them; it is also
// registered with t.Cleanup, and calling it twice is harmless.
func (s *ownServer) Freeze() (thaw func()) {
	s.t.Helper()
	pidFile, err := os.ReadFile(filepath.Join(s.dir, "data", "postmaster.pid"))
	if err != nil {
		s.t.Fatal(err)
	}
	pm, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(pidFile), "\n", 2)[0]))
	if err != nil || pm <= 0 {
		s.t.Fatalf("postmaster.pid: %q", pidFile)
	}
	// The postmaster first, so that it forks nothing while its children are
	// being stopped.
	pids := []int{pm}
	var once sync.Once
	thaw = func() {
		once.Do(func() {
			for _, p := range pids {
				syscall.Kill(p, syscall.SIGCONT)
			}
		})
	}
	s.t.Cleanup(thaw)
	if err := syscall.Kill(pm, syscall.SIGSTOP); err != nil {
		s.t.Fatal(err)
	}
	for _, p := range childPids(pm) {
		if syscall.Kill(p, syscall.SIGSTOP) == nil {
			pids = append(pids, p)
		}
	}
	return thaw
}

// childPids lists the processes whose parent is ppid.
func childPids(ppid int) []int {
	var out []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		fs := strings.Fields(string(b[i+1:]))
		if len(fs) < 2 {
			continue
		}
		if p, _ := strconv.Atoi(fs[1]); p == ppid {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			out = append(out, pid)
		}
	}
	return out
}
