package mysql

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// ownServer is a MariaDB instance a test starts for itself, on its own
// port and data directory, so that it may restart it without touching
// the shared server the other tests use.
type ownServer struct {
	t    testing.TB
	dir  string
	port int
	cmd  *exec.Cmd
}

// startOwnServer creates a data directory and starts mariadbd on a free
// port with the user ycsb/ycsb and database ycsb; it is stopped and
// removed when the test ends. Without the server binaries it skips
// (outside CI) or fails (in CI).
func startOwnServer(t testing.TB) *ownServer {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	for _, bin := range []string{"mariadbd", "mariadb-install-db", "mariadb"} {
		if _, err := exec.LookPath(bin); err != nil {
			ycsbtest.NeedServer(t, "the MariaDB server binaries (apt-get install mariadb-server)", err)
		}
	}
	dir, err := os.MkdirTemp("", "ycsb-mariadb-own-")
	if err != nil {
		t.Fatal(err)
	}
	s := &ownServer{t: t, dir: dir}
	t.Cleanup(func() { os.RemoveAll(dir) })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	if out, err := exec.Command("mariadb-install-db", "--no-defaults", "--user="+s.user(), "--datadir="+filepath.Join(dir, "data"),
		"--auth-root-authentication-method=normal", "--skip-test-db").CombinedOutput(); err != nil {
		t.Fatalf("own MariaDB: install-db: %v\n%s", err, out)
	}
	s.start()
	t.Cleanup(s.stop)
	s.sql("DELETE FROM mysql.global_priv WHERE User = ''; FLUSH PRIVILEGES; CREATE DATABASE ycsb; " +
		"CREATE USER 'ycsb'@'%' IDENTIFIED BY 'ycsb'; CREATE USER 'ycsb'@'localhost' IDENTIFIED BY 'ycsb'; " +
		"GRANT ALL ON ycsb.* TO 'ycsb'@'%'; GRANT ALL ON ycsb.* TO 'ycsb'@'localhost'")
	return s
}

// user is who the server runs as: root when we are root (the temporary
// directory may be one the mysql user cannot enter).
func (s *ownServer) user() string {
	if os.Geteuid() == 0 {
		return "root"
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}

func (s *ownServer) sock() string { return filepath.Join(s.dir, "m.sock") }

// URL is the instance's mysql:// URL for the test user.
func (s *ownServer) URL() string { return fmt.Sprintf("mysql://ycsb:ycsb@127.0.0.1:%d/ycsb", s.port) }

func (s *ownServer) start() {
	s.t.Helper()
	s.cmd = exec.Command("mariadbd", "--no-defaults", "--user="+s.user(), "--datadir="+filepath.Join(s.dir, "data"),
		"--port="+strconv.Itoa(s.port), "--bind-address=127.0.0.1", "--socket="+s.sock(),
		"--pid-file="+filepath.Join(s.dir, "m.pid"), "--log-error="+filepath.Join(s.dir, "log"),
		"--innodb-buffer-pool-size=32M", "--innodb-log-file-size=16M", "--skip-name-resolve")
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if err := exec.Command("mariadb", "--no-defaults", "-S", s.sock(), "-uroot", "-e", "SELECT 1").Run(); err == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
			s.t.Fatalf("own MariaDB not ready after 60 s:\n%s", log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stop shuts the instance down (SIGTERM: sessions are cut) and waits.
func (s *ownServer) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	s.cmd = nil
}

// Restart stops the instance and starts it again on the same port.
func (s *ownServer) Restart() {
	s.t.Helper()
	s.stop()
	s.start()
}

func (s *ownServer) sql(q string) {
	s.t.Helper()
	if out, err := exec.Command("mariadb", "--no-defaults", "-S", s.sock(), "-uroot", "-e", q).CombinedOutput(); err != nil {
		s.t.Fatalf("own MariaDB: %v\n%s", err, out)
	}
}

// TestRestartMidRun restarts a MariaDB of its own in the middle of a
// `ycsb run mariadb` with maxexecutiontime: the operations cut are counted
// as errors, the sessions connect again, and the run ends with its report
// and exit code 0.
func TestRestartMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and restarts a server of its own; skipped with -short")
	}
	srv := startOwnServer(t)
	c := newCLI(t)
	common := []string{"-P", c.workload("workloada"), "-p", "db.url=" + srv.URL(), "-p", "table=ycsb_restart",
		"-p", "recordcount=2000", "-threads", "4"}
	c.run(false, append([]string{"load", "mariadb", "-p", "batch.size=100"}, common...)...)
	var stdout, stderr bytes.Buffer
	run := exec.Command(c.bin, append([]string{"run", "mariadb", "-p", "operationcount=0", "-p", "maxexecutiontime=12"}, common...)...)
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	srv.Restart()
	done := make(chan error, 1)
	go func() { done <- run.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		run.Process.Kill()
		t.Fatalf("the run did not end 60 s after maxexecutiontime\n%s\n%s", stdout.String(), stderr.String())
	}
	out := stdout.String()
	if err != nil {
		t.Fatalf("run exited with %v\n%s\n%s", err, out, stderr.String())
	}
	if n := sum(`\[(READ|UPDATE)\], Return=(ERROR|SERVICE_UNAVAILABLE), (\d+)`, out); n == 0 {
		t.Errorf("no failed operations counted across a restart:\n%s", out)
	}
	m := regexp.MustCompile(`\[CONNECTIONS\], Reconnects, (\d+)`).FindStringSubmatch(out)
	if m == nil || m[1] == "0" {
		t.Errorf("no reconnects reported:\n%s", out)
	}
	if !strings.Contains(out, "[READ], Return=OK") {
		t.Errorf("no successful reads:\n%s", out)
	}
}
